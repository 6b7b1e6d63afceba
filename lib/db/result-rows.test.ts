// An attempt's result rows are written by raw statements (runs.ts insertResults, upsertResults): what they
// store reads back exactly as the model query's createMany stores the same rows — every column set, and
// each nullable one left null — with ids shaped as cuid() gives them. Runs on SQLite here and on PostgreSQL
// in `npm run test:pg`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "./client";
import { insertResults, listResults, upsertResults, type QueuedResult } from "./runs";
import { seedRun, seedTask, seedWork } from "../testing/seeded-rows";
import { createTestDb, type TestDb } from "../testing/test-db";

let t: TestDb;
let attempts: string[];
beforeAll(async () => {
  t = await createTestDb();
  await seedWork("w");
  await seedTask({ id: "t", workId: "w", number: 1 });
  await seedRun({ id: "r", taskId: "t", workId: "w", attempts: 4 });
  attempts = (await getDb().attempt.findMany({ where: { runId: "r" }, orderBy: { n: "asc" } })).map((a) => a.id);
});
afterAll(async () => t.cleanup());

const FULL: QueuedResult = {
  checkId: "unit",
  name: "Unit tests — «quoted» 'and' \"double\"",
  kind: "test",
  required: false,
  verdict: "failed",
  exitCode: 3,
  signal: "SIGTERM",
  durationMs: 1234,
  message: "2 failed\nline two",
  logTail: "\u001b[31mred\u001b[0m and a NUL-free tail ✓",
  logBytes: 2 ** 40 + 5,
  logNote: "the log was cut at 64 MB",
  tests: { runner: "vitest", passed: 10, failed: 2, skipped: 1, total: 13 },
  testCases: [{ suite: "s", name: 'a "case"', status: "failed", durationMs: 1.5, message: "boom" }] as never,
  warning: "no sign that tests ran",
  startedAt: new Date("2026-03-04T05:06:07.089Z"),
  finishedAt: new Date("2026-03-04T05:06:08.5Z"),
};
const BARE: QueuedResult = { checkId: "lint", name: "Lint", kind: "lint", required: true };

// The columns as stored (text, as raw SQL comparing or ordering them sees them): a date written as a number,
// or JSON as something other than its text, would read back the same through the model and not here.
async function storedOf(attemptId: string) {
  return getDb().$queryRaw`SELECT "position", CAST("startedAt" AS TEXT) AS "startedAt",
    CAST("finishedAt" AS TEXT) AS "finishedAt", CAST("tests" AS TEXT) AS "tests",
    CAST("testCases" AS TEXT) AS "testCases", CAST("logBytes" AS TEXT) AS "logBytes",
    CAST("required" AS TEXT) AS "required", CAST("flaky" AS TEXT) AS "flaky", CAST("kind" AS TEXT) AS "kind"
    FROM "CheckResult" WHERE "attemptId" = ${attemptId} ORDER BY "position"`;
}

// The rows as the model query reads them, without what differs by design (the id) or by attempt.
async function rowsOf(attemptId: string) {
  const rows = await getDb().checkResult.findMany({ where: { attemptId }, orderBy: { position: "asc" } });
  return rows.map(({ id: _id, attemptId: _a, ...row }) => row);
}

