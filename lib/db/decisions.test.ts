// A task's older runs waiting for a decision are superseded by a newer accepted run, and only they (one raw
// statement). Runs on SQLite here and on PostgreSQL in `npm run test:pg`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "./client";
import { supersedeOlderRuns } from "./decisions";
import { findRun } from "./runs";
import { seedRun, seedTask, seedWork } from "../testing/seeded-rows";
import { createTestDb, type TestDb } from "../testing/test-db";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  await seedWork("w");
  await seedTask({ id: "t", workId: "w", number: 1 });
  await seedTask({ id: "other", workId: "w", number: 2 });
  const seeded: [string, string, number, { status: "finished" | "waiting"; needsDecision: boolean }][] = [
    ["waits-1", "t", 1, { status: "finished", needsDecision: true }],
    ["decided-2", "t", 2, { status: "finished", needsDecision: false }],
    ["waits-3", "t", 3, { status: "finished", needsDecision: true }],
    ["unfinished-4", "t", 4, { status: "waiting", needsDecision: true }],
    ["accepted-5", "t", 5, { status: "finished", needsDecision: false }],
    ["newer-6", "t", 6, { status: "finished", needsDecision: true }],
    ["other-task-1", "other", 1, { status: "finished", needsDecision: true }],
  ];
  for (const [id, taskId, number, changes] of seeded) {
    await seedRun({ id, taskId, workId: "w", number });
    await getDb().run.update({ where: { id }, data: changes });
  }
});
afterAll(() => t.cleanup());

describe("supersedeOlderRuns", () => {
  it("supersedes the task's older finished runs waiting for a decision, and no other run", async () => {
    const before = Date.now();
    expect(await supersedeOlderRuns({ taskId: "t", number: 5, byRunId: "accepted-5" })).toBe(2);
    for (const id of ["waits-1", "waits-3"]) {
      const run = await findRun({ id });
      expect(run).toMatchObject({ needsDecision: false, supersededById: "accepted-5" });
      // Its change time moves as a model update's would.
      const { updatedAt } = await getDb().run.findUniqueOrThrow({ where: { id }, select: { updatedAt: true } });
      expect(updatedAt.getTime()).toBeGreaterThanOrEqual(before);
    }
    for (const id of ["decided-2", "unfinished-4", "newer-6", "other-task-1"])
      expect((await findRun({ id }))?.supersededById).toBeNull();
    expect((await findRun({ id: "unfinished-4" }))?.needsDecision).toBe(true);
    expect((await findRun({ id: "newer-6" }))?.needsDecision).toBe(true);
    // Again: nothing is left to supersede.
    expect(await supersedeOlderRuns({ taskId: "t", number: 5, byRunId: "accepted-5" })).toBe(0);
  });
});
