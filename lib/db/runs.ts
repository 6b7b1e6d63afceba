// Runs, their attempts and check results: one query or command per function.
import type { EffectiveCheck } from "../gates/merge-checks";
import type { Gate, Verdict } from "../gates/gate";
import { ACTIVE_RUN_STATUSES, type Ending, type RunStatus } from "../gates/run-ending";
import { toTestCounts, type TestCounts } from "../gates/test-summary";
import type { ChecksPolicy, ProofSettings } from "../gates/work-schema";
import { getDb, type Db, type DbOrTx } from "./client";

export type RunRecord = {
  id: string;
  taskId: string;
  workId: string;
  number: number;
  status: RunStatus;
  gate: Gate;
  ending: Ending | null;
  endingReason: string | null;
  policy: ChecksPolicy;
  maxAttempts: number;
  checks: EffectiveCheck[];
  suppressed: string[];
  warnings: string[];
  agentCommand: string | null;
  agentEnvPassthrough: string[];
  budgetSec: number | null;
  failFast: boolean;
  // Frozen at dispatch; null for runs from before proof rows.
  proof: ProofSettings | null;
  branch: string;
  startCommit: string | null;
  spentMs: number;
  budgetFromMs: number;
  bestAttempt: number | null;
  bestCommit: string | null;
  needsDecision: boolean;
  decision: string | null;
  decidedById: string | null;
  decidedAt: Date | null;
  dispatchedById: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
};

type RunRow = Omit<
  RunRecord,
  "checks" | "suppressed" | "warnings" | "agentEnvPassthrough" | "status" | "gate" | "ending" | "policy" | "proof"
> & {
  proof: unknown;
  checks: string;
  suppressed: string;
  warnings: string;
  agentEnvPassthrough: string;
  status: string;
  gate: string;
  ending: string | null;
  policy: string;
};

