// The workers registry as admins see it (GET /api/workers, /admin/workers): every active worker and those
// that stopped or were lost in the last day, with the state shown as a person reads it (a worker whose
// heartbeat is late but not yet declared lost shows as "silent") and the runs each holds now.
import type { Actor } from "../auth/actor";
import { listWorkersWithRuns } from "../db/workers";
import { isHeartbeatSilent } from "../gates/workers";
import { lostAfterMsFromEnv } from "../runner/queue/held-runs";
import { requireAdmin } from "./access";

export type WorkerView = {
  id: string;
  name: string;
  host: string;
  pid: number;
  concurrency: number;
  state: "active" | "silent" | "stopped" | "lost";
  startedAt: Date;
  heartbeatAt: Date;
  stoppedAt: Date | null;
  runs: { id: string; number: number; status: string; taskKey: string; workId: string }[];
};

const DAY_MS = 24 * 60 * 60 * 1000;

export async function listWorkers(actor: Actor): Promise<WorkerView[]> {
  requireAdmin(actor);
  const now = new Date();
  const lostAfterMs = lostAfterMsFromEnv();
  const workers = await listWorkersWithRuns({ since: new Date(now.getTime() - DAY_MS) });
  return workers.map((w) => ({
    id: w.id,
    name: w.name,
    host: w.host,
    pid: w.pid,
    concurrency: w.concurrency,
    // Beats come every lostAfter/4 at most: two missed ones make a worker look silent before it is lost.
    state: w.state === "active" && isHeartbeatSilent(w.heartbeatAt, now, lostAfterMs / 2) ? "silent" : w.state,
    startedAt: w.startedAt,
    heartbeatAt: w.heartbeatAt,
    stoppedAt: w.stoppedAt,
    runs: w.runs,
  }));
}
