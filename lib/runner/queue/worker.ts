// A worker: takes runs from the queue and executes them with the same runner as the local executor, up to
// `concurrency` at once. It registers (name, host, concurrency) and heartbeats; it publishes the live rows
// and tails of what it runs and ships the logs to the database; it watches its runs' rows so a cancel
// reaches it within half a second; on SIGTERM it stops its runs and hands them back (lib/gates/workers).
import os from "node:os";
import { AGENT_LOG_NAME } from "../paths";
import { heartbeatEveryMs, WORKER_STOPPED } from "../../gates/workers";
import { cancelledByOf } from "../../gates/run-ending";
import { warmConnections } from "../../db/client";
import { findRun } from "../../db/runs";
import { listWorksRunSince } from "../../db/works";
import { warmClone } from "../checkout/checkout";
import {
  beatWorker,
  claimRun,
  findClaimStates,
  insertWorker,
  listActiveWorkersOnHost,
  listRunsClaimedBy,
  markWorkerGone,
  publishAgentTail,
  releaseRun,
  releaseRunAtEnd,
  stopWorker,
  type WorkerRecord,
} from "../../db/workers";
import { liveResultsOfRun } from "../attempt-results";
import { LocalExecutor } from "../executor";
import { findLiveLog, liveLogKey, liveLogsOfRun } from "../live-logs";
import { identify, killProcessesByEnv } from "../process/process-group";
import { prepareDataDirFor } from "../run-as";
import { sweepLeftoversInBackground } from "../leftovers";
import type { RunnerDeps } from "../runner-deps";
import { advanceSafely } from "../runtime";
import { listenForRuns, RUN_QUEUE, sendRunJob, type QueueConnection } from "./boss";
import { reapSilentWorkers, settleRunsOf } from "./held-runs";
import { LogShipper } from "./log-shipper";
import { config, configFrom, type Env } from "../../config/config";

const WEEK_MS = 7 * 24 * 3600_000;

export type WorkerOptions = {
  queue: QueueConnection;
  deps: RunnerDeps;
  name: string;
  concurrency: number;
  lostAfterMs: number;
  // How often live rows and tails are published and logs shipped (ms).
  publishEveryMs?: number;
  // How often an idle worker looks for jobs when no wake-up reaches it (ms; GATEHOUSE_WORKER_POLL_MS).
  pollMs: number;
  // How many of the Works run lately it readies the clones of when it starts (GATEHOUSE_WORKER_WARM).
  warmWorks: number;
};

export function workerNameFromEnv(env?: Env): string {
  return (env ? configFrom(env) : config()).workerName;
}

export class RunWorker {
  private record!: WorkerRecord;
  private readonly executor: LocalExecutor;
  private readonly shipper: LogShipper;
  // run id → the worker record (this process's current registration) that claimed it
  private readonly held = new Map<string, string>();
  private isStopping = false;
  private timers: NodeJS.Timeout[] = [];
  private wake: (() => void) | null = null;
  // A wake-up that came while the loop was busy (fetching, claiming): it looks again at once instead of
  // sleeping through it — the run that just finished freed a slot, or a job was queued meanwhile.
  private isWakePending = false;
  // Runs that have ended whose logs are being shipped and claims released.
  private readonly wrappingUp = new Set<Promise<void>>();
  private unlisten: (() => Promise<void>) | null = null;
  private loopDone: Promise<void> = Promise.resolve();
  private isTicking = false;

  private constructor(private readonly options: WorkerOptions) {
    this.executor = new LocalExecutor(options.concurrency, (runId, signal) => this.execute(runId, signal));
    this.shipper = new LogShipper(options.deps.dataDir);
  }

  static async start(options: WorkerOptions): Promise<RunWorker> {
    prepareDataDirFor(options.deps.dataDir, options.deps.runAs);
    sweepLeftoversInBackground(options.deps.dataDir, `gatehouse: worker ${options.name}`);
    const worker = new RunWorker(options);
    await worker.register();
    worker.unlisten = await listenForRuns(options.queue.url, () => worker.wakeUp()).catch(() => null);
    const beatMs = heartbeatEveryMs(options.lostAfterMs);
    worker.timers.push(
      setInterval(() => void worker.beat(), beatMs),
      setInterval(() => void worker.tick(), options.publishEveryMs ?? 500),
    );
    for (const t of worker.timers) t.unref();
    worker.loopDone = worker.loop();
    void worker.warmUp();
    console.log(
      `gatehouse: worker ${options.name} (${os.hostname()}, pid ${process.pid}) takes runs, ` +
        `${options.concurrency} at once`,
    );
    return worker;
  }

