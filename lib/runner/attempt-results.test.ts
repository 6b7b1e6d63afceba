// An attempt's rows are written behind the checks and, with workers, published every half second. A
// publish or write of rows that did not change since the last one sends nothing (a run whose check
// sleeps would otherwise rewrite every row twice a second); a change, and the final state, always reach
// the database, even after a failed write.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { writeGeneration } from "../db/client";
import * as runs from "../db/runs";
import type { EffectiveCheck } from "../gates/merge-checks";
import { createTestDbWithRun, seedRun } from "../testing/seeded-rows";
import type { TestDb } from "../testing/test-db";
import { AttemptResults } from "./attempt-results";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDbWithRun({ attempts: 3 });
});
afterAll(async () => t.cleanup());

const checks = ["unit", "lint"].map(
  (id) => ({ id, name: id, kind: "custom", command: "true", required: true }) as EffectiveCheck,
);
const verdicts = async (n: number) =>
  (await runs.listResults({ attemptId: `r-${n}` })).map((r) => `${r.checkId}:${r.verdict}:${r.logTail ?? ""}`);
const noTail = () => undefined;

describe("AttemptResults", () => {
  it("publishes unchanged rows once; a change and the final rows are written", async () => {
    const results = new AttemptResults("r", { id: "r-2", n: 2 }, checks);
    results.open();
    results.update("unit", { verdict: "running" });
    results.publish(noTail);
    await vi.waitFor(async () => expect(await verdicts(2)).toEqual(["unit:running:", "lint:queued:"]));
    const published = writeGeneration();
    for (let i = 0; i < 5; i++) results.publish(noTail);
    await results.close();
    // Five publishes and the close of unchanged rows: nothing written.
    expect(writeGeneration()).toBe(published);
    // A live tail is a change: written.
    const live = new AttemptResults("r", { id: "r-3", n: 3 }, checks);
    live.open();
    live.update("unit", { verdict: "running" });
    live.publish(() => ({ tail: "line 1\n", bytes: 7 }));
    live.publish(() => ({ tail: "line 1\nline 2\n", bytes: 14 }));
    await vi.waitFor(async () => expect(await verdicts(3)).toEqual(["unit:running:line 1\nline 2\n", "lint:queued:"]));
    live.update("unit", { verdict: "passed", logTail: "done\n" });
    live.update("lint", { verdict: "passed" });
    await live.close();
    expect(await verdicts(3)).toEqual(["unit:passed:done\n", "lint:passed:"]);
  });

  it("rows whose write failed are written again at the close", async () => {
    await seedRun({ id: "f", taskId: "a", number: 2 });
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const replace = vi.spyOn(runs, "upsertResults");
    try {
      const results = new AttemptResults("f", { id: "f-1", n: 1 }, checks);
      results.open();
      results.publish(noTail); // the first write: the rows inserted
      results.update("unit", { verdict: "passed" });
      replace.mockRejectedValueOnce(new Error("the database went away"));
      results.publish(noTail); // fails
      await vi.waitFor(() => expect(errors).toHaveBeenCalled());
      await results.close();
      expect((await runs.listResults({ attemptId: "f-1" })).map((r) => r.verdict)).toEqual(["passed", "queued"]);
    } finally {
      replace.mockRestore();
      errors.mockRestore();
    }
  });
});
