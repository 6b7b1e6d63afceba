// Runs, their attempts and check results: one query or command per function.
import type { Verdict } from "../gates/gate";
import { ACTIVE_RUN_STATUSES, isActiveRun, type RunStatus } from "../gates/run-ending";
import { toTestCounts, type TestCounts } from "../gates/test-summary";
import type { Lane } from "../gates/lanes";
import type { StageRunFact } from "../gates/board";
import type { CopiedColumns, GroupColumns, TaskResolvedColumns } from "../gates/work-settings";
import { toTestCases, type TestCase } from "../gates/junit";
import { insertRow, newRowId, rowById, rowsWhere, updateWhere } from "./by-id";
import { Prisma } from "./generated/sqlite/client";
import { CheckKind, Verdict as Verdicts } from "./generated/sqlite/enums";
import { getDb, type Db, type DbOrTx } from "./client";
import type { MutationRecord } from "../gates/mutation";
import type { RedTeamRecord } from "../gates/red-team";
import type { ReviewRecord } from "../gates/review";
import type { PushedAttempt } from "../gates/pushed-attempt";
import type { AgentResult } from "../gates/agent-result";
import {
  attemptJson,
  runJson,
  type Attempt,
  type AttemptJsonFields,
  type CheckResult,
  type Run,
  type RunJsonFields,
} from "./models";

// Every column but updatedAt, with the Json columns typed.
export type RunRecord = Omit<Run, "updatedAt" | keyof RunJsonFields> & RunJsonFields;
const runOmit = { updatedAt: true } as const;

// Log sizes are BIGINT columns (a check may print more than 2 GB); above lib/db they are numbers.
type LogBytesAsNumber<Row, K extends keyof Row> = Omit<Row, K> & { [P in K]: number | null };
const bytes = (n: bigint | null) => (n === null ? null : Number(n));
const bigBytes = (n: number | null | undefined) => (n === undefined ? undefined : n === null ? null : BigInt(n));

export type AttemptRecord = LogBytesAsNumber<Omit<Attempt, keyof AttemptJsonFields>, "agentLogBytes"> &
  AttemptJsonFields;
const toAttemptRecord = (row: Attempt): AttemptRecord => ({
  ...attemptJson(row),
  agentLogBytes: bytes(row.agentLogBytes),
});

// tests: the test runner's summary, checked on the way out (null when none was recognised); testCases: the
// tests of its JUnit reports.
export type ResultRecord = Omit<LogBytesAsNumber<CheckResult, "logBytes">, "tests" | "testCases"> & {
  tests: TestCounts | null;
  testCases: TestCase[] | null;
};
const toResultRecord = (row: CheckResult): ResultRecord => ({
  ...row,
  logBytes: bytes(row.logBytes),
  tests: toTestCounts(row.tests),
  testCases: toTestCases(row.testCases),
});

// The run's own fields at dispatch, the settings a task may override (resolved by the dispatch), and the
// Work's settings the registry freezes (lib/gates/work-settings.ts; lib/db/works.ts frozenSettingsOf).
// Frozen columns the Run model has no default for must be given; the others default as old runs did.
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Frozen = CopiedColumns | GroupColumns;
export type RunInsert = Pick<
  RunRecord,
  | "taskId"
  | "workId"
  | "suppressed"
  | "warnings"
  | "branch"
  | "dispatchedById"
  | Exclude<TaskResolvedColumns, "lane">
  | Extract<RequiredKeys<Prisma.RunUncheckedCreateInput>, Frozen>
> &
  // A run of a task on no lane has neither.
  Partial<Pick<RunRecord, Frozen | "lane" | "stage">>;

