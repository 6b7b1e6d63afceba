// How a row that did not pass reads (issue 21, item 4): a reports-only check cannot block, so its failure is a
// warning to read, not a red "Failed" that looks like the reason the work was held back — on every attempt,
// whatever the run's ending (accepted, partial, cancelled) or before it has one: the same row reads the same
// way. A required row that did not pass stays red.
import type { Verdict } from "./gate";
import { isProofRow } from "./proof-ids";

const DID_NOT_PASS: readonly Verdict[] = ["failed", "hollow", "timeout", "error"];

export function isReportsOnlyWarning(row: { required: boolean; verdict: Verdict }): boolean {
  return !row.required && DID_NOT_PASS.includes(row.verdict);
}

// What a stop (a cancel, a shutdown) says of work it cut short: a check's command, a proof row's re-runs, the
// mutation floor.
export const RUN_STOPPED = "the run was stopped";
export const CUT_SHORT_BY_STOP = `not run to the end: ${RUN_STOPPED}`;

// A check or proof row the stop cut short is verdict "skipped" — it did not run to the end and decides
// nothing — but it started, and it has a log: its row reads "Stopped", apart from "Skipped". A check's command
// that ran has a duration (one never started has none); a proof row has one either way (context.ts `record`),
// so it is known by its message, which a budget that ran out words otherwise.
export function isStoppedRow(row: {
  checkId: string;
  verdict: Verdict;
  durationMs: number | null;
  message?: string | null;
}): boolean {
  if (row.verdict !== "skipped") return false;
  return isProofRow(row) ? row.message?.toLowerCase() === CUT_SHORT_BY_STOP : row.durationMs !== null;
}
