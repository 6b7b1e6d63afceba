// Check history of a Work (SPEC Part 2): per check id, how often it ran and passed, how long it takes,
// how often it was flaky, and its last 30 results. Viewers and up.
import type { Actor } from "../auth/actor";
import { aggregateCheckStats, type CheckStats } from "../db/check-stats";
import { readWork } from "./works";

export async function readCheckHistory(actor: Actor, workId: string): Promise<CheckStats[]> {
  await readWork(actor, workId);
  return aggregateCheckStats({ workId });
}
