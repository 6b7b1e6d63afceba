// Workers and the runs they hold: registration, heartbeats, the conditional claim that lets one worker
// alone execute a run, and the hand-back of a lost or stopping worker's runs. One query or command each.
import { ACTIVE_RUN_STATUSES } from "../gates/run-ending";
import type { Gate } from "../gates/gate";
import { rowsWhere, updateWhere } from "./by-id";
import { getDb, isUpdated, type Db, type DbOrTx } from "./client";
import { runJson, type Worker } from "./models";
import type { RunRecord } from "./runs";
import type { RunStatus } from "../gates/run-ending";

export type WorkerRecord = Worker;

// A claim and its release are raw (by-id.ts): each run has one of each, and the model's conditional update
// was planned anew each time. updatedAt is set, as the model update set it.
const CLAIM_WRITE = { touch: "updatedAt" } as const;

export async function insertWorker(opts: {
  data: { name: string; host: string; pid: number; concurrency: number };
  db?: DbOrTx;
}): Promise<WorkerRecord> {
  return (opts.db ?? getDb()).worker.create({ data: opts.data });
}

// The heartbeat; false when the worker is no longer active (another process declared it lost).
export async function beatWorker(opts: { id: string; db?: DbOrTx }): Promise<boolean> {
  return isUpdated(
    (opts.db ?? getDb()).worker.update({
      where: { id: opts.id, state: "active" },
      data: { heartbeatAt: new Date() },
      select: { id: true },
    }),
  );
}

export async function stopWorker(opts: { id: string; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).worker.updateMany({
    where: { id: opts.id, state: "active" },
    data: { state: "stopped", stoppedAt: new Date() },
  });
}

export async function findSilentWorkers(opts: { before: Date; db?: DbOrTx }): Promise<WorkerRecord[]> {
  return (opts.db ?? getDb()).worker.findMany({ where: { state: "active", heartbeatAt: { lt: opts.before } } });
}

// Conditional: of several processes noticing the same silence, one alone marks it lost (and settles its runs).
export async function markWorkerLost(opts: { id: string; before: Date; db?: DbOrTx }): Promise<boolean> {
  const result = await (opts.db ?? getDb()).worker.updateMany({
    where: { id: opts.id, state: "active", heartbeatAt: { lt: opts.before } },
    data: { state: "lost", stoppedAt: new Date() },
  });
  return result.count === 1;
}

export type WorkerWithRuns = WorkerRecord & {
  runs: { id: string; number: number; status: string; taskKey: string; workId: string }[];
};

// Every worker that is active, and those that stopped or were lost in the last day, newest first, with the
// runs each holds now.
export async function listWorkersWithRuns(opts: { since: Date; db?: DbOrTx }): Promise<WorkerWithRuns[]> {
  const db = opts.db ?? getDb();
  const workers = await db.worker.findMany({
    where: { OR: [{ state: "active" }, { stoppedAt: { gte: opts.since } }] },
    orderBy: [{ state: "asc" }, { startedAt: "desc" }],
  });
  const runs = await db.run.findMany({
    where: { claimedBy: { in: workers.map((w) => w.id) } },
    select: { id: true, number: true, status: true, claimedBy: true, workId: true, task: { select: { key: true } } },
    orderBy: { createdAt: "asc" },
  });
  return workers.map((w) => ({
    ...w,
    runs: runs
      .filter((r) => r.claimedBy === w.id)
      .map((r) => ({ id: r.id, number: r.number, status: r.status, taskKey: r.task.key, workId: r.workId })),
  }));
}
// The one claim that decides who executes a run: a conditional update, so of two workers handed the same run
// (a duplicate job, a retry racing a slow worker) exactly one gets it.
export async function claimRun(opts: {
  runId: string;
  worker: { id: string; name: string };
  db?: DbOrTx;
}): Promise<boolean> {
  const claimed = await updateWhere(
    opts.db ?? getDb(),
    "Run",
    { id: opts.runId, status: "queued", claimedBy: null },
    { claimedBy: opts.worker.id, workerName: opts.worker.name },
    CLAIM_WRITE,
  );
  return claimed > 0;
}

// The release at a run's end, and the run's status as the release left it (null: not this worker's to
// release). Read in the same statement, so a next attempt started while the worker held the run (status
// queued again, no job sent: the holder sends it) is seen exactly when the server could not see the release.
export async function releaseRunAtEnd(opts: {
  runId: string;
  workerId: string;
  db?: DbOrTx;
}): Promise<RunStatus | null> {
  const rows = await (opts.db ?? getDb()).$queryRaw<{ status: RunStatus }[]>`
    UPDATE "Run" SET "claimedBy" = NULL, "updatedAt" = ${new Date()}
    WHERE "id" = ${opts.runId} AND "claimedBy" = ${opts.workerId}
    RETURNING CAST("status" AS TEXT) AS "status"`;
  return rows[0]?.status ?? null;
}

