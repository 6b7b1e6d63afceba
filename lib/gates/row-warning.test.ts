import { describe, expect, it } from "vitest";
import type { Verdict } from "./gate";
import { isReportsOnlyWarning, isStoppedRow } from "./row-warning";
import type { Ending } from "./run-ending";

describe("isReportsOnlyWarning", () => {
  it.each<[string, boolean, Verdict, Ending | null, boolean]>([
    ["a reports-only failure on an accepted run", false, "failed", "accepted", true],
    ["a reports-only timeout on an accepted run", false, "timeout", "accepted", true],
    ["a reports-only hollow row on an accepted run", false, "hollow", "accepted", true],
    ["a reports-only error on an accepted run", false, "error", "accepted", true],
    ["a required failure on an accepted run (policy warn) stays red", true, "failed", "accepted", false],
    ["a reports-only failure while the run goes on", false, "failed", null, false],
    ["a reports-only failure on a partial run", false, "failed", "partial", false],
    ["a reports-only row that passed", false, "passed", "accepted", false],
    ["a reports-only row that was skipped", false, "skipped", "accepted", false],
  ])("%s", (_, required, verdict, ending, want) => {
    expect(isReportsOnlyWarning({ required, verdict }, ending)).toBe(want);
  });
});

describe("isStoppedRow: a check the stop cut short reads Stopped, one never started Skipped", () => {
  it.each<[string, string, Verdict, number | null, boolean]>([
    ["a check that ran 18 s before the cancel", "unit", "skipped", 18_000, true],
    ["a check the cancel came before (never started)", "unit", "skipped", null, false],
    ["a check failFast or the budget skipped", "lint", "skipped", null, false],
    ["a proof row skipped (every proof row has a duration)", "_mutation", "skipped", 3, false],
    ["a check that failed", "unit", "failed", 1200, false],
  ])("%s", (_, checkId, verdict, durationMs, want) => {
    expect(isStoppedRow({ checkId, verdict, durationMs })).toBe(want);
  });
});
