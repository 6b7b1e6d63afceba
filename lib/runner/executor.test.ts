// The local executor's stopAll: what a test harness calls before it drops the database its runs write to.
import { describe, expect, it } from "vitest";
import { LocalExecutor } from "./executor";

// An advance that runs until its signal aborts, recording how it ended; `then` dispatches a follow-up run
// once (as a stage's autoAdvance would) when the first one ends.
function recordingExecutor(then?: string) {
  const ended: { runId: string; reason: unknown }[] = [];
  const executor: LocalExecutor = new LocalExecutor(1, (runId, signal) => {
    return new Promise<void>((resolve) => {
      const end = () => {
        ended.push({ runId, reason: signal.reason });
        if (then && runId === "first") executor.submit(then);
        resolve();
      };
      if (signal.aborted) end();
      else signal.addEventListener("abort", end, { once: true });
    });
  });
  return { executor, ended };
}

describe("LocalExecutor.stopAll", () => {
  it("stops the active and the queued runs as a shutdown, and resolves once none is held", async () => {
    const { executor, ended } = recordingExecutor();
    executor.submit("first");
    executor.submit("second");
    expect(executor.isHolding("first") && executor.isHolding("second")).toBe(true);
    await executor.stopAll();
    expect(executor.isHolding("first") || executor.isHolding("second")).toBe(false);
    // The queued one never started its work: it ends at once, with the same reason.
    expect([...ended].sort((a, b) => a.runId.localeCompare(b.runId))).toEqual([
      { runId: "first", reason: { kind: "shutdown" } },
      { runId: "second", reason: { kind: "shutdown" } },
    ]);
  });

  it("also stops a run that a stopped one dispatches as it ends", async () => {
    const { executor, ended } = recordingExecutor("follow-up");
    executor.submit("first");
    await executor.stopAll();
    expect(executor.activeCount).toBe(0);
    expect(executor.isHolding("follow-up")).toBe(false);
    expect(ended.map((e) => e.runId)).toEqual(["first", "follow-up"]);
  });

  it("resolves at once when nothing is held", async () => {
    const { executor, ended } = recordingExecutor();
    await executor.stopAll();
    expect(ended).toEqual([]);
  });
});
