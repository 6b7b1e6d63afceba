// Where a run's database time goes (issue 27): one model query through Prisma (its query compiler plans
// every call anew: JSON protocol, WebAssembly, result decoding) against the same row read by raw SQL through
// the same client and connection; an attempt's result rows written by createMany against one raw INSERT; and
// a run's changes written by the model update against one raw UPDATE; a dispatch's writes, and what a run
// writes at its end, by model queries against raw statements.
// A run makes a few dozen model queries, so this is most of a worker's own CPU per run. Both sides
// interleaved, CPU of this process (the database's own work is beside it).
import { getDb, type DbOrTx } from "../../lib/db/client";
import { transaction } from "../../lib/db/by-id";
import { insertAuditEvent } from "../../lib/db/audit";
import {
  findNewestRunOfTask,
  findRun,
  insertResults,
  insertRunWithFirstAttempt,
  type QueuedResult,
  type RunChanges,
  type RunInsert,
  updateRun,
} from "../../lib/db/runs";
import { markFlakyResults } from "../../lib/db/landing";
import { supersedeOlderRuns } from "../../lib/db/decisions";
import { FLAKY_FAILURES, flakyCheckIds } from "../../lib/gates/flaky";
import { seedRun, seedTask, seedWork } from "../../lib/testing/seeded-rows";
import { createTestDb } from "../../lib/testing/test-db";
import type { BenchRow } from "./runner-bench";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
type Database = "sqlite" | "postgres";
const nameOf = (db: Database) => (db === "sqlite" ? "SQLite" : "PostgreSQL");

// A fresh test database with one Work, task and run (ids qw, qt, qr): SQLite, or PostgreSQL at
// TEST_DATABASE_URL (default the local server).
async function withSeededDb<T>(db: Database, body: () => Promise<T>): Promise<T> {
  const previous = process.env.TEST_DATABASE_URL;
  if (db === "postgres") process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/test";
  else delete process.env.TEST_DATABASE_URL;
  const t = await createTestDb();
  try {
    await seedWork("qw");
    await seedTask({ id: "qt", workId: "qw", number: 1 });
    await seedRun({ id: "qr", taskId: "qt", workId: "qw" });
    return await body();
  } finally {
    await t.cleanup();
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  }
}

// Medians of `rounds` interleaved measurements of each side, after one of each to warm up.
async function interleaved(rounds: number, subject: () => Promise<number>, baseline: () => Promise<number>) {
  await subject();
  await baseline();
  const s: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    s.push(await subject());
    b.push(await baseline());
  }
  return { s: median(s), b: median(b) };
}

const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;

// This process's CPU a call, over `count` calls one after another.
async function cpuPerCall(count: number, call: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) await call();
  return cpuMs(process.cpuUsage(before)) / count;
}

// The row of a model-vs-raw comparison: `subject` and `baseline` each measure one round's CPU a call (of
// `count` calls), interleaved over `rounds`.
async function cpuRow(o: {
  name: string;
  unit: string;
  count: number;
  rounds: number;
  subject: () => Promise<number>;
  baseline: () => Promise<number>;
}): Promise<BenchRow> {
  const { s, b } = await interleaved(o.rounds, o.subject, o.baseline);
  return {
    name: o.name,
    subjectMs: s,
    baselineMs: b,
    ratio: s / b,
    extra: `${s.toFixed(2)} vs ${b.toFixed(2)} ms of this process's CPU a ${o.unit} (${o.count} × ${o.rounds} each)`,
  };
}

export function benchQueryPath(db: Database, queries = 400, rounds = 5): Promise<BenchRow> {
  return withSeededDb(db, async () => {
    const client = getDb();
    return cpuRow({
      name: `one run read by id on ${nameOf(db)}: Prisma's findUnique vs raw SQL, CPU a query`,
      unit: "query",
      count: queries,
      rounds,
      subject: () => cpuPerCall(queries, () => client.run.findUnique({ where: { id: "qr" } })),
      baseline: () => cpuPerCall(queries, () => client.$queryRaw`SELECT * FROM "Run" WHERE "id" = ${"qr"}`),
    });
  });
}

// The same row read by a run's own look-up (findRun, lib/db/by-id.ts) on PostgreSQL, which sends its statement
// to the client's pool past Prisma's client, against the raw statement through Prisma's client (session 43).
export function benchDirectRead(queries = 400, rounds = 5): Promise<BenchRow> {
  return withSeededDb("postgres", async () => {
    const client = getDb();
    return cpuRow({
      name: "one run read by id on PostgreSQL: raw SQL through Prisma's client vs past it (findRun), CPU a query",
      unit: "query",
      count: queries,
      rounds,
      subject: () => cpuPerCall(queries, () => client.$queryRaw`SELECT * FROM "Run" WHERE "id" = ${"qr"}`),
      baseline: () => cpuPerCall(queries, () => findRun({ id: "qr" })),
    });
  });
}

