// The profile's layers (review, red team, mutation floor) through their context alone, in the cases that
// need no agent CLI or mutation tool: what each records when it cannot do its work.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_THRESHOLD } from "../../../gates/mutation";
import { attemptContextFor, runStep } from "../../../testing/attempt-context";
import { check, createHarness, makeScenario, type Harness } from "../../../testing/runner-harness";
import { mutationStep } from "./mutation";
import { redTeamStep } from "./red-team";
import { reviewStep } from "./review";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

const FILES = { "src/a.js": "module.exports = 1;\n" };
const CRITERION = { task: { acceptanceChecks: [check("works", "true")] }, files: FILES };

describe("reviewStep", () => {
  it("a review that executes no command is retried 3 times, then the attempt is inconclusive", async () => {
    const s = await makeScenario(h, { profile: "standard", reviewCommand: "echo looks fine" }, CRITERION);
    const { ctx } = await attemptContextFor(h, s);
    const { verdicts, inconclusive } = await runStep(ctx, reviewStep);
    expect(verdicts).toMatchObject([{ checkId: "_review", verdict: "error", required: true }]);
    expect(inconclusive).toBe("review: the review did not run after 4 tries: it executed no command");
  });

  it("without criteria there is nothing to review: no row", async () => {
    const s = await makeScenario(h, { profile: "standard", reviewCommand: "echo looks fine" }, { files: FILES });
    const { ctx } = await attemptContextFor(h, s);
    expect(await runStep(ctx, reviewStep)).toEqual({ verdicts: [] });
  });
});

describe("redTeamStep", () => {
  it("with the budget spent the red team does not run: its row is an error saying so", async () => {
    const s = await makeScenario(
      h,
      { profile: "full", redTeamCommand: "true", redTeamTestCommand: "true", budgetSec: 1, requireTests: "warn" },
      { files: FILES },
    );
    const { ctx } = await attemptContextFor(h, s);
    ctx.run.spentMs = 1000;
    const { verdicts } = await runStep(ctx, redTeamStep);
    expect(verdicts).toEqual([
      {
        checkId: "_redteam",
        verdict: "error",
        required: true,
        message: "not run: the run's budget of 1s is spent",
      },
    ]);
  });
});

describe("mutationStep", () => {
  it("after a red gate its row says it did not run; without a threshold, that nobody checked", async () => {
    const s = await makeScenario(h, { profile: "full", requireTests: "warn" }, { files: FILES });
    const { ctx } = await attemptContextFor(h, s);
    expect((await mutationStep.notRun!(ctx)).verdicts).toMatchObject([
      { checkId: "_mutation", verdict: "skipped", message: "not run: the gate is red" },
    ]);
    const { verdicts } = await runStep(ctx, mutationStep);
    expect(verdicts).toMatchObject([{ checkId: "_mutation", verdict: "skipped", message: NO_THRESHOLD }]);
  });
});
