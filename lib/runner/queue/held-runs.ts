// What becomes of the runs a worker held when it is lost (heartbeat silent) or stops: handed back to the
// queue once when no check had started, otherwise ended inconclusive with the reason (lib/gates/workers).
import { fateOfHeldRun, WORKER_LOST } from "../../gates/workers";
import {
  endHeldRun,
  findSilentWorkers,
  handBackRun,
  hasCheckStarted,
  listRunsClaimedBy,
  markWorkerLost,
  releaseRun,
  type WorkerRecord,
} from "../../db/workers";
import { endedGate } from "../../gates/gate";
import { listAttempts } from "../../db/runs";
import { settleOpenAttempts } from "../recovery";
import { notifyRunEvent } from "../webhook-sender";
import { config, configFrom, type Env } from "../../config/config";

export type HeldRunOutcome = { runId: string; fate: "requeue" | "end" | "release" };

export async function settleRunsOf(
  worker: Pick<WorkerRecord, "id" | "name">,
  reason: string,
  requeue: (runId: string) => Promise<void>,
): Promise<HeldRunOutcome[]> {
  const outcomes: HeldRunOutcome[] = [];
  for (const run of await listRunsClaimedBy({ workerId: worker.id })) {
    const fate = fateOfHeldRun({
      hasCheckStarted: await hasCheckStarted({ runId: run.id }),
      handBacks: run.handBacks,
      status: run.status,
    });
    if (fate === "requeue") {
      // Conditional on the claim: if it is no longer this worker's, the run is someone else's business.
      if (await handBackRun({ runId: run.id, workerId: worker.id })) {
        console.log(
          `gatehouse: run ${run.id} handed back to the queue (${reason}: ${worker.name}; no check had started)`,
        );
        await requeue(run.id);
      }
    } else if (fate === "end") {
      // Attempts first, then the run (conditional on the claim: a cancel that got there first keeps its ending).
      await settleOpenAttempts(run, `${reason}: ${worker.name} stopped while this ran`);
      const gate = endedGate((await listAttempts({ runId: run.id })).at(-1)?.gate ?? run.gate);
      if (await endHeldRun({ runId: run.id, workerId: worker.id, reason, gate })) {
        console.log(`gatehouse: run ${run.id} ended inconclusive (${reason}: ${worker.name})`);
        // The process that ended it (the one that found the worker lost, or the stopping worker) delivers.
        notifyRunEvent(run, "run.ended");
      } else await releaseRun({ runId: run.id, workerId: worker.id });
    } else await releaseRun({ runId: run.id, workerId: worker.id });
    outcomes.push({ runId: run.id, fate });
  }
  return outcomes;
}

// Every worker whose heartbeat has been silent longer than `lostAfterMs` is marked lost (by one process
// alone: the update is conditional) and its runs settled. Any process on the queue may call this.
export async function reapSilentWorkers(
  lostAfterMs: number,
  requeue: (runId: string) => Promise<void>,
): Promise<WorkerRecord[]> {
  const before = new Date(Date.now() - lostAfterMs);
  const reaped: WorkerRecord[] = [];
  for (const worker of await findSilentWorkers({ before })) {
    if (!(await markWorkerLost({ id: worker.id, before }))) continue;
    console.log(
      `gatehouse: worker ${worker.name} on ${worker.host} is lost: ` +
        `no heartbeat since ${worker.heartbeatAt.toISOString()}`,
    );
    await settleRunsOf(worker, WORKER_LOST, requeue);
    reaped.push(worker);
  }
  return reaped;
}

export function lostAfterMsFromEnv(env?: Env): number {
  return (env ? configFrom(env) : config()).workerLostMs;
}
