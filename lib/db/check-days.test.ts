// The check history's day counts (CheckDay) are kept by triggers on CheckResult: whatever writes the rows —
// the runner's rewrite of an attempt's rows, a settle, the flaky flag, a copy, a hand-back that deletes
// them — the counts are those of the rows as they stand. Checked against the rows themselves, counted
// afresh, on SQLite here and on PostgreSQL in `npm run test:pg`. Rows seeded straight into the database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRun, seedTask, seedWork } from "../testing/seeded-rows";
import { createTestDb, type TestDb } from "../testing/test-db";
import { getDb } from "./client";
import { insertResults, upsertResults, settleUnfinishedResults, type QueuedResult } from "./runs";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  await seedWork();
  await seedTask({ id: "a", number: 1 });
  // Run 1 on 2026-03-01 (late in the day: the day is the run's, in UTC), run 2 on 2026-03-02.
  await seedRun({ id: "r1", taskId: "a", number: 1, createdAt: new Date(Date.UTC(2026, 2, 1, 23, 59)), attempts: 2 });
  await seedRun({ id: "r2", taskId: "a", number: 2, createdAt: new Date(Date.UTC(2026, 2, 2, 0, 1)) });
});
afterAll(async () => t.cleanup());

const row = (checkId: string, verdict: QueuedResult["verdict"], extra: Partial<QueuedResult> = {}): QueuedResult => ({
  checkId,
  name: `Check ${checkId}`,
  kind: "test",
  required: true,
  verdict,
  ...extra,
});

type Count = { checkId: string; day: string; runs: number; passed: number; flaky: number };

// The counts as the triggers keep them (days with nothing left are dropped: a count can fall to zero).
async function kept(): Promise<Count[]> {
  const rows = await getDb().checkDay.findMany({
    where: { workId: "w" },
    orderBy: [{ checkId: "asc" }, { day: "asc" }],
  });
  return rows
    .filter((r) => r.runs !== 0 || r.passed !== 0 || r.flaky !== 0)
    .map(({ checkId, day, runs, passed, flaky }) => ({ checkId, day, runs, passed, flaky }));
}

// The same counts from the rows themselves.
async function recounted(): Promise<Count[]> {
  const results = await getDb().checkResult.findMany({ include: { attempt: true, run: true } });
  const counts = new Map<string, Count>();
  for (const r of results) {
    if (!["passed", "failed", "hollow", "timeout", "error"].includes(r.verdict)) continue;
    if (r.logAttempt !== r.attempt.n) continue;
    const day = r.run.createdAt.toISOString().slice(0, 10);
    const c = counts.get(`${r.checkId} ${day}`) ?? { checkId: r.checkId, day, runs: 0, passed: 0, flaky: 0 };
    c.runs++;
    if (r.verdict === "passed") c.passed++;
    if (r.flaky) c.flaky++;
    counts.set(`${r.checkId} ${day}`, c);
  }
  return [...counts.values()].sort((a, b) => (a.checkId + a.day < b.checkId + b.day ? -1 : 1));
}

describe("the check history's day counts", () => {
  it("follow every write to the results, and count only rows that ran to a verdict in their own attempt", async () => {
    const db = getDb();
    // Queued rows count nothing; the runner rewrites them as they finish.
    await insertResults({
      attemptId: "r1-1",
      runId: "r1",
      logAttempt: 1,
      results: [row("unit", "queued"), row("lint", "queued")],
    });
    expect(await kept()).toEqual([]);
    await upsertResults({
      attemptId: "r1-1",
      runId: "r1",
      logAttempt: 1,
      results: [row("unit", "failed"), row("lint", "running")],
    });
    await upsertResults({
      attemptId: "r1-1",
      runId: "r1",
      logAttempt: 1,
      results: [row("unit", "failed"), row("lint", "passed")],
    });
    expect(await kept()).toEqual([
      { checkId: "lint", day: "2026-03-01", runs: 1, passed: 1, flaky: 0 },
      { checkId: "unit", day: "2026-03-01", runs: 1, passed: 0, flaky: 0 },
    ]);
    // Attempt 2 of run 1: unit passes (and is flagged flaky), lint is settled as skipped.
    await insertResults({
      attemptId: "r1-2",
      runId: "r1",
      logAttempt: 2,
      results: [row("unit", "passed"), row("lint", "running")],
    });
    await settleUnfinishedResults({ attemptId: "r1-2", verdict: "skipped", message: "not run: stopped" });
    await db.checkResult.updateMany({ where: { attemptId: "r1-2", checkId: "unit" }, data: { flaky: true } });
    // Run 2 keeps a copy of run 1's rows (an attempt with no change: its logAttempt is not its own n) …
    await insertResults({ attemptId: "r2-1", runId: "r2", logAttempt: 2, results: [row("unit", "passed")] });
    expect(await kept()).toEqual(await recounted());
    expect(await kept()).toEqual([
      { checkId: "lint", day: "2026-03-01", runs: 1, passed: 1, flaky: 0 },
      { checkId: "unit", day: "2026-03-01", runs: 2, passed: 1, flaky: 1 },
    ]);
    // … then a worker hands run 2 back (its rows deleted) and it runs again, on its own day.
    await db.checkResult.deleteMany({ where: { attemptId: "r2-1" } });
    await insertResults({
      attemptId: "r2-1",
      runId: "r2",
      logAttempt: 1,
      results: [row("unit", "timeout"), row("lint", "error"), row("e2e", "hollow")],
    });
    // A row's verdict changed in place counts once, as its new verdict.
    await db.checkResult.updateMany({ where: { attemptId: "r2-1", checkId: "unit" }, data: { verdict: "passed" } });
    expect(await kept()).toEqual(await recounted());
    expect((await kept()).filter((c) => c.day === "2026-03-02")).toEqual([
      { checkId: "e2e", day: "2026-03-02", runs: 1, passed: 0, flaky: 0 },
      { checkId: "lint", day: "2026-03-02", runs: 1, passed: 0, flaky: 0 },
      { checkId: "unit", day: "2026-03-02", runs: 1, passed: 1, flaky: 0 },
    ]);
  });

  it("go with the Work", async () => {
    const db = getDb();
    await db.work.delete({ where: { id: "w" } });
    expect(await db.checkDay.count()).toBe(0);
    expect(await db.checkResult.count()).toBe(0);
  });
});