describe("result rows written raw", () => {
  it("read back as the model query's createMany writes them: every column set, and each left null", async () => {
    const [viaModel, viaRaw] = attempts;
    await getDb().checkResult.createMany({
      data: [FULL, BARE].map((r, position) => ({
        ...r,
        logBytes: BigInt(r.logBytes ?? 0) || null,
        tests: r.tests ?? undefined,
        testCases: r.testCases ?? undefined,
        attemptId: viaModel,
        runId: "r",
        position,
        logAttempt: 1,
      })),
    });
    await insertResults({ attemptId: viaRaw, runId: "r", logAttempt: 1, results: [FULL, BARE] });
    const raw = await rowsOf(viaRaw);
    expect(raw).toEqual(await rowsOf(viaModel));
    expect(await storedOf(viaRaw)).toEqual(await storedOf(viaModel));
    expect(raw[0]).toMatchObject({ logBytes: BigInt(2 ** 40 + 5), verdict: "failed", flaky: false });
    expect(raw[1]).toMatchObject({ verdict: "queued", tests: null, testCases: null, startedAt: null, logBytes: null });
    expect((await listResults({ attemptId: viaRaw })).map((r) => r.tests)).toEqual([FULL.tests, null]);
  });

  it("are given distinct ids shaped as cuid() gives them", async () => {
    const attemptId = attempts[2];
    const many = Array.from({ length: 40 }, (_, i) => ({ ...BARE, checkId: `c${i}` }));
    await insertResults({ attemptId, runId: "r", logAttempt: 1, results: many });
    const ids = (await getDb().checkResult.findMany({ where: { attemptId }, select: { id: true } })).map((r) => r.id);
    expect(new Set(ids).size).toBe(40);
    for (const id of ids) expect(id).toMatch(/^c[0-9a-z]{24}$/);
  });

  it("are rewritten by upsertResults, each row kept by its check id (its id too) or added, all or none", async () => {
    const attemptId = attempts[3];
    await insertResults({ attemptId, runId: "r", logAttempt: 1, results: [BARE, { ...BARE, checkId: "other" }] });
    const [first] = await listResults({ attemptId });
    await upsertResults({
      attemptId,
      runId: "r",
      logAttempt: 2,
      // An attempt's rows are only added and changed: the rows as they stand, one more (a proof row) at the end.
      results: [{ ...first, verdict: "passed", flaky: true } as QueuedResult, { ...BARE, checkId: "other" }, FULL],
    });
    const after = await listResults({ attemptId });
    expect(after.map((r) => [r.checkId, r.verdict, r.position, r.logAttempt])).toEqual([
      ["lint", "passed", 0, 2],
      ["other", "queued", 1, 2],
      ["unit", "failed", 2, 2],
    ]);
    expect(after[0]).toMatchObject({ id: first.id, flaky: true });
    // A rewrite that cannot be written (a check id twice; a kind no check has, in the last row) is refused
    // before anything is written: the rows stay as they were.
    await expect(upsertResults({ attemptId, runId: "r", logAttempt: 3, results: [BARE, BARE] })).rejects.toThrow(
      "check lint twice",
    );
    await expect(
      upsertResults({
        attemptId,
        runId: "r",
        logAttempt: 3,
        results: [
          { ...BARE, verdict: "failed" },
          { ...FULL, kind: "nonsense" as never },
        ],
      }),
    ).rejects.toThrow("kind must be one of");
    expect(await listResults({ attemptId })).toEqual(after);
    // A row keeps its id whether or not the caller names it.
    await upsertResults({
      attemptId,
      runId: "r",
      logAttempt: 3,
      results: [{ ...BARE, verdict: "error" }, { ...BARE, checkId: "other" }, FULL],
    });
    const again = await listResults({ attemptId });
    expect(again.map((r) => [r.id, r.verdict, r.logAttempt])).toEqual([
      [after[0].id, "error", 3],
      [after[1].id, "queued", 3],
      [after[2].id, "failed", 3],
    ]);
  });

  it("more rows than one statement takes go in several, in order", async () => {
    const attemptId = attempts[1];
    await getDb().checkResult.deleteMany({ where: { attemptId } });
    const many = Array.from({ length: 1203 }, (_, i) => ({ ...BARE, checkId: `k${i}` }));
    await upsertResults({ attemptId, runId: "r", logAttempt: 1, results: many });
    const rows = await listResults({ attemptId });
    expect(rows.map((r) => r.checkId)).toEqual(many.map((r) => r.checkId));
    expect(rows.map((r) => r.position)).toEqual(many.map((_, i) => i));
  });

  it("many rows are written all or none: a duplicate in the last statement leaves none of the first", async () => {
    const attemptId = attempts[1];
    await getDb().checkResult.deleteMany({ where: { attemptId } });
    const many = Array.from({ length: 501 }, (_, i) => ({ ...BARE, checkId: `d${i}` }));
    many[500] = { ...BARE, checkId: "d0" };
    await expect(insertResults({ attemptId, runId: "r", logAttempt: 1, results: many })).rejects.toThrow();
    expect(await listResults({ attemptId })).toEqual([]);
  });

  it("a kind or verdict that is not one is refused, naming the field, and nothing is written", async () => {
    const attemptId = attempts[1];
    await getDb().checkResult.deleteMany({ where: { attemptId } });
    const bad = (r: Partial<QueuedResult>) =>
      insertResults({ attemptId, runId: "r", logAttempt: 1, results: [BARE, { ...BARE, checkId: "x", ...r }] });
    await expect(bad({ verdict: "passd" as never })).rejects.toThrow("result x: verdict must be one of");
    await expect(bad({ kind: "unit" as never })).rejects.toThrow("result x: kind must be one of");
    expect(await listResults({ attemptId })).toEqual([]);
  });
});