// An attempt's 20 result rows written (issue 27): Prisma's createMany, as runs.ts wrote them until session
// 26, against the raw statement insertResults writes them with now. CPU of this process around each write
// only; the rows are removed between writes, untimed.
export function benchResultRows(db: Database, writes = 60, rounds = 5): Promise<BenchRow> {
  return withSeededDb(db, async () => {
    const client = getDb();
    const attemptId = (await client.attempt.findFirstOrThrow({ where: { runId: "qr" } })).id;
    const results: QueuedResult[] = Array.from({ length: 20 }, (_, i) => ({
      checkId: `c${i + 1}`,
      name: `check ${i + 1}`,
      kind: "custom",
      required: true,
      verdict: "passed",
      exitCode: 0,
      durationMs: 12,
      logBytes: 0,
      logTail: "",
      startedAt: new Date(),
      finishedAt: new Date(),
    }));
    const model = () =>
      client.checkResult.createMany({
        data: results.map((r, position) => ({
          ...r,
          logBytes: BigInt(r.logBytes ?? 0),
          tests: undefined,
          testCases: undefined,
          attemptId,
          runId: "qr",
          position,
          logAttempt: 1,
        })),
      });
    const raw = () => insertResults({ attemptId, runId: "qr", logAttempt: 1, results });
    const cpuPerWrite = async (write: () => Promise<unknown>) => {
      let cpu = 0;
      for (let i = 0; i < writes; i++) {
        const before = process.cpuUsage();
        await write();
        cpu += cpuMs(process.cpuUsage(before));
        await client.$executeRaw`DELETE FROM "CheckResult" WHERE "attemptId" = ${attemptId}`;
      }
      return cpu / writes;
    };
    return cpuRow({
      name: `20 result rows written on ${nameOf(db)}: createMany vs raw, CPU a write`,
      unit: "write",
      count: writes,
      rounds,
      subject: () => cpuPerWrite(model),
      baseline: () => cpuPerWrite(raw),
    });
  });
}

// A run's changes as a run writes them on its way (issue 27: six such writes in a trivial run): Prisma's model
// update, as runs.ts wrote them until session 28, against the raw UPDATE updateRun writes now (updatedAt
// set by both). CPU of this process around each write.
export function benchRunChanges(db: Database, writes = 200, rounds = 5): Promise<BenchRow> {
  return withSeededDb(db, async () => {
    const client = getDb();
    let n = 0;
    // Each write changes something (a database may skip a write that changes nothing).
    const changes = (): RunChanges => ({ status: "running", gate: "running", spentMs: ++n, startedAt: new Date() });
    const model = () => client.run.update({ where: { id: "qr" }, data: changes(), select: { id: true } });
    const raw = () => updateRun({ id: "qr", changes: changes() });
    return cpuRow({
      name: `a run's changes written on ${nameOf(db)}: the model update vs raw, CPU a write`,
      unit: "write",
      count: writes,
      rounds,
      subject: () => cpuPerCall(writes, model),
      baseline: () => cpuPerCall(writes, raw),
    });
  });
}

// A run as a dispatch of the seeded task inserts it, and the audit entry the dispatch writes.
const dispatchData = () =>
  ({
    taskId: "qt",
    workId: "qw",
    policy: "required",
    maxAttempts: 3,
    checks: [{ id: "unit", name: "Unit", kind: "test", command: "npm test", required: true }],
    suppressed: [],
    warnings: [],
    branch: "gatehouse/qt",
    dispatchedById: null,
    agentCommand: null,
    budgetSec: null,
    budgetUsd: null,
  }) as unknown as RunInsert;
const DISPATCH_EVENT = {
  actorId: null,
  actorLabel: "Gatehouse",
  via: "system",
  action: "run.dispatch",
  summary: "bench",
};

// What a dispatch writes, in its transaction (issue 27: ~10 ms of a dispatch's CPU, most of it Prisma's): the
// task's newest run read, the run created with its first attempt (a nested create), and the audit entry, as
// model queries (as dispatchTask wrote them until session 29) against the raw statements it writes now.
export function benchDispatchWrites(db: Database, dispatches = 100, rounds = 5): Promise<BenchRow> {
  return withSeededDb(db, async () => {
    const client = getDb();
    const data = dispatchData();
    const model = () =>
      client.$transaction(async (tx) => {
        const newest = await tx.run.findFirst({ where: { taskId: "qt" }, orderBy: { number: "desc" } });
        const run = await tx.run.create({
          data: {
            ...(data as object as { taskId: string; workId: string; policy: "required"; branch: string }),
            maxAttempts: 3,
            checks: data.checks as object[],
            number: (newest?.number ?? 0) + 1,
            attempts: { create: { n: 1, trigger: "dispatch", startedById: null } },
          },
          omit: { updatedAt: true },
        });
        await tx.auditEvent.create({ data: { ...DISPATCH_EVENT, runId: run.id }, select: { id: true } });
      });
    const raw = () =>
      client.$transaction(async (tx) => {
        const newest = await findNewestRunOfTask({ taskId: "qt", db: tx });
        const run = await insertRunWithFirstAttempt({ data, newestNumber: newest?.number ?? null, db: tx });
        await insertAuditEvent({ event: { ...DISPATCH_EVENT, runId: run.id }, db: tx });
      });
    return cpuRow({
      name: `a dispatch's writes on ${nameOf(db)}: model queries vs raw, CPU a dispatch`,
      unit: "dispatch",
      count: dispatches,
      rounds,
      subject: () => cpuPerCall(dispatches, model),
      baseline: () => cpuPerCall(dispatches, raw),
    });
  });
}

