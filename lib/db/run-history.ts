// Reading run history: counts and pages, for task pages and the inbox.
import { getDb, type DbOrTx } from "./client";
import type { Prisma as Models } from "./models";
import { Prisma } from "./generated/sqlite/client";

export async function countRunsOfTask(opts: { taskId: string; db?: DbOrTx }): Promise<number> {
  return (opts.db ?? getDb()).run.count({ where: { taskId: opts.taskId } });
}

// For picking a partial run's best attempt: required checks passed per finished attempt, and its commit.
export async function countRequiredPassedByAttempt(opts: {
  runId: string;
  db?: DbOrTx;
}): Promise<{ n: number; requiredPassed: number; commit: string | null }[]> {
  const db = opts.db ?? getDb();
  const attempts = await db.attempt.findMany({
    where: { runId: opts.runId, status: "finished" },
    orderBy: { n: "asc" },
    select: {
      n: true,
      commit: true,
      _count: { select: { results: { where: { required: true, verdict: "passed" } } } },
    },
  });
  return attempts.map((a) => ({ n: a.n, commit: a.commit, requiredPassed: a._count.results }));
}

const summarySelect = {
  id: true,
  taskId: true,
  workId: true,
  number: true,
  status: true,
  gate: true,
  ending: true,
  endingReason: true,
  agentCaveat: true,
  needsDecision: true,
  maxAttempts: true,
  policy: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} satisfies Models.RunSelect;

type SummaryRow = Models.RunGetPayload<{ select: typeof summarySelect }>;
export type RunSummary = SummaryRow & { attemptCount: number };

// How many attempts each of the given runs has, counted over those runs' attempts only (Attempt's
// runId+n index). Prisma's `_count` in a select joins a count grouped over the whole Attempt table,
// which grows with the history: with 100,000 runs it made the inbox 15 times slower on PostgreSQL.
export async function countAttemptsOfRuns(opts: { runIds: string[]; db?: DbOrTx }): Promise<Map<string, number>> {
  if (opts.runIds.length === 0) return new Map();
  const rows = await (opts.db ?? getDb()).attempt.groupBy({
    by: ["runId"],
    where: { runId: { in: [...new Set(opts.runIds)] } },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.runId, r._count._all]));
}

async function toSummaries(rows: SummaryRow[], db?: DbOrTx): Promise<RunSummary[]> {
  const counts = await countAttemptsOfRuns({ runIds: rows.map((r) => r.id), db });
  return rows.map((row) => ({ ...row, attemptCount: counts.get(row.id) ?? 0 }));
}

// A page of a task's runs, newest first; `beforeNumber` continues after the last page.
export async function listRunsOfTask(opts: {
  taskId: string;
  take: number;
  beforeNumber?: number;
  db?: DbOrTx;
}): Promise<RunSummary[]> {
  const rows = await (opts.db ?? getDb()).run.findMany({
    where: { taskId: opts.taskId, ...(opts.beforeNumber ? { number: { lt: opts.beforeNumber } } : {}) },
    orderBy: { number: "desc" },
    take: opts.take,
    select: summarySelect,
  });
  return toSummaries(rows, opts.db);
}

// The newest run of each of the given tasks: one backward index probe per task (Run's unique taskId+number), so a
// Work page costs the same with 100,000 runs as with 100 (DISTINCT would read every run of the tasks).
export async function latestRunsOfTasks(opts: { taskIds: string[]; db?: DbOrTx }): Promise<Map<string, RunSummary>> {
  if (opts.taskIds.length === 0) return new Map();
  const db = opts.db ?? getDb();
  const newest = await db.$queryRaw<{ id: string | null }[]>`
    SELECT (SELECT r."id" FROM "Run" r WHERE r."taskId" = t."id" ORDER BY r."number" DESC LIMIT 1) AS "id"
    FROM "Task" t WHERE t."id" IN (${Prisma.join(opts.taskIds)})`;
  const ids = newest.flatMap((r) => r.id ?? []);
  if (ids.length === 0) return new Map();
  const rows = await db.run.findMany({ where: { id: { in: ids } }, select: summarySelect });
  return new Map((await toSummaries(rows, db)).map((r) => [r.taskId, r]));
}

export async function countTasksOfWorks(opts: { workIds: string[]; db?: DbOrTx }): Promise<Map<string, number>> {
  const rows = await (opts.db ?? getDb()).task.groupBy({
    by: ["workId"],
    where: { workId: { in: opts.workIds } },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.workId, r._count._all]));
}

// The commits earlier runs of a task went green on (committed, not dirty), newest run first: where a run that
// starts from one of them already holds that run's fix.
export async function listGreenCommitsOfTask(opts: {
  taskId: string;
  beforeNumber: number;
  db?: DbOrTx;
}): Promise<{ runNumber: number; commit: string }[]> {
  const rows = await (opts.db ?? getDb()).attempt.findMany({
    where: {
      run: { taskId: opts.taskId, number: { lt: opts.beforeNumber } },
      gate: "green",
      isDirty: false,
      commit: { not: null },
    },
    orderBy: [{ run: { number: "desc" } }, { n: "desc" }],
    select: { commit: true, run: { select: { number: true } } },
    take: 50,
  });
  return rows.map((r) => ({ runNumber: r.run.number, commit: r.commit! }));
}

// What a task's checks printed when they last ran on a commit (committed, not dirty), newest first per check
// id: the start commit's test set, when an earlier attempt ran there. The same task only: another task may
// override a check of the same id with another command.
export async function listResultsAtCommit(opts: {
  taskId: string;
  commit: string;
  checkIds: string[];
  db?: DbOrTx;
}): Promise<Map<string, { tests: unknown; logTail: string | null; logBytes: number | null }>> {
  if (opts.checkIds.length === 0) return new Map();
  const rows = await (opts.db ?? getDb()).checkResult.findMany({
    where: {
      checkId: { in: opts.checkIds },
      verdict: { in: ["passed", "failed"] },
      run: { taskId: opts.taskId },
      attempt: { commit: opts.commit, isDirty: false },
    },
    orderBy: { finishedAt: "desc" },
    select: { checkId: true, tests: true, logTail: true, logBytes: true },
    take: 100,
  });
  const found = new Map<string, { tests: unknown; logTail: string | null; logBytes: number | null }>();
  for (const r of rows)
    if (!found.has(r.checkId))
      found.set(r.checkId, {
        tests: r.tests,
        logTail: r.logTail,
        logBytes: r.logBytes === null ? null : Number(r.logBytes),
      });
  return found;
}
