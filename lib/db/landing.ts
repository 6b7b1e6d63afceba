// Landing the work: what a merge needs to know of a task's latest run, and the flaky flag on results.
import { FLAKY_FAILURES, flakyCheckIds } from "../gates/flaky";
import type { LatestRun } from "../gates/merge-policy";
import { getDb, type DbOrTx } from "./client";

// The task's latest run, with the commit (and cleanliness) its last attempt's checks ran on.
export async function findLatestRunOfTask(opts: {
  taskId: string;
  db?: DbOrTx;
}): Promise<(LatestRun & { id: string }) | null> {
  const row = await (opts.db ?? getDb()).run.findFirst({
    where: { taskId: opts.taskId },
    orderBy: { number: "desc" },
    select: {
      id: true,
      number: true,
      status: true,
      ending: true,
      gate: true,
      attempts: { orderBy: { n: "desc" }, take: 1, select: { commit: true, isDirty: true } },
    },
  });
  if (!row) return null;
  const { attempts, ...run } = row;
  return { ...run, head: attempts[0]?.commit ?? null, isDirty: attempts[0]?.isDirty ?? false };
}

// Flags the attempt's passed rows whose check failed earlier, on the same commit, for the same task
// (lib/gates/flaky.ts says what "the same commit" is). Called once the attempt's rows and commit are written.
export async function markFlakyResults(opts: { attemptId: string; db?: DbOrTx }): Promise<string[]> {
  const db = opts.db ?? getDb();
  const attempt = await db.attempt.findUnique({
    where: { id: opts.attemptId },
    select: {
      commit: true,
      isDirty: true,
      run: { select: { taskId: true } },
      results: { where: { verdict: "passed", kind: { not: "proof" } }, select: { checkId: true } },
    },
  });
  if (!attempt?.commit || attempt.isDirty || attempt.results.length === 0) return [];
  const passed = attempt.results.map((r) => r.checkId);
  const failures = await db.checkResult.findMany({
    where: {
      attemptId: { not: opts.attemptId },
      checkId: { in: passed },
      verdict: { in: [...FLAKY_FAILURES] },
      run: { taskId: attempt.run.taskId },
      attempt: { commit: attempt.commit, isDirty: false },
    },
    select: { checkId: true, logAttempt: true, attempt: { select: { n: true, commit: true, isDirty: true } } },
  });
  const ids = flakyCheckIds({
    now: attempt,
    passed,
    earlierFailures: failures.map((f) => ({
      checkId: f.checkId,
      ranOn: f.attempt,
      isCopy: f.logAttempt !== f.attempt.n,
    })),
  });
  if (ids.length > 0)
    await db.checkResult.updateMany({
      where: { attemptId: opts.attemptId, checkId: { in: ids } },
      data: { flaky: true },
    });
  return ids;
}
