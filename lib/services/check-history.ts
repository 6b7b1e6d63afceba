// Check history of a Work (SPEC Part 2): per check id, how often it ran and passed, how long it takes,
// how often it was flaky, and its last 30 results. Viewers and up; a held-out check's durations are for
// leads only (below lead a held-out check is its name and verdicts).
import type { Actor } from "../auth/actor";
import { aggregateCheckStats, type CheckStats } from "../db/check-stats";
import { listHeldOutTaskCheckIds } from "../db/tasks";
import { standingAllows, standingOn } from "./access";
import { readWork } from "./works";

export async function readCheckHistory(actor: Actor, workId: string): Promise<CheckStats[]> {
  const work = await readWork(actor, workId);
  const [stats, standing] = await Promise.all([aggregateCheckStats({ workId }), standingOn(actor, workId)]);
  if (standingAllows(standing, "lead")) return stats;
  const heldOut = await listHeldOutTaskCheckIds({ workId });
  for (const c of work.checkDefaults) if (c.hidden) heldOut.add(c.id);
  return stats.map((s) => (heldOut.has(s.checkId) ? { ...s, medianMs: null, p95Ms: null } : s));
}
