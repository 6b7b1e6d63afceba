// How a row that did not pass reads once its run is over (issue 21, item 4): a reports-only check cannot
// block, so on an accepted run its failure is a warning to read, not a red "Failed" that looks like the
// reason the work was held back. A required row that did not pass stays red whatever the ending.
import type { Verdict } from "./gate";
import type { Ending } from "./run-ending";

const DID_NOT_PASS: readonly Verdict[] = ["failed", "hollow", "timeout", "error"];

export function isReportsOnlyWarning(row: { required: boolean; verdict: Verdict }, ending: Ending | null): boolean {
  return ending === "accepted" && !row.required && DID_NOT_PASS.includes(row.verdict);
}
