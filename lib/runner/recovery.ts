// After a crash or kill: runs the last server left "running" end inconclusive (reason "interrupted"),
// and every process they left behind is ended; queued runs are handed to the executor again.
import {
  insertResults,
  listAttempts,
  listResults,
  listRunsWithStatus,
  settleUnfinishedResults,
  updateAttempt,
  updateRun,
  type RunRecord,
} from "../db/runs";
import { endedGate } from "../gates/gate";
import { rowsFor } from "./attempt-results";
import { killProcessesByEnv } from "./process/process-group";
import type { RunExecutor } from "./executor";

import { notifyRunEvent } from "./webhook-sender";

export const INTERRUPTED = "interrupted";

export type Recovery = { interrupted: string[]; killedPids: number[]; requeued: string[] };

// Runs a worker holds (claimedBy set) are not this process's: lost workers are settled by lib/runner/queue.
export async function recoverRuns(executor: RunExecutor): Promise<Recovery> {
  const running = (await listRunsWithStatus({ statuses: ["running"] })).filter((r) => r.claimedBy === null);
  const killedPids: number[] = [];
  for (const run of running) {
    killedPids.push(...killProcessesByEnv([`GATEHOUSE_RUN_ID=${run.id}`]));
    await settleOpenAttempts(run, "interrupted: the server stopped while this ran");
    await updateRun({
      id: run.id,
      changes: {
        status: "finished",
        ending: "inconclusive",
        endingReason: INTERRUPTED,
        finishedAt: new Date(),
        // The gate its last attempt left (red, or stopped when it was cut short before one was decided).
        gate: endedGate((await listAttempts({ runId: run.id })).at(-1)?.gate ?? run.gate),
      },
    });
    notifyRunEvent(run, "run.ended");
  }
  const queued = (await listRunsWithStatus({ statuses: ["queued"] })).filter((r) => r.claimedBy === null);
  for (const run of queued) await executor.submit(run.id);
  return { interrupted: running.map((r) => r.id), killedPids, requeued: queued.map((r) => r.id) };
}

// Every unfinished attempt of a run that stopped executing ends, each unfinished check with verdict error
// and the message (results are written behind the checks: an attempt may have none yet, and every check
// is accounted for).
export async function settleOpenAttempts(run: Pick<RunRecord, "id" | "checks">, message: string): Promise<void> {
  for (const attempt of await listAttempts({ runId: run.id })) {
    if (attempt.status === "finished") continue;
    if ((await listResults({ attemptId: attempt.id })).length === 0 && attempt.status === "checks") {
      await insertResults({
        attemptId: attempt.id,
        runId: run.id,
        logAttempt: attempt.n,
        results: rowsFor(run.checks, { verdict: "error", message }),
      });
    }
    await settleUnfinishedResults({ attemptId: attempt.id, verdict: "error", message });
    await updateAttempt({
      id: attempt.id,
      changes: {
        status: "finished",
        gate: endedGate(attempt.gate),
        finishedAt: new Date(),
      },
    });
  }
}