// Creates the run (numbered per task) with its first attempt queued. Call inside a transaction.
// `pushed`: the first attempt runs at a commit the agent pushed (a stop hook, run_gate).
// `newestNumber`: the number of the task's newest run as read in the same transaction (null: it has none);
// read here when not given.
export async function insertRunWithFirstAttempt(opts: {
  data: RunInsert;
  pushed?: PushedAttempt;
  newestNumber?: number | null;
  db?: DbOrTx;
}): Promise<RunRecord> {
  const given = opts.db ?? getDb();
  // Both rows or neither: inside the caller's transaction (a dispatch's), or one of its own.
  if ("$transaction" in given) return given.$transaction((tx) => insertRunWithFirstAttempt({ ...opts, db: tx }));
  const db = given;
  const { proof, sandbox, lane, ...data } = opts.data;
  const last =
    opts.newestNumber !== undefined
      ? opts.newestNumber
      : ((await findNewestRunOfTask({ taskId: data.taskId, db }))?.number ?? null);
  // Two raw statements, every column the model's nested create would write (its defaults left to the table):
  // a dispatch's largest statement planned in Prisma's query compiler took ~4 ms (lib/db/run-insert.test.ts
  // compares the rows on SQLite and PostgreSQL).
  const now = new Date();
  const row = await insertRow<Omit<Run, keyof typeof runOmit>>(
    db,
    "Run",
    {
      id: newRowId(),
      ...data,
      proof: proof ?? undefined,
      sandbox: sandbox ?? undefined,
      lane: lane ?? undefined,
      number: (last ?? 0) + 1,
      createdAt: now,
      updatedAt: now,
    },
    { json: RUN_JSON, omit: Object.keys(runOmit) },
  );
  await insertRow(
    db,
    "Attempt",
    {
      id: newRowId(),
      runId: row.id,
      n: 1,
      trigger: opts.pushed ? "push" : "dispatch",
      startedById: data.dispatchedById,
      pushed: opts.pushed,
    },
    { json: ATTEMPT_JSON },
  );
  return runJson(row);
}

