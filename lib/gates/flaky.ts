// Flaky checks (SPEC Part 2): a check that failed and then passed on the same commit. "The same commit"
// is the head the check ran on (recorded per attempt as Attempt.commit, read just before the checks),
// with a clean worktree both times: an attempt that ran on uncommitted changes is never a witness, since
// its code is not what the commit holds. A result copied from an earlier attempt ("no change since
// attempt k") is not a run of the check. Across runs of the same task and across attempts of one run.
import type { Verdict } from "./gate";

// The failures a later pass on the same commit makes flaky (hollow and error say something else).
export const FLAKY_FAILURES = ["failed", "timeout"] as const satisfies readonly Verdict[];

export type RanOn = { commit: string | null; isDirty: boolean };

function isSameCommit(a: RanOn, b: RanOn): boolean {
  return a.commit !== null && a.commit === b.commit && !a.isDirty && !b.isDirty;
}

// Ids of the checks passed now that failed earlier on the same commit.
export function flakyCheckIds(opts: {
  now: RanOn;
  passed: readonly string[];
  earlierFailures: ReadonlyArray<{ checkId: string; ranOn: RanOn; isCopy: boolean }>;
}): string[] {
  const passed = new Set(opts.passed);
  const ids = opts.earlierFailures
    .filter((f) => passed.has(f.checkId) && !f.isCopy && isSameCommit(opts.now, f.ranOn))
    .map((f) => f.checkId);
  return [...new Set(ids)];
}

// Per test, from JUnit reports: the keys (lib/gates/junit.ts testKeyOf) of tests passed now that failed (or
// errored: in a report that is the test's own code throwing) in an earlier run of the same check on the same
// commit. Same witnesses as for checks: clean, same commit, not a copied row.
export function flakyTestKeys(opts: {
  now: RanOn;
  passedKeys: readonly string[];
  earlierFailures: ReadonlyArray<{ failedKeys: readonly string[]; ranOn: RanOn; isCopy: boolean }>;
}): string[] {
  const passed = new Set(opts.passedKeys);
  const keys = opts.earlierFailures
    .filter((f) => !f.isCopy && isSameCommit(opts.now, f.ranOn))
    .flatMap((f) => f.failedKeys.filter((k) => passed.has(k)));
  return [...new Set(keys)];
}
