// Where the sandbox cannot work, a run's commands are refused with the reason, never run unsandboxed: the
// run ends inconclusive, names GATEHOUSE_SANDBOX, and records that its sandbox was unavailable.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import { resolveSandboxMode } from "./sandbox/mode";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: resolveSandboxMode({}, null, "darwin") });
});
afterAll(async () => h?.cleanup());

it("the agent and the checks are refused, the run is inconclusive and says why", async () => {
  const s = await makeScenario(h, {
    agentCommand: "echo ran > agent-ran.txt",
    checkDefaults: [check("unit", "echo ran > check-ran.txt")],
  });
  const detail = await dispatchAndSettle(h, s.task.id);
  expect(detail.run.sandboxMode).toBe("unavailable");
  expect(detail.run.ending).toBe("inconclusive");
  expect(detail.run.endingReason).toMatch(/the sandbox cannot start: .*GATEHOUSE_SANDBOX=off/);
  expect(fs.existsSync(path.join(s.worktree, "agent-ran.txt"))).toBe(false);
});

it("a check alone is refused as an error naming the setting", async () => {
  const s = await makeScenario(h, { checkDefaults: [check("unit", "echo ran > check-ran.txt")] });
  const detail = await dispatchAndSettle(h, s.task.id);
  expect(detail.attempts[0].results[0]).toMatchObject({ verdict: "error" });
  expect(detail.attempts[0].results[0].message).toMatch(/GATEHOUSE_SANDBOX=off/);
  expect(fs.existsSync(path.join(s.worktree, "check-ran.txt"))).toBe(false);
  expect(detail.run.ending).toBe("inconclusive");
});
