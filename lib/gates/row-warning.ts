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

// A check the stop cut short (a cancel, a shutdown) is verdict "skipped" — it did not run to the end and
// decides nothing — but it started: only a check's command that ran has a duration (a check never started has
// none), and it has a log. Its row reads "Stopped", apart from "Skipped". Proof rows are left out: each has a
// duration, skipped or not (context.ts `record`).
export function isStoppedRow(row: { checkId: string; verdict: Verdict; durationMs: number | null }): boolean {
  return row.verdict === "skipped" && row.durationMs !== null && !isProofRow(row);
}