export async function findRun(opts: { id: string; db?: DbOrTx }): Promise<RunRecord | null> {
  const row = await rowById<Omit<Run, keyof typeof runOmit>>(opts.db ?? getDb(), "Run", opts.id, Object.keys(runOmit));
  return row && runJson(row);
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

// A task's newest run. Only it can be active: a task is dispatched only when none of its runs is, and a
// run that has finished never becomes active again (every way back to "queued" starts from an active one).
export async function findNewestRunOfTask(opts: { taskId: string; db?: DbOrTx }): Promise<RunRecord | null> {
  const [row] = await rowsWhere<Omit<Run, keyof typeof runOmit>>(
    opts.db ?? getDb(),
    "Run",
    { taskId: opts.taskId },
    { orderBy: "number", descending: true, limit: 1, omit: Object.keys(runOmit) },
  );
  return row ? runJson(row) : null;
}

export async function findActiveRunOfTask(opts: { taskId: string; db?: DbOrTx }): Promise<RunRecord | null> {
  const newest = await findNewestRunOfTask(opts);
  return newest && isActiveRun(newest) ? newest : null;
}

// The active runs of a Work that run a stage of a lane: which lane and stage, and the task's key.
export async function listActiveStageRuns(opts: {
  workId: string;
  db?: DbOrTx;
}): Promise<{ number: number; stage: string | null; lane: Lane | null; task: { key: string } }[]> {
  const rows = await (opts.db ?? getDb()).run.findMany({
    where: { workId: opts.workId, status: { in: [...ACTIVE_RUN_STATUSES] }, stage: { not: null } },
    select: { number: true, stage: true, lane: true, task: { select: { key: true } } },
  });
  return rows.map((r) => ({ ...r, lane: r.lane as Lane | null }));
}

// The facts of a Work's (or one task's) stage runs that the stepper and the board read.
export async function listStageRuns(opts: { workId?: string; taskId?: string; db?: DbOrTx }): Promise<StageRunFact[]> {
  const rows = await (opts.db ?? getDb()).run.findMany({
    where: {
      ...(opts.workId ? { workId: opts.workId } : {}),
      ...(opts.taskId ? { taskId: opts.taskId } : {}),
      stage: { not: null },
    },
    select: {
      id: true,
      taskId: true,
      stage: true,
      number: true,
      status: true,
      gate: true,
      ending: true,
      needsDecision: true,
      decision: true,
      maxAttempts: true,
      _count: { select: { attempts: true } },
    },
  });
  return rows.map(({ _count, stage, ...r }) => ({ ...r, stage: stage ?? "", attempts: _count.attempts }));
}

export async function listRunsWithStatus(opts: { statuses: RunStatus[]; db?: DbOrTx }): Promise<RunRecord[]> {
  const rows = await (opts.db ?? getDb()).run.findMany({
    where: { status: { in: opts.statuses } },
    orderBy: { createdAt: "asc" },
    omit: runOmit,
  });
  return rows.map(runJson);
}

export type RunChanges = Partial<
  Pick<
    RunRecord,
    | "status"
    | "gate"
    | "ending"
    | "endingReason"
    | "agentCaveat"
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
    | "decisionReason"
    | "startedAt"
    | "finishedAt"
    | "checkSources"
    | "sandboxMode"
  >
>;

// The Json columns (RunJsonFields, AttemptJsonFields), written as JSON text by raw statements.
const RUN_JSON: ReadonlySet<string> = new Set([
  "checks",
  "suppressed",
  "warnings",
  "agentEnvPassthrough",
  "proof",
  "checkSources",
  "sandbox",
  "lane",
]);
const ATTEMPT_JSON: ReadonlySet<string> = new Set([
  "agentResult",
  "reportNotes",
  "review",
  "mutation",
  "redTeam",
  "pushed",
]);
// A run's and an attempt's changes are written raw (by-id.ts updateWhere): a run writes them several times
// on its way, and the model query plans each in Prisma's query compiler (~2 ms of CPU against ~0.4).
const RUN_WRITE = { json: RUN_JSON, touch: "updatedAt" } as const;
const ATTEMPT_WRITE = { json: ATTEMPT_JSON } as const;

// Throws when there is no such run (as the model update did).
export async function updateRun(opts: { id: string; changes: RunChanges; db?: DbOrTx }): Promise<void> {
  const changed = await updateWhere(opts.db ?? getDb(), "Run", { id: opts.id }, opts.changes, RUN_WRITE);
  if (changed === 0) throw new Error(`run ${opts.id} not found: nothing was changed`);
}

// Changes a run only while it still has one of the expected statuses (guards against double answers).
export async function updateRunIfStatus(opts: {
  id: string;
  statuses: RunStatus[];
  needsDecision?: boolean;
  changes: RunChanges;
  db?: DbOrTx;
}): Promise<boolean> {
  const where = {
    id: opts.id,
    status: opts.statuses,
    ...(opts.needsDecision !== undefined ? { needsDecision: opts.needsDecision } : {}),
  };
  return (await updateWhere(opts.db ?? getDb(), "Run", where, opts.changes, RUN_WRITE)) > 0;
}

export async function listAttempts(opts: { runId: string; db?: DbOrTx }): Promise<AttemptRecord[]> {
  const rows = await rowsWhere<Attempt>(opts.db ?? getDb(), "Attempt", { runId: opts.runId }, { orderBy: "n" });
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
  const [row] = await rowsWhere<Attempt>(opts.db ?? getDb(), "Attempt", { runId: opts.runId, n: opts.n });
  return row ? toAttemptRecord(row) : null;
}

export async function insertAttempt(opts: {
  runId: string;
  n: number;
  trigger: string;
  startedById: string | null;
  pushed?: PushedAttempt;
  db?: DbOrTx;
}): Promise<AttemptRecord> {
  const row = await (opts.db ?? getDb()).attempt.create({
    data: {
      runId: opts.runId,
      n: opts.n,
      trigger: opts.trigger,
      startedById: opts.startedById,
      ...(opts.pushed ? { pushed: opts.pushed } : {}),
    },
  });
  return toAttemptRecord(row);
}

export type AttemptChanges = Partial<
  Omit<
    AttemptRecord,
    | "id"
    | "runId"
    | "n"
    | "trigger"
    | "startedById"
    | "agentLogBytes"
    | "review"
    | "mutation"
    | "redTeam"
    | "pushed"
    | "agentResult"
  > & {
    agentLogBytes: number | null;
  }
>;

// Throws when there is no such attempt (as the model update did).
export async function updateAttempt(opts: { id: string; changes: AttemptChanges; db?: DbOrTx }): Promise<void> {
  const { agentLogBytes, ...rest } = opts.changes;
  const changes = { ...rest, agentLogBytes: bigBytes(agentLogBytes) };
  const changed = await updateWhere(opts.db ?? getDb(), "Attempt", { id: opts.id }, changes, ATTEMPT_WRITE);
  if (changed === 0) throw new Error(`attempt ${opts.id} not found: nothing was changed`);
}

// What the agent CLI reported about its session (written once, after the agent step).
export async function saveAgentResult(opts: { id: string; agentResult: AgentResult; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).attempt.update({
    where: { id: opts.id },
    data: { agentResult: opts.agentResult },
    select: { id: true },
  });
}

// The review layer's record of an attempt (written once, when the review is over).
export async function saveAttemptReview(opts: { id: string; review: ReviewRecord; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).attempt.update({
    where: { id: opts.id },
    data: { review: opts.review as unknown as object },
    select: { id: true },
  });
}

// The mutation floor's record of an attempt.
export async function saveAttemptMutation(opts: { id: string; mutation: MutationRecord; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).attempt.update({
    where: { id: opts.id },
    data: { mutation: opts.mutation as unknown as object },
    select: { id: true },
  });
}

// The red team's record of an attempt.
export async function saveAttemptRedTeam(opts: { id: string; redTeam: RedTeamRecord; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).attempt.update({
    where: { id: opts.id },
    data: { redTeam: opts.redTeam as unknown as object },
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
      | "testCases"
      | "warning"
      | "startedAt"
      | "finishedAt"
    >
  >;

// An attempt's rows, in the frozen order, written by one raw statement (a few for very many checks): Prisma's
// createMany plans the rows in its query compiler, 7.4 ms of CPU for 20 rows against 1.7 raw on SQLite, 8.6
// against 1.8 on PostgreSQL (`npm run bench -- queries`), and the write-behind rewrites an attempt's rows
// every second while it runs. Every column is named, so a row reads back as the model query wrote it
// (lib/db/result-rows.test.ts compares the two on SQLite and, in `npm run test:pg`, PostgreSQL); ids are
// shaped as cuid() gives them.
const RESULT_COLUMNS = [
  "id",
  "attemptId",
  "runId",
  "position",
  "checkId",
  "name",
  "kind",
  "required",
  "verdict",
  "exitCode",
  "signal",
  "durationMs",
  "message",
  "logTail",
  "logBytes",
  "logNote",
  "tests",
  "testCases",
  "warning",
  "logAttempt",
  "flaky",
  "startedAt",
  "finishedAt",
] as const;
// SQLite takes 32,766 values a statement, PostgreSQL 65,535.
const RESULT_ROWS_PER_STATEMENT = 500;

type ResultInsert = QueuedResult & { id?: string; flaky?: boolean };

type ResultOf = { attemptId: string; runId: string; logAttempt: number };

// What the model query's validation refused before the row was written (PostgreSQL's enum types still would;
// SQLite stores any text): a row that is not one of the check kinds or verdicts is never written.
const KINDS = new Set<string>(Object.values(CheckKind));
const VERDICTS = new Set<string>(Object.values(Verdicts));

// A queued result as the row it becomes, every column given (defaults as the schema's): what is written, and
// what the runner shows of an attempt's rows before they are written (attempt-results.ts).
export function resultRecordOf(r: ResultInsert, position: number, of: ResultOf & { id: string }): ResultRecord {
  return {
    id: of.id,
    attemptId: of.attemptId,
    runId: of.runId,
    position,
    checkId: r.checkId,
    name: r.name,
    kind: r.kind,
    required: r.required,
    verdict: r.verdict ?? "queued",
    exitCode: r.exitCode ?? null,
    signal: r.signal ?? null,
    durationMs: r.durationMs ?? null,
    message: r.message ?? null,
    logTail: r.logTail ?? null,
    logBytes: r.logBytes ?? null,
    logNote: r.logNote ?? null,
    tests: r.tests ?? null,
    testCases: r.testCases ?? null,
    warning: r.warning ?? null,
    logAttempt: of.logAttempt,
    flaky: r.flaky ?? false,
    startedAt: r.startedAt ?? null,
    finishedAt: r.finishedAt ?? null,
  };
}

const jsonText = (v: unknown) => (v === null ? null : JSON.stringify(v));

function resultValues(r: ResultInsert, position: number, opts: ResultOf) {
  if (!KINDS.has(r.kind)) throw new Error(`result ${r.checkId}: kind must be one of ${[...KINDS].join(", ")}`);
  if (r.verdict !== undefined && !VERDICTS.has(r.verdict))
    throw new Error(`result ${r.checkId}: verdict must be one of ${[...VERDICTS].join(", ")}`);
  const row = resultRecordOf(r, position, { ...opts, id: r.id ?? newRowId() });
  const values: Record<(typeof RESULT_COLUMNS)[number], unknown> = {
    ...row,
    logBytes: bigBytes(row.logBytes) ?? null,
    tests: jsonText(row.tests),
    testCases: jsonText(row.testCases),
  };
  return Prisma.sql`(${Prisma.join(RESULT_COLUMNS.map((c) => values[c]))})`;
}

// What an upsert of result rows changes in a row already there (by attempt and check id): all but its keys.
const UPSERT_RESULT = Prisma.raw(
  ` ON CONFLICT ("attemptId", "checkId") DO UPDATE SET ${RESULT_COLUMNS.filter(
    (c) => c !== "id" && c !== "attemptId" && c !== "checkId",
  )
    .map((c) => `"${c}" = excluded."${c}"`)
    .join(", ")}`,
);

function insertResultRows(
  db: DbOrTx,
  opts: ResultOf & { results: ResultInsert[] },
  onConflict: Prisma.Sql = Prisma.empty,
): Prisma.PrismaPromise<number>[] {
  const columns = Prisma.raw(RESULT_COLUMNS.map((c) => `"${c}"`).join(", "));
  const statements: Prisma.PrismaPromise<number>[] = [];
  for (let i = 0; i < opts.results.length; i += RESULT_ROWS_PER_STATEMENT) {
    const rows = opts.results.slice(i, i + RESULT_ROWS_PER_STATEMENT).map((r, k) => resultValues(r, i + k, opts));
    statements.push(db.$executeRaw`INSERT INTO "CheckResult" (${columns}) VALUES ${Prisma.join(rows)}${onConflict}`);
  }
  return statements;
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
  const db = opts.db ?? getDb();
  await allOrNone(db, insertResultRows(db, opts));
}

// Several statements (more than 500 checks) all or none, as createMany was; in a caller's transaction they
// are part of it already.
async function allOrNone(db: DbOrTx, statements: Prisma.PrismaPromise<number>[]): Promise<void> {
  if (statements.length > 1 && "$transaction" in db) await db.$transaction(statements);
  else for (const statement of statements) await statement;
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
  const rows = await rowsWhere<CheckResult>(
    opts.db ?? getDb(),
    "CheckResult",
    { attemptId: opts.attemptId },
    { orderBy: "position" },
  );
  return rows.map(toResultRecord);
}

export async function listResultsOfRun(opts: {
  runId: string;
  db?: DbOrTx;
}): Promise<(ResultRecord & { attemptN: number })[]> {
  const rows = await (opts.db ?? getDb()).checkResult.findMany({
    where: { runId: opts.runId },
    orderBy: [{ attempt: { n: "asc" } }, { position: "asc" }],
    include: { attempt: { select: { n: true } } },
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
  });
  return row ? toResultRecord(row) : null;
}

// Writes an attempt's results as they now stand, all at once (the runner keeps them in memory while the
// attempt runs and writes them behind): each row by its attempt and check id (the table's unique pair),
// changed where it is and added where it is not, in one statement up to 500 rows (a rewrite of the rows was
// four on PostgreSQL: BEGIN, DELETE, INSERT, COMMIT, each a round trip, two or three times a run). An
// attempt's rows are only ever added and changed, never removed, so the rows given are all there are; a row
// keeps the id it was first written with. A check id given twice is refused before anything is written.
export async function upsertResults(opts: {
  attemptId: string;
  runId: string;
  logAttempt: number;
  results: QueuedResult[];
  db?: Db;
}): Promise<void> {
  const seen = new Set<string>();
  for (const r of opts.results) {
    if (seen.has(r.checkId)) throw new Error(`results of attempt ${opts.attemptId}: check ${r.checkId} twice`);
    seen.add(r.checkId);
  }
  const db = opts.db ?? getDb();
  await allOrNone(db, insertResultRows(db, opts, UPSERT_RESULT));
}
