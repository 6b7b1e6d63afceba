// How a run's state maps to the CLI's exit status (`dispatch --wait`, `run`): 0 accepted, 1 rejected or
// partial (or waiting for a fix: not accepted yet), 2 inconclusive, 3 cancelled.
import type { RunJson } from "./api-client";
import { cancelledByOf } from "../gates/run-ending";

type RunState = Pick<RunJson, "status" | "ending" | "endingReason">;

const EXIT = { accepted: 0, notAccepted: 1, inconclusive: 2, cancelled: 3 } as const;

function isCancelled(run: RunState): boolean {
  return cancelledByOf(run) !== null;
}

export function exitCodeOf(run: RunState): number {
  if (run.status !== "finished") return EXIT.notAccepted;
  if (run.ending === "accepted") return EXIT.accepted;
  if (run.ending === "inconclusive") return EXIT.inconclusive;
  if (isCancelled(run)) return EXIT.cancelled;
  return EXIT.notAccepted;
}

export function describeEnd(run: RunState & Pick<RunJson, "number" | "gate">): string {
  if (run.status === "waiting") return `run #${run.number} is waiting for a fix (gate ${run.gate})`;
  const ending = isCancelled(run) ? "cancelled" : (run.ending ?? run.status);
  return `run #${run.number} ${ending}${run.endingReason ? `: ${run.endingReason}` : ""}`;
}