  // Beside the first runs: the pool's connections for its slots, then the clones of the Works run in the last
  // week (GATEHOUSE_WORKER_WARM of them, the most recently run first), so a worker that joins does not make
  // its first runs of each Work wait for a clone. Takes each clone's lock, as a checkout does.
  private async warmUp(): Promise<void> {
    const started = performance.now();
    const { concurrency, warmWorks, deps } = this.options;
    try {
      await warmConnections(Math.min(concurrency, 10));
      if (warmWorks === 0) return;
      const works = await listWorksRunSince({ since: new Date(Date.now() - WEEK_MS), take: warmWorks });
      let made = 0;
      for (const work of works) {
        if (this.isStopping) return;
        const outcome = await warmClone(deps.dataDir, work).catch((error: Error) => {
          console.error(
            `gatehouse: worker ${this.name}: could not ready the clone of Work ${work.id}: ${error.message}`,
          );
          return "failed" as const;
        });
        if (outcome === "made") made++;
      }
      console.log(
        `gatehouse: worker ${this.name} readied the clones of ${works.length} Works run lately ` +
          `(${made} cloned) in ${Math.round(performance.now() - started)} ms`,
      );
    } catch (error) {
      console.error(`gatehouse: worker ${this.name}: warming up failed: ${(error as Error).message}`);
    }
  }

  get id(): string {
    return this.record.id;
  }

  get name(): string {
    return this.options.name;
  }

  private requeue = (runId: string) => sendRunJob(this.options.queue, runId);

  private async register(): Promise<void> {
    const host = os.hostname();
    // A worker of this host whose process is gone (a restart after a crash or a kill) is lost now, not
    // after the heartbeat threshold: its runs are settled and processes they left are ended. Its heartbeat
    // must also be two beats late, so a worker of another machine with the same host name is never taken.
    const stale = Date.now() - 2 * heartbeatEveryMs(this.options.lostAfterMs);
    for (const other of await listActiveWorkersOnHost({ host })) {
      if (other.pid === process.pid || identify(other.pid) !== null || other.heartbeatAt.getTime() > stale) continue;
      if (!(await markWorkerGone({ id: other.id }))) continue;
      console.log(`gatehouse: worker ${other.name} (pid ${other.pid}) of this host is gone; settling its runs`);
      for (const run of await listRunsClaimedBy({ workerId: other.id }))
        killProcessesByEnv([`GATEHOUSE_RUN_ID=${run.id}`]);
      await settleRunsOf(other, "worker lost", this.requeue);
    }
    this.record = await insertWorker({
      data: { name: this.options.name, host, pid: process.pid, concurrency: this.options.concurrency },
    });
  }

  private wakeUp(): void {
    this.isWakePending = true;
    this.wake?.();
  }

