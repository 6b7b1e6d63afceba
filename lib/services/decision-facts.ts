// What a decision on a partial run is about: the required checks still red, and whether the task's checks
// changed since the run froze its own (more attempts re-run the frozen ones; a new run would run those).
import type { Actor } from "../auth/actor";
import { withholdHidden } from "../gates/held-out";
import { sameJson } from "../gates/same-json";
import type { RunDetail } from "./run-detail";
import { readTask } from "./tasks";

const RED = new Set(["failed", "timeout", "error", "hollow"]);

export function redChecksOf(detail: RunDetail): { name: string; verdict: string }[] {
  const last = detail.attempts.at(-1);
  return (last?.results ?? [])
    .filter((r) => r.required && RED.has(r.verdict))
    .map((r) => ({ name: r.name, verdict: r.verdict }));
}

export async function haveChecksChangedSince(actor: Actor, detail: RunDetail): Promise<boolean> {
  const { task } = await readTask(actor, detail.task.id);
  return !sameJson(detail.run.checks, withholdHidden(task.effective.checks, detail.seesHidden));
}
