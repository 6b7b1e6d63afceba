// The executor of the web server on PostgreSQL: a dispatch enqueues a job for the workers (pg-boss), a
// cancel is a database change the worker holding the run sees within half a second, and pages read
// runs in progress from what workers publish to the database (databaseRunView). It also watches for lost
// workers, so a server with GATEHOUSE_WORKERS=0 still settles the runs of a worker that died.
import { transactionSqlOf } from "../../db/by-id";
import type { DbOrTx } from "../../db/client";
import { findRun } from "../../db/runs";
import { advanceRun } from "../execute-run";
import type { RunExecutor } from "../executor";
import type { RunnerDeps, StopReason } from "../runner-deps";
import { databaseRunView } from "../run-view";
import { sendRunJob, type QueueConnection } from "./boss";
import { reapSilentWorkers } from "./held-runs";
import { heartbeatEveryMs } from "../../gates/workers";

export class QueueExecutor implements RunExecutor {
  readonly view = databaseRunView;
  private readonly settling = new Map<string, Promise<void>>();
  private reaper: NodeJS.Timeout | null = null;

  constructor(
    private readonly queue: QueueConnection,
    private readonly deps: RunnerDeps,
    private readonly lostAfterMs: number,
  ) {}

  submit(runId: string): Promise<void> {
    return sendRunJob(this.queue, runId);
  }

  // On the transaction's own connection (PostgreSQL's direct transactions, lib/db/by-id.ts): the job and the
  // wake-up take effect at its commit.
  async enqueueWithin(runId: string, tx: DbOrTx): Promise<boolean> {
    const sql = transactionSqlOf(tx);
    if (!sql) return false;
    await sendRunJob(this.queue, runId, sql);
    return true;
  }

  async stop(runId: string, reason: StopReason): Promise<boolean> {
    const run = await findRun({ id: runId });
    if (!run) return false;
    if (run.claimedBy !== null) return true; // the worker holding it sees the cancel and stops it
    // No worker has it (queued, or waiting for a fix): settle its attempts here, nothing runs. A worker
    // that gets its job later cannot claim it: the cancel has already finished it.
    const controller = new AbortController();
    controller.abort(reason);
    const done = advanceRun(runId, controller.signal, this.deps)
      .catch((error) => console.error(`gatehouse: settling cancelled run ${runId} failed`, error))
      .finally(() => this.settling.delete(runId));
    this.settling.set(runId, done);
    return true;
  }

  // Settled: no worker holds the run any more (bounded: a worker lost mid-cancel is the reaper's business).
  async whenSettled(runId: string, timeoutMs = 15_000): Promise<void> {
    await this.settling.get(runId);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const run = await findRun({ id: runId });
      if (!run || run.claimedBy === null) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  watchForLostWorkers(): void {
    this.reaper ??= setInterval(() => {
      void reapSilentWorkers(this.lostAfterMs, (runId) => this.submit(runId)).catch((error) =>
        console.error(`gatehouse: checking for lost workers failed: ${(error as Error).message}`),
      );
    }, heartbeatEveryMs(this.lostAfterMs)).unref();
  }

  close(): void {
    if (this.reaper) clearInterval(this.reaper);
    this.reaper = null;
  }
}