  private async loop(): Promise<void> {
    const { pollMs } = this.options;
    let failures = 0;
    while (!this.isStopping) {
      this.isWakePending = false;
      try {
        // The runs it holds, not the executor's count: a run that is ending gives up its slot (and wakes
        // this loop) a moment before the executor lets go of it, and the executor starts a run submitted
        // in that moment as soon as it does.
        const free = this.options.concurrency - this.held.size;
        if (free > 0) {
          const jobs = await this.options.queue.boss.fetch<{ runId?: unknown }>(RUN_QUEUE, { batchSize: free });
          failures = 0;
          for (const job of jobs) await this.take(job.id, job.data?.runId);
          if (jobs.length > 0) continue;
        }
      } catch (error) {
        failures++;
        console.error(`gatehouse: worker ${this.name}: taking jobs failed (${(error as Error).message}); retrying`);
      }
      if (this.isStopping) break;
      if (this.isWakePending && failures === 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, failures > 0 ? Math.min(30_000, pollMs * 2 ** failures) : pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  private async take(jobId: string, runId: unknown): Promise<void> {
    // Not waited for: a job left uncompleted is offered again after its expiry, and dropped then.
    const done = () => void this.options.queue.boss.complete(RUN_QUEUE, jobId).catch(() => undefined);
    if (typeof runId !== "string") {
      console.log(`gatehouse: worker ${this.name} dropped job ${jobId}: it names no run`);
      return done();
    }
    const workerId = this.record.id;
    // The claim first (the common case needs nothing else); why it failed is read only when it did.
    if (!(await claimRun({ runId, worker: { id: workerId, name: this.name } }))) {
      const run = await findRun({ id: runId }).catch(() => null);
      console.log(
        run
          ? `gatehouse: worker ${this.name} dropped a job for run ${runId}: ` +
              `it is ${run.status}${run.claimedBy ? " and held by a worker" : ""}`
          : `gatehouse: worker ${this.name} dropped the job for run ${runId}: no such run (deleted)`,
      );
      return done();
    }
    done();
    if (this.isStopping) {
      // Claimed while the worker began to stop (shutdown has already listed the runs it stops): handed
      // back at once, never started here.
      await releaseRun({ runId, workerId }).catch(() => undefined);
      await this.requeue(runId).catch(() => undefined);
      return;
    }
    this.held.set(runId, workerId);
    this.executor.submit(runId);
  }

  // The run's slot is free as soon as it has ended; its logs are shipped and its claim released beside the
  // next run (in that order, so a run no worker holds has all its logs on the server).
  private async execute(runId: string, signal: AbortSignal): Promise<void> {
    try {
      await advanceSafely(runId, signal, this.options.deps);
    } finally {
      const claimedAs = this.held.get(runId);
      this.held.delete(runId);
      const wrapUp = this.wrapUp(runId, claimedAs).finally(() => this.wrappingUp.delete(wrapUp));
      this.wrappingUp.add(wrapUp);
      this.wakeUp();
    }
  }

  private async wrapUp(runId: string, claimedAs: string | undefined): Promise<void> {
    await this.shipper.ship(runId);
    this.shipper.forget(runId);
    // Stopping: the claim stays until shutdown settles the run (hand back or end).
    if (this.isStopping || !claimedAs) return;
    // Its next attempt was started while this worker still held it: queue it again.
    const status = await releaseRunAtEnd({ runId, workerId: claimedAs }).catch(() => null);
    if (status === "queued") await this.requeue(runId).catch(() => undefined);
  }

  // Every half second: cancels and lost claims reach the runs; live rows, tails and logs are published.
  private async tick(): Promise<void> {
    if (this.isTicking || this.held.size === 0) return;
    this.isTicking = true;
    try {
      const ids = [...this.held.keys()];
      const states = new Map((await findClaimStates({ runIds: ids })).map((s) => [s.id, s]));
      for (const id of ids) {
        const state = states.get(id);
        if (!state || state.claimedBy !== this.held.get(id)) this.executor.stop(id, { kind: "shutdown" });
        else if (state.status === "finished")
          this.executor.stop(id, { kind: "cancel", by: cancelledByOf({ ending: "rejected", ...state }) ?? "?" });
      }
      for (const id of ids) {
        // The logs first: a viewer who sees a check's live tail can open its log at once.
        await this.shipper.ship(id);
        for (const results of liveResultsOfRun(id)) {
          results.publish((checkId) => {
            const sink = findLiveLog(liveLogKey(id, results.attempt.n, checkId));
            return sink && { tail: sink.liveTail(), bytes: sink.bytesSeen };
          });
        }
        for (const [n, name, sink] of liveLogsOfRun(id)) {
          if (name === AGENT_LOG_NAME)
            await publishAgentTail({ runId: id, n, tail: sink.liveTail(), bytes: sink.bytesSeen });
        }
      }
    } catch (error) {
      console.error(`gatehouse: worker ${this.name}: publishing failed: ${(error as Error).message}`);
    } finally {
      this.isTicking = false;
    }
  }

  private async beat(): Promise<void> {
    if (this.isStopping) return;
    try {
      if (!(await beatWorker({ id: this.record.id }))) {
        // Another process declared this worker lost (its heartbeat was late): its runs were settled there.
        // Stop them here at once (so none runs twice), and register again as a new worker.
        console.error(`gatehouse: worker ${this.name} was declared lost; stopping its runs and registering again`);
        for (const id of this.held.keys()) this.executor.stop(id, { kind: "shutdown" });
        await this.register();
      }
      await reapSilentWorkers(this.options.lostAfterMs, this.requeue);
    } catch (error) {
      console.error(`gatehouse: worker ${this.name}: heartbeat failed: ${(error as Error).message}`);
    }
  }

  // SIGTERM: take no more runs, stop the ones running, and hand them back (to the queue when no check had
  // started, otherwise ended inconclusive, reason "worker stopped"); then deregister.
  async shutdown(): Promise<void> {
    if (this.isStopping) return;
    this.isStopping = true;
    for (const t of this.timers) clearInterval(t);
    this.wakeUp();
    const ids = [...this.held.keys()];
    for (const id of ids) this.executor.stop(id, { kind: "shutdown" });
    await Promise.all(ids.map((id) => this.executor.whenSettled(id)));
    await Promise.all(this.wrappingUp);
    await this.loopDone;
    const outcomes = await settleRunsOf(this.record, WORKER_STOPPED, this.requeue);
    await stopWorker({ id: this.record.id });
    await this.unlisten?.();
    console.log(
      `gatehouse: worker ${this.name} stopped` +
        (outcomes.length ? `; ${outcomes.map((o) => `${o.runId}: ${o.fate}`).join(", ")}` : ""),
    );
  }
}
