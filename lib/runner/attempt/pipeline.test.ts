// The pipeline's own rules, with steps that only say what they were asked: the profile leaves a step
// out, "after green" waits for a green gate, an inconclusive step stops the green ones, a stop ends it.
import { describe, expect, it } from "vitest";
import type { Verdict } from "../../gates/gate";
import type { Profile } from "../../gates/work-schema";
import type { AttemptContext } from "./context";
import { JUDGING_STEPS, runSteps } from "./pipeline";
import type { Step, StepResult } from "./step";

const ctxOf = (profile: Profile, signal = new AbortController().signal) =>
  ({ run: { profile, policy: "required" }, signal }) as unknown as AttemptContext;

function step(id: string, over: Partial<Step> & { verdict?: Verdict; inconclusive?: string } = {}) {
  const calls: string[] = [];
  const result = (): StepResult => ({
    verdicts: [{ required: true, verdict: over.verdict ?? "passed", checkId: id, message: null }],
    inconclusive: over.inconclusive ?? null,
  });
  const s: Step = {
    id,
    profiles: over.profiles ?? ["lite", "standard", "full"],
    after: over.after ?? "always",
    run: async () => {
      calls.push(`${id}.run`);
      return result();
    },
    notRun: over.notRun,
  };
  return { s, calls };
}

describe("runSteps", () => {
  it("runs every step in order while the gate is green, and gathers their verdicts", async () => {
    const a = step("a");
    const b = step("b", { after: "green" });
    const out = await runSteps(ctxOf("lite"), [a.s, b.s]);
    expect([...a.calls, ...b.calls]).toEqual(["a.run", "b.run"]);
    expect(out.verdicts.map((v) => v.checkId)).toEqual(["a", "b"]);
    expect(out.inconclusive).toBe(null);
  });

  it("after a red verdict: steps after green do not run (or record that they did not); the others do", async () => {
    const red = step("red", { verdict: "failed" });
    const green = step("green-only", { after: "green" });
    const always = step("always");
    const notRun: string[] = [];
    const withRow = step("with-row", {
      after: "green",
      notRun: async () => {
        notRun.push("with-row");
        return { verdicts: [{ required: true, verdict: "skipped", checkId: "with-row", message: "not run" }] };
      },
    });
    const out = await runSteps(ctxOf("full"), [red.s, green.s, always.s, withRow.s]);
    expect(green.calls).toEqual([]);
    expect(always.calls).toEqual(["always.run"]);
    expect(notRun).toEqual(["with-row"]);
    expect(out.verdicts.map((v) => `${v.checkId}:${v.verdict}`)).toEqual([
      "red:failed",
      "always:passed",
      "with-row:skipped",
    ]);
  });

  it("leaves out a step the run's profile does not include", async () => {
    const onlyFull = step("only-full", { profiles: ["full"] });
    const out = await runSteps(ctxOf("standard"), [onlyFull.s]);
    expect(onlyFull.calls).toEqual([]);
    expect(out.verdicts).toEqual([]);
  });

  it("keeps the first inconclusive reason, and no step after it waits for green", async () => {
    const first = step("review", { inconclusive: "review: it executed no command" });
    const second = step("later", { after: "green" });
    const out = await runSteps(ctxOf("full"), [first.s, second.s]);
    expect(second.calls).toEqual([]);
    expect(out.inconclusive).toBe("review: it executed no command");
  });

  it("a stopped run runs no further step", async () => {
    const controller = new AbortController();
    const stopping: Step = {
      ...step("stop").s,
      run: async () => {
        controller.abort();
        return { verdicts: [] };
      },
    };
    const after = step("after");
    await runSteps(ctxOf("full", controller.signal), [stopping, after.s]);
    expect(after.calls).toEqual([]);
  });
});

describe("JUDGING_STEPS", () => {
  it("are the checks, the proof rows and the layers, in the order their rows appear", () => {
    expect(JUDGING_STEPS.map((s) => `${s.id}:${s.after}:${s.profiles.join("/")}`)).toEqual([
      "checks:always:lite/standard/full",
      "unchanged:always:lite/standard/full",
      "proof:always:lite/standard/full",
      "evidence:always:standard/full",
      "proof-reruns:green:lite/standard/full",
      "review:green:standard/full",
      "red-team:green:full",
      "mutation:green:full",
    ]);
  });
});