export async function releaseRun(opts: { runId: string; workerId: string; db?: DbOrTx }): Promise<boolean> {
  return (await releaseRunAtEnd(opts)) !== null;
}

export async function listRunsClaimedBy(opts: { workerId: string; db?: DbOrTx }): Promise<RunRecord[]> {
  const rows = await (opts.db ?? getDb()).run.findMany({
    where: { claimedBy: opts.workerId },
    omit: { updatedAt: true },
  });
  return rows.map(runJson);
}

// What a worker watches while it holds runs: each one's status now (a cancel has already finished it) and
// whether the claim is still its own.
export async function findClaimStates(opts: {
  runIds: string[];
  db?: DbOrTx;
}): Promise<{ id: string; status: string; claimedBy: string | null; endingReason: string | null }[]> {
  if (opts.runIds.length === 0) return [];
  return rowsWhere(
    opts.db ?? getDb(),
    "Run",
    { id: opts.runIds },
    { select: ["id", "status", "claimedBy", "endingReason"] },
  );
}

export async function hasCheckStarted(opts: { runId: string; db?: DbOrTx }): Promise<boolean> {
  const row = await (opts.db ?? getDb()).checkResult.findFirst({
    where: { runId: opts.runId, startedAt: { not: null } },
    select: { id: true },
  });
  return row !== null;
}

// Puts a run a worker held back in the queue as if it had not started: its unfinished attempt is queued
// again with no results, and the claim is cleared. Conditional on the claim still being that worker's.
export async function handBackRun(opts: { runId: string; workerId: string; db?: Db }): Promise<boolean> {
  return (opts.db ?? getDb()).$transaction(async (tx) => {
    const moved = await tx.run.updateMany({
      where: { id: opts.runId, claimedBy: opts.workerId, status: { in: [...ACTIVE_RUN_STATUSES] } },
      data: { claimedBy: null, status: "queued", gate: "pending", handBacks: { increment: 1 } },
    });
    if (moved.count === 0) return false;
    const open = await tx.attempt.findMany({ where: { runId: opts.runId, status: { not: "finished" } } });
    for (const attempt of open) {
      await tx.checkResult.deleteMany({ where: { attemptId: attempt.id } });
      await tx.logChunk.deleteMany({ where: { runId: opts.runId, attemptN: attempt.n } });
      await tx.attempt.update({
        where: { id: attempt.id },
        data: { status: "queued", gate: "pending", startedAt: null },
      });
    }
    return true;
  });
}
// Ends a run a worker held (lost, or stopped with checks begun): conditional on the claim still being that
// worker's and the run still active, so a cancel that got there first keeps its ending.
export async function endHeldRun(opts: {
  runId: string;
  workerId: string;
  reason: string;
  // The gate its last attempt left (never pending: see endedGate in lib/gates/gate.ts).
  gate: Gate;
  db?: DbOrTx;
}): Promise<boolean> {
  const now = new Date();
  const result = await (opts.db ?? getDb()).run.updateMany({
    where: { id: opts.runId, claimedBy: opts.workerId, status: { in: [...ACTIVE_RUN_STATUSES] } },
    data: {
      status: "finished",
      ending: "inconclusive",
      endingReason: opts.reason,
      finishedAt: now,
      gate: opts.gate,
      claimedBy: null,
      needsDecision: false,
    },
  });
  return result.count === 1;
}

// The agent's live tail, as a worker publishes it while the agent runs.
export async function publishAgentTail(opts: {
  runId: string;
  n: number;
  tail: string;
  bytes: number;
  db?: DbOrTx;
}): Promise<void> {
  await (opts.db ?? getDb()).attempt.updateMany({
    where: { runId: opts.runId, n: opts.n, status: "agent" },
    data: { agentLogTail: opts.tail, agentLogBytes: BigInt(opts.bytes) },
  });
}
export async function listActiveWorkersOnHost(opts: { host: string; db?: DbOrTx }): Promise<WorkerRecord[]> {
  return (opts.db ?? getDb()).worker.findMany({ where: { state: "active", host: opts.host } });
}

// Marks a worker lost at once (its process is known to be gone); conditional on it still being active.
export async function markWorkerGone(opts: { id: string; db?: DbOrTx }): Promise<boolean> {
  const result = await (opts.db ?? getDb()).worker.updateMany({
    where: { id: opts.id, state: "active" },
    data: { state: "lost", stoppedAt: new Date() },
  });
  return result.count === 1;
}
