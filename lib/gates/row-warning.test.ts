import { describe, expect, it } from "vitest";
import type { Verdict } from "./gate";
import { CUT_SHORT_BY_STOP, isReportsOnlyWarning, isStoppedRow } from "./row-warning";

describe("isReportsOnlyWarning", () => {
  it.each<[string, boolean, Verdict, boolean]>([
    ["a reports-only failure", false, "failed", true],
    ["a reports-only timeout", false, "timeout", true],
    ["a reports-only hollow row", false, "hollow", true],
    ["a reports-only error", false, "error", true],
    ["a required failure (also on a run accepted under policy warn) stays red", true, "failed", false],
    ["a required timeout stays red", true, "timeout", false],
    ["a reports-only row that passed", false, "passed", false],
    ["a reports-only row that was skipped", false, "skipped", false],
    ["a reports-only row still running", false, "running", false],
  ])("%s", (_, required, verdict, want) => {
    expect(isReportsOnlyWarning({ required, verdict })).toBe(want);
  });
});

describe("isStoppedRow: a check or proof row the stop cut short reads Stopped, one never started Skipped", () => {
  it.each<[string, string, Verdict, number | null, string | null, boolean]>([
    ["a check that ran 18 s before the cancel", "unit", "skipped", 18_000, CUT_SHORT_BY_STOP, true],
    ["a check the cancel came before (never started)", "unit", "skipped", null, "not run: the run was stopped", false],
    ["a check failFast or the budget skipped", "lint", "skipped", null, "not run: failFast stopped…", false],
    ["a check that failed", "unit", "failed", 1200, null, false],
    // Every proof row has a duration: its message tells a stop from a budget or a red gate.
    [
      "a proof row whose re-runs the stop cut",
      "_tests-kept",
      "skipped",
      900,
      "Not run to the end: the run was stopped",
      true,
    ],
    ["the mutation floor the stop cut", "_mutation", "skipped", 4000, CUT_SHORT_BY_STOP, true],
    [
      "a proof row the budget cut",
      "_tests-kept",
      "skipped",
      900,
      "Not run to the end: the run's budget of 60s is spent",
      false,
    ],
    ["the mutation floor on a red gate", "_mutation", "skipped", 3, "not run: the gate is red", false],
  ])("%s", (_, checkId, verdict, durationMs, message, want) => {
    expect(isStoppedRow({ checkId, verdict, durationMs, message })).toBe(want);
  });
});
