// Workers (SPEC Part 2, "More than one machine"): when one counts as lost, and what becomes of the runs a
// lost or stopping worker held. Pure rules; lib/runner/queue applies them.

const WORKER_STATES = ["active", "stopped", "lost"] as const;
export type WorkerState = (typeof WORKER_STATES)[number];

export const WORKER_LOST = "worker lost";
export const WORKER_STOPPED = "worker stopped";

// A heartbeat this much older than now means the worker is gone (SIGKILL, a dead host, a cut network).
export function isHeartbeatSilent(heartbeatAt: Date, now: Date, lostAfterMs: number): boolean {
  return now.getTime() - heartbeatAt.getTime() > lostAfterMs;
}

// A run whose worker went away is handed back to the queue once when none of its checks had started
// (nothing it did can be half-done); otherwise, or the second time, it ends inconclusive.
export function fateOfHeldRun(input: {
  hasCheckStarted: boolean;
  handBacks: number;
  status: "queued" | "running" | "waiting" | "finished";
}): "requeue" | "end" | "release" {
  if (input.status === "waiting" || input.status === "finished") return "release";
  return !input.hasCheckStarted && input.handBacks < 1 ? "requeue" : "end";
}

// How often a worker says it is alive: often enough that two missed beats never make it look lost.
export function heartbeatEveryMs(lostAfterMs: number): number {
  return Math.max(200, Math.min(5000, Math.floor(lostAfterMs / 4)));
}
