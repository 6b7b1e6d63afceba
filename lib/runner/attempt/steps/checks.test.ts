// The check step through its context alone: verdicts and messages per check, the budget, failFast and
// the agent's reported checks, without a dispatch running the attempt.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptContextFor, runStep } from "../../../testing/attempt-context";
import { check, createHarness, makeScenario, type Harness } from "../../../testing/runner-harness";
import { checksStep } from "./checks";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

describe("checksStep", () => {
  it("runs each check and returns a verdict per check; a test summary fails an exit 0", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [
        check("ok", "echo fine"),
        check("bad", "echo broken; exit 3"),
        check("lies", "echo '# tests 2'; echo '# pass 1'; echo '# fail 1'; exit 0", { kind: "test" }),
        check("info", "exit 1", { required: false }),
      ],
    });
    const { ctx } = await attemptContextFor(h, s);
    const { verdicts } = await runStep(ctx, checksStep);
    expect(verdicts.map((v) => [v.checkId, v.verdict, v.required])).toEqual([
      ["ok", "passed", true],
      ["bad", "failed", true],
      ["lies", "failed", true],
      ["info", "failed", false],
    ]);
    const rows = Object.fromEntries(ctx.results.view().map((r) => [r.checkId, r]));
    expect(rows.bad).toMatchObject({ exitCode: 3, message: "broken" });
    expect(rows.lies.message).toBe("exit 0 but 1 test failed");
    expect(ctx.run.spentMs).toBeGreaterThan(0);
  });

  it("with the budget spent, no check runs: each is skipped with the reason", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("ok", "echo fine")], budgetSec: 1 });
    const { ctx } = await attemptContextFor(h, s);
    ctx.run.spentMs = 1000;
    const { verdicts } = await runStep(ctx, checksStep);
    expect(verdicts).toEqual([
      { required: true, verdict: "skipped", checkId: "ok", message: "not run: the run's budget of 1s is spent" },
    ]);
  });

  it("failFast stops the rest after a required failure, naming it", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [check("first", "exit 1"), check("second", "echo never")],
      failFast: true,
    });
    const { ctx } = await attemptContextFor(h, s);
    const { verdicts } = await runStep(ctx, checksStep);
    expect(verdicts[1]).toEqual({
      required: true,
      verdict: "skipped",
      checkId: "second",
      message: 'not run: failFast stopped the attempt after "first" failed',
    });
  });

  it("an agent check takes the verdict the agent reported; unreported without an agent step", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [check("served", "curl the dev server", { executor: "agent" })],
    });
    const { ctx } = await attemptContextFor(h, s);
    expect((await runStep(ctx, checksStep)).verdicts[0]).toMatchObject({
      verdict: "skipped",
      message: "not reported: no agent step in this attempt",
    });
    ctx.agentReport = { verdicts: new Map([["served", { verdict: "passed", message: "it answered 200" }]]), notes: [] };
    expect((await runStep(ctx, checksStep)).verdicts[0]).toMatchObject({
      verdict: "passed",
      message: "it answered 200",
    });
  });
});