// The same raw writes of a dispatch on PostgreSQL in Prisma's interactive transaction against the transaction of
// lib/db/by-id.ts, on a connection of the same pool past Prisma's client (session 44: what dispatchTask uses).
export function benchDirectTransaction(dispatches = 100, rounds = 5): Promise<BenchRow> {
  return withSeededDb("postgres", async () => {
    const client = getDb();
    const data = dispatchData();
    const writes = async (tx: DbOrTx) => {
      const newest = await findNewestRunOfTask({ taskId: "qt", db: tx });
      const run = await insertRunWithFirstAttempt({ data, newestNumber: newest?.number ?? null, db: tx });
      await insertAuditEvent({ event: { ...DISPATCH_EVENT, runId: run.id }, db: tx });
    };
    return cpuRow({
      name: "a dispatch's writes on PostgreSQL: in Prisma's interactive transaction vs past it, CPU a dispatch",
      unit: "dispatch",
      count: dispatches,
      rounds,
      subject: () => cpuPerCall(dispatches, () => client.$transaction(writes)),
      baseline: () => cpuPerCall(dispatches, () => transaction(client, writes)),
    });
  });
}

// What a run writes at its end after the task's first (issue 27): the attempt's flaky marks (its rows that
// passed, against the task's earlier failures on the same commit) and the older runs it supersedes, as model
// queries (as landing.ts and decisions.ts wrote them until session 32) against the raw statements they are
// now. The attempt has 20 passed rows; an earlier run of the task failed one of them on the same commit, so
// each call flags it.
export function benchAttemptEnd(db: Database, ends = 100, rounds = 5): Promise<BenchRow> {
  return withSeededDb(db, async () => {
    const client = getDb();
    const commit = "c".repeat(40);
    await seedRun({ id: "qr0", taskId: "qt", workId: "qw", number: 2 });
    await client.$executeRaw`UPDATE "Run" SET "number" = 3 WHERE "id" = ${"qr"}`;
    const rowsOf = (verdict: "passed" | "failed", n: number): QueuedResult[] =>
      Array.from({ length: n }, (_, i) => ({
        checkId: `c${i + 1}`,
        name: `check ${i + 1}`,
        kind: "custom",
        required: true,
        verdict,
      }));
    for (const [runId, rows] of [
      ["qr", rowsOf("passed", 20)],
      ["qr0", rowsOf("failed", 1)],
    ] as const) {
      await client.attempt.updateMany({ where: { runId }, data: { commit, isDirty: false } });
      const { id } = await client.attempt.findFirstOrThrow({ where: { runId } });
      await insertResults({ attemptId: id, runId, logAttempt: 1, results: rows });
    }
    const attemptId = (await client.attempt.findFirstOrThrow({ where: { runId: "qr" } })).id;
    const model = async () => {
      const attempt = await client.attempt.findUnique({
        where: { id: attemptId },
        select: {
          commit: true,
          isDirty: true,
          run: { select: { taskId: true } },
          results: {
            where: { kind: { not: "proof" } },
            select: { id: true, checkId: true, verdict: true, testCases: true },
          },
        },
      });
      if (!attempt?.commit) throw new Error("the bench's attempt has no commit");
      const passed = attempt.results.filter((r) => r.verdict === "passed").map((r) => r.checkId);
      const failures = await client.checkResult.findMany({
        where: {
          attemptId: { not: attemptId },
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
      if (ids.length !== 1) throw new Error(`the bench's model side flagged ${ids.length} rows, not 1`);
      await client.checkResult.updateMany({ where: { attemptId, checkId: { in: ids } }, data: { flaky: true } });
      await client.run.updateMany({
        where: { taskId: "qt", number: { lt: 3 }, status: "finished", needsDecision: true },
        data: { needsDecision: false, supersededById: "qr" },
      });
    };
    const raw = async () => {
      const ids = await markFlakyResults({ attemptId, taskId: "qt", commit, isDirty: false });
      if (ids.length !== 1) throw new Error(`the bench's raw side flagged ${ids.length} rows, not 1`);
      await supersedeOlderRuns({ taskId: "qt", number: 3, byRunId: "qr" });
    };
    return cpuRow({
      name: `a run's end after the task's first on ${nameOf(db)}: flaky marks and older runs superseded, model queries vs raw, CPU a run`,
      unit: "run",
      count: ends,
      rounds,
      subject: () => cpuPerCall(ends, model),
      baseline: () => cpuPerCall(ends, raw),
    });
  });
}
