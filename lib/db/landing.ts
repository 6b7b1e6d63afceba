// Landing the work: what a merge needs to know of a task's latest run, and the flaky flag on results.
import { FLAKY_FAILURES, flakyCheckIds, flakyTestKeys } from "../gates/flaky";
import { testKeyOf, toTestCases } from "../gates/junit";
import type { LatestRun } from "../gates/merge-policy";
import { rowsWhere, updateWhere } from "./by-id";
import { getDb, type DbOrTx } from "./client";
import { Prisma } from "./generated/sqlite/client";

// The task's latest run, with the commit (and cleanliness) its last attempt's checks ran on.
export async function findLatestRunOfTask(opts: {
  taskId: string;
  db?: DbOrTx;
}): Promise<(LatestRun & { id: string; createdAt: Date }) | null> {
  const row = await (opts.db ?? getDb()).run.findFirst({
    where: { taskId: opts.taskId },
    orderBy: { number: "desc" },
    select: {
      id: true,
      number: true,
      status: true,
      ending: true,
      gate: true,
      createdAt: true,
      attempts: { orderBy: { n: "desc" }, take: 1, select: { commit: true, isDirty: true } },
    },
  });
  if (!row) return null;
  const { attempts, ...run } = row;
  return { ...run, head: attempts[0]?.commit ?? null, isDirty: attempts[0]?.isDirty ?? false };
}

// Flags the attempt's passed rows whose check failed earlier, on the same commit, for the same task
// (lib/gates/flaky.ts says what "the same commit" is). Called once the attempt's rows and commit are written,
// at the end of every attempt but a task's first, by the caller that wrote them (its commit, cleanliness and
// task are passed in, not read back): read raw (by-id.ts says why), and nothing is read for an attempt on no
// clean commit.
export async function markFlakyResults(opts: {
  attemptId: string;
  taskId: string;
  commit: string | null;
  isDirty: boolean;
  db?: DbOrTx;
}): Promise<string[]> {
  const db = opts.db ?? getDb();
  if (!opts.commit || opts.isDirty) return [];
  const now = { commit: opts.commit, isDirty: false };
  // One read for both flags: the rows' verdicts (per check) and their per-test results (per test).
  const results = (
    await rowsWhere<{ id: string; checkId: string; verdict: string; kind: string; testCases: Prisma.JsonValue }>(
      db,
      "CheckResult",
      { attemptId: opts.attemptId },
      { select: ["id", "checkId", "verdict", "kind", "testCases"] },
    )
  ).filter((r) => r.kind !== "proof");
  // A check that failed as a whole can still hold tests that passed after failing: flagged each.
  const withTests = results.filter((r) => r.testCases !== null);
  await markFlakyTests({ attemptId: opts.attemptId, rows: withTests, now, taskId: opts.taskId, db });
  const passed = results.filter((r) => r.verdict === "passed").map((r) => r.checkId);
  if (passed.length === 0) return [];
  // The same checks' failures in the task's other attempts on this commit, clean.
  const failures = await db.$queryRaw<{ checkId: string; logAttempt: number; n: number }[]>`
    SELECT cr."checkId" AS "checkId", cr."logAttempt" AS "logAttempt", a."n" AS "n"
    FROM "CheckResult" cr
    JOIN "Attempt" a ON a."id" = cr."attemptId"
    JOIN "Run" r ON r."id" = cr."runId"
    WHERE cr."attemptId" <> ${opts.attemptId}
      AND cr."checkId" IN (${Prisma.join(passed)})
      AND CAST(cr."verdict" AS TEXT) IN (${Prisma.join([...FLAKY_FAILURES])})
      AND r."taskId" = ${opts.taskId}
      AND a."commit" = ${opts.commit}
      AND a."isDirty" = ${false}`;
  const ids = flakyCheckIds({
    now,
    passed,
    earlierFailures: failures.map((f) => ({
      checkId: f.checkId,
      ranOn: { n: Number(f.n), ...now },
      isCopy: Number(f.logAttempt) !== Number(f.n),
    })),
  });
  if (ids.length > 0)
    await updateWhere(db, "CheckResult", { attemptId: opts.attemptId, checkId: ids }, { flaky: true });
  return ids;
}

const FAILING_TESTS = new Set(["failed", "error"]);
const DB_NULL = Prisma.DbNull;

// The per-test flag: within each of the attempt's JUnit results, the tests that passed now and failed in an
// earlier run of the same check on the same commit (lib/gates/flaky.ts flakyTestKeys). Only rows with
// per-test results are read, and only those of the same task and commit.
async function markFlakyTests(opts: {
  attemptId: string;
  // The attempt's rows (not proof rows) that hold per-test results.
  rows: readonly { id: string; checkId: string; testCases: Prisma.JsonValue }[];
  now: { commit: string | null; isDirty: boolean };
  taskId: string;
  db: DbOrTx;
}): Promise<void> {
  const { db, rows } = opts;
  if (rows.length === 0 || !opts.now.commit || opts.now.isDirty) return;
  const earlier = await db.checkResult.findMany({
    where: {
      attemptId: { not: opts.attemptId },
      checkId: { in: rows.map((r) => r.checkId) },
      testCases: { not: DB_NULL },
      run: { taskId: opts.taskId },
      attempt: { commit: opts.now.commit, isDirty: false },
    },
    select: {
      checkId: true,
      testCases: true,
      logAttempt: true,
      attempt: { select: { n: true, commit: true, isDirty: true } },
    },
  });
  for (const row of rows) {
    const cases = toTestCases(row.testCases) ?? [];
    const keys = flakyTestKeys({
      now: opts.now,
      passedKeys: cases.filter((c) => c.status === "passed").map(testKeyOf),
      earlierFailures: earlier
        .filter((e) => e.checkId === row.checkId)
        .map((e) => ({
          failedKeys: (toTestCases(e.testCases) ?? []).filter((c) => FAILING_TESTS.has(c.status)).map(testKeyOf),
          ranOn: e.attempt,
          isCopy: e.logAttempt !== e.attempt.n,
        })),
    });
    if (keys.length === 0) continue;
    const flaky = new Set(keys);
    const marked = cases.map((c) =>
      c.status === "passed" && flaky.has(testKeyOf(c)) ? { ...c, flaky: true as const } : c,
    );
    await db.checkResult.update({ where: { id: row.id }, data: { testCases: marked as Prisma.InputJsonValue } });
  }
}
