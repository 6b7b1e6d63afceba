// The USD budget: the agent CLI's reported cost (its JSON result's total_cost_usd) counts against the
// run's budgetUsd; a red run whose agents have spent it ends partial, saying how much of how much, and the
// run's JSON shows the spend. Real runs, a real agent process printing a Claude Code-shaped result.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { presentRun } from "../api/present-run";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.cleanup());

const RESULT = JSON.stringify({ type: "result", num_turns: 3, result: "Tried again.", total_cost_usd: 0.6, usage: {} });

describe("budgetUsd", () => {
  it("ends a red run partial once the agent's reported cost reaches the budget", async () => {
    const s = await makeScenario(
      h,
      { maxGateAttempts: 5, budgetUsd: 1, agentCommand: `echo '${RESULT}'`, checkDefaults: [check("unit", "exit 1")] },
      { task: { budgetUsd: null } },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("partial");
    expect(detail.attempts).toHaveLength(2);
    expect(detail.run.endingReason).toBe("budget in USD spent ($1.20 of $1.00) with the gate still red");
    expect(presentRun(detail)).toMatchObject({ budgetUsd: 1, spentUsd: expect.closeTo(1.2, 10) });
    expect(detail.attempts[0].agentMessage).toBe("Tried again.");
  });

  it("a task's own budget wins over the Work's; a bad one is refused naming the field", async () => {
    const s = await makeScenario(
      h,
      {
        maxGateAttempts: 5,
        budgetUsd: 100,
        agentCommand: `echo '${RESULT}'`,
        checkDefaults: [check("unit", "exit 1")],
      },
      { task: { budgetUsd: 0.5 } },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect([detail.run.ending, detail.attempts.length]).toEqual(["partial", 1]);
    await expect(makeScenario(h, { budgetUsd: -1 })).rejects.toMatchObject({
      issues: [{ path: "budgetUsd", message: "more than 0" }],
    });
  });
});
