// The proof rows' ids and names, apart from their rules so the dashboard can tell them apart cheaply.
export const PROOF_KIND = "proof";
export const TESTS_ADDED = "_tests-added";
export const PROTECTED = "_protected";
export const TESTS_KEPT = "_tests-kept";
export const FAILS_WITHOUT_CHANGE = "_fails-without-change";
export const UNCHANGED = "_unchanged";
// The verification profiles' rows (standard, full).
export const EVIDENCE = "_evidence";
export const REVIEW = "_review";
export const MUTATION = "_mutation";
export const RED_TEAM = "_redteam";

export const PROOF_NAMES: Record<string, string> = {
  [TESTS_ADDED]: "Tests were added",
  [PROTECTED]: "The gate was not edited",
  [TESTS_KEPT]: "The tests that were there still pass",
  [FAILS_WITHOUT_CHANGE]: "The checks fail without the change",
  [UNCHANGED]: "The checks left the change as it was",
  [EVIDENCE]: "Each criterion was shown working",
  [REVIEW]: "An independent review ran the criteria",
  [MUTATION]: "The tests notice changes to the changed files",
  [RED_TEAM]: "A red team could not break it",
};

// Proof rows are told apart by their id: a check's id cannot start with "_".
export function isProofRow(row: { checkId: string }): boolean {
  return row.checkId.startsWith("_");
}