const runSelect = {
  id: true,
  taskId: true,
  workId: true,
  number: true,
  status: true,
  gate: true,
  ending: true,
  endingReason: true,
  policy: true,
  maxAttempts: true,
  checks: true,
  suppressed: true,
  warnings: true,
  agentCommand: true,
  agentEnvPassthrough: true,
  budgetSec: true,
  failFast: true,
  proof: true,
  branch: true,
  startCommit: true,
  spentMs: true,
  budgetFromMs: true,
  bestAttempt: true,
  bestCommit: true,
  needsDecision: true,
  decision: true,
  decidedById: true,
  decidedAt: true,
  dispatchedById: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const;

function toRunRecord(row: RunRow): RunRecord {
  return {
    ...row,
    status: row.status as RunStatus,
    gate: row.gate as Gate,
    ending: row.ending as Ending | null,
    policy: row.policy as ChecksPolicy,
    checks: JSON.parse(row.checks) as EffectiveCheck[],
    suppressed: JSON.parse(row.suppressed) as string[],
    warnings: JSON.parse(row.warnings) as string[],
    agentEnvPassthrough: JSON.parse(row.agentEnvPassthrough) as string[],
    proof: row.proof && typeof row.proof === "object" ? (row.proof as ProofSettings) : null,
  };
}

export type AttemptRecord = {
  id: string;
  runId: string;
  n: number;
  trigger: string;
  status: string;
  gate: Gate;
  startedAt: Date | null;
  finishedAt: Date | null;
  commit: string | null;
  isDirty: boolean;
  treeAfter: string | null;
  noChangeSince: number | null;
  brief: string | null;
  agentVerdict: Verdict | null;
  agentExitCode: number | null;
  agentDurationMs: number | null;
  agentMessage: string | null;
  agentLogTail: string | null;
  agentLogBytes: number | null;
  agentLogNote: string | null;
  startedById: string | null;
};

const attemptSelect = {
  id: true,
  runId: true,
  n: true,
  trigger: true,
  status: true,
  gate: true,
  startedAt: true,
  finishedAt: true,
  commit: true,
  isDirty: true,
  treeAfter: true,
  noChangeSince: true,
  brief: true,
  agentVerdict: true,
  agentExitCode: true,
  agentDurationMs: true,
  agentMessage: true,
  agentLogTail: true,
  agentLogBytes: true,
  agentLogNote: true,
  startedById: true,
} as const;

type AttemptRow = Omit<AttemptRecord, "gate" | "agentVerdict" | "agentLogBytes"> & {
  gate: string;
  agentVerdict: string | null;
  agentLogBytes: bigint | null;
};

function toAttemptRecord(row: AttemptRow): AttemptRecord {
  return {
    ...row,
    gate: row.gate as Gate,
    agentVerdict: row.agentVerdict as Verdict | null,
    agentLogBytes: row.agentLogBytes === null ? null : Number(row.agentLogBytes),
  };
}

export type ResultRecord = {
  id: string;
  attemptId: string;
  runId: string;
  position: number;
  checkId: string;
  name: string;
  kind: string;
  required: boolean;
  verdict: Verdict;
  exitCode: number | null;
  signal: string | null;
  durationMs: number | null;
  message: string | null;
  logTail: string | null;
  logBytes: number | null;
  logNote: string | null;
  // The test runner's summary recognised in the output (null: none recognised).
  tests: TestCounts | null;
  logAttempt: number;
  startedAt: Date | null;
  finishedAt: Date | null;
};

const resultSelect = {
  id: true,
  attemptId: true,
  runId: true,
  position: true,
  checkId: true,
  name: true,
  kind: true,
  required: true,
  verdict: true,
  exitCode: true,
  signal: true,
  durationMs: true,
  message: true,
  logTail: true,
  logBytes: true,
  logNote: true,
  tests: true,
  logAttempt: true,
  startedAt: true,
  finishedAt: true,
} as const;

type ResultRow = Omit<ResultRecord, "verdict" | "logBytes" | "tests"> & {
  verdict: string;
  logBytes: bigint | null;
  tests: unknown;
};

function toResultRecord(row: ResultRow): ResultRecord {
  return {
    ...row,
    verdict: row.verdict as Verdict,
    logBytes: row.logBytes === null ? null : Number(row.logBytes),
    tests: toTestCounts(row.tests),
  };
}

export type RunInsert = Pick<
  RunRecord,
  | "taskId"
  | "workId"
  | "policy"
  | "maxAttempts"
  | "checks"
  | "suppressed"
  | "warnings"
  | "agentCommand"
  | "agentEnvPassthrough"
  | "budgetSec"
  | "failFast"
  | "branch"
  | "dispatchedById"
> & { proof?: ProofSettings | null };

// Creates the run (numbered per task) with its first attempt queued. Call inside a transaction.
export async function insertRunWithFirstAttempt(opts: { data: RunInsert; db?: DbOrTx }): Promise<RunRecord> {
  const db = opts.db ?? getDb();
  const { checks, suppressed, warnings, agentEnvPassthrough, proof, ...rest } = opts.data;
  const last = await db.run.findFirst({
    where: { taskId: rest.taskId },
    orderBy: { number: "desc" },
    select: { number: true },
  });
  const row = await db.run.create({
    data: {
      ...rest,
      number: (last?.number ?? 0) + 1,
      checks: JSON.stringify(checks),
      suppressed: JSON.stringify(suppressed),
      warnings: JSON.stringify(warnings),
      agentEnvPassthrough: JSON.stringify(agentEnvPassthrough),
      ...(proof ? { proof } : {}),
      attempts: { create: { n: 1, trigger: "dispatch", startedById: rest.dispatchedById } },
    },
    select: runSelect,
  });
  return toRunRecord(row);
}

export async function findRun(opts: { id: string; db?: DbOrTx }): Promise<RunRecord | null> {
  const row = await (opts.db ?? getDb()).run.findUnique({ where: { id: opts.id }, select: runSelect });
  return row ? toRunRecord(row) : null;
}

export type RunLabels = { task: { id: string; key: string; title: string }; work: { id: string; name: string } };

// Only what pages show to name a run's task and Work (a run is deleted with either, so both exist).
export async function findRunLabels(opts: { id: string; db?: DbOrTx }): Promise<RunLabels | null> {
  const row = await (opts.db ?? getDb()).run.findUnique({
    where: { id: opts.id },
    select: { task: { select: { id: true, key: true, title: true } }, work: { select: { id: true, name: true } } },
  });
  return row
    ? {
        task: { id: row.task.id, key: row.task.key, title: row.task.title },
        work: { id: row.work.id, name: row.work.name },
      }
    : null;
}

export async function findActiveRunOfTask(opts: { taskId: string; db?: DbOrTx }): Promise<RunRecord | null> {
  const row = await (opts.db ?? getDb()).run.findFirst({
    where: { taskId: opts.taskId, status: { in: [...ACTIVE_RUN_STATUSES] } },
    orderBy: { number: "desc" },
    select: runSelect,
  });
  return row ? toRunRecord(row) : null;
}

export async function listRunsWithStatus(opts: { statuses: RunStatus[]; db?: DbOrTx }): Promise<RunRecord[]> {
  const rows = await (opts.db ?? getDb()).run.findMany({
    where: { status: { in: opts.statuses } },
    orderBy: { createdAt: "asc" },
    select: runSelect,
  });
  return rows.map(toRunRecord);
}

export type RunChanges = Partial<
  Pick<
    RunRecord,
    | "status"
    | "gate"
    | "ending"
    | "endingReason"
    | "maxAttempts"
    | "startCommit"
    | "spentMs"
    | "budgetFromMs"
    | "bestAttempt"
    | "bestCommit"
    | "needsDecision"
    | "decision"
    | "decidedById"
    | "decidedAt"
    | "startedAt"
    | "finishedAt"
  >
>;

export async function updateRun(opts: { id: string; changes: RunChanges; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).run.update({ where: { id: opts.id }, data: opts.changes, select: { id: true } });
}

// Changes a run only while it still has one of the expected statuses (guards against double answers).
export async function updateRunIfStatus(opts: {
  id: string;
  statuses: RunStatus[];
  needsDecision?: boolean;
  changes: RunChanges;
  db?: DbOrTx;
}): Promise<boolean> {
  const result = await (opts.db ?? getDb()).run.updateMany({
    where: {
      id: opts.id,
      status: { in: opts.statuses },
      ...(opts.needsDecision !== undefined ? { needsDecision: opts.needsDecision } : {}),
    },
    data: opts.changes,
  });
  return result.count > 0;
}

export async function listAttempts(opts: { runId: string; db?: DbOrTx }): Promise<AttemptRecord[]> {
  const rows = await (opts.db ?? getDb()).attempt.findMany({
    where: { runId: opts.runId },
    orderBy: { n: "asc" },
    select: attemptSelect,
  });
  return rows.map(toAttemptRecord);
}

// The number of a run's latest attempt (0 when it has none).
export async function findLastAttemptN(opts: { runId: string; db?: DbOrTx }): Promise<number> {
  const row = await (opts.db ?? getDb()).attempt.findFirst({
    where: { runId: opts.runId },
    orderBy: { n: "desc" },
    select: { n: true },
  });
  return row?.n ?? 0;
}

export async function findAttempt(opts: { runId: string; n: number; db?: DbOrTx }): Promise<AttemptRecord | null> {
  const row = await (opts.db ?? getDb()).attempt.findUnique({
    where: { runId_n: { runId: opts.runId, n: opts.n } },
    select: attemptSelect,
  });
  return row ? toAttemptRecord(row) : null;
}

export async function insertAttempt(opts: {
  runId: string;
  n: number;
  trigger: string;
  startedById: string | null;
  db?: DbOrTx;
}): Promise<AttemptRecord> {
  const row = await (opts.db ?? getDb()).attempt.create({
    data: { runId: opts.runId, n: opts.n, trigger: opts.trigger, startedById: opts.startedById },
    select: attemptSelect,
  });
  return toAttemptRecord(row);
}

export type AttemptChanges = Partial<
  Omit<AttemptRecord, "id" | "runId" | "n" | "trigger" | "startedById" | "agentLogBytes"> & {
    agentLogBytes: number | null;
  }
>;

export async function updateAttempt(opts: { id: string; changes: AttemptChanges; db?: DbOrTx }): Promise<void> {
  const { agentLogBytes, ...rest } = opts.changes;
  await (opts.db ?? getDb()).attempt.update({
    where: { id: opts.id },
    data: {
      ...rest,
      ...(agentLogBytes !== undefined ? { agentLogBytes: agentLogBytes === null ? null : BigInt(agentLogBytes) } : {}),
    },
    select: { id: true },
  });
}

export type QueuedResult = Pick<ResultRecord, "checkId" | "name" | "kind" | "required"> &
  Partial<
    Pick<
      ResultRecord,
      | "verdict"
      | "exitCode"
      | "signal"
      | "durationMs"
      | "message"
      | "logTail"
      | "logBytes"
      | "logNote"
      | "tests"
      | "startedAt"
      | "finishedAt"
    >
  >;

// An attempt's rows as stored: in the frozen order, log sizes as BigInt, no test summary as a NULL column.
function resultRowsOf(opts: { attemptId: string; runId: string; logAttempt: number; results: QueuedResult[] }) {
  return opts.results.map((r, position) => ({
    ...r,
    logBytes: r.logBytes === undefined || r.logBytes === null ? null : BigInt(r.logBytes),
    tests: r.tests ?? undefined,
    attemptId: opts.attemptId,
    runId: opts.runId,
    position,
    logAttempt: opts.logAttempt,
  }));
}

// One row per check of an attempt, in the frozen order.
export async function insertResults(opts: {
  attemptId: string;
  runId: string;
  logAttempt: number;
  results: QueuedResult[];
  db?: DbOrTx;
}): Promise<void> {
  if (opts.results.length === 0) return;
  await (opts.db ?? getDb()).checkResult.createMany({ data: resultRowsOf(opts) });
}

// Ends every unfinished row of an attempt at once (cancel, interruption, skipped by failFast).
export async function settleUnfinishedResults(opts: {
  attemptId: string;
  verdict: Verdict;
  message: string;
  db?: DbOrTx;
}): Promise<void> {
  await (opts.db ?? getDb()).checkResult.updateMany({
    where: { attemptId: opts.attemptId, verdict: { in: ["queued", "running"] } },
    data: { verdict: opts.verdict, message: opts.message, finishedAt: new Date() },
  });
}

export async function listResults(opts: { attemptId: string; db?: DbOrTx }): Promise<ResultRecord[]> {
  const rows = await (opts.db ?? getDb()).checkResult.findMany({
    where: { attemptId: opts.attemptId },
    orderBy: { position: "asc" },
    select: resultSelect,
  });
  return rows.map(toResultRecord);
}

export async function listResultsOfRun(opts: {
  runId: string;
  db?: DbOrTx;
}): Promise<(ResultRecord & { attemptN: number })[]> {
  const rows = await (opts.db ?? getDb()).checkResult.findMany({
    where: { runId: opts.runId },
    orderBy: [{ attempt: { n: "asc" } }, { position: "asc" }],
    select: { ...resultSelect, attempt: { select: { n: true } } },
  });
  return rows.map(({ attempt, ...row }) => ({ ...toResultRecord(row), attemptN: attempt.n }));
}

export async function findResult(opts: {
  runId: string;
  n: number;
  checkId: string;
  db?: DbOrTx;
}): Promise<ResultRecord | null> {
  const row = await (opts.db ?? getDb()).checkResult.findFirst({
    where: { runId: opts.runId, checkId: opts.checkId, attempt: { n: opts.n } },
    select: resultSelect,
  });
  return row ? toResultRecord(row) : null;
}

// Writes an attempt's results as they now stand, all at once (the runner keeps them in memory while
// the attempt runs and writes them behind): two statements whatever the number of checks.
export async function replaceResults(opts: {
  attemptId: string;
  runId: string;
  logAttempt: number;
  results: QueuedResult[];
  db?: Db;
}): Promise<void> {
  const db = opts.db ?? getDb();
  await db.$transaction([
    db.checkResult.deleteMany({ where: { attemptId: opts.attemptId } }),
    db.checkResult.createMany({ data: resultRowsOf(opts) }),
  ]);
}
