import { describe, expect, it } from "vitest";
import type { Verdict } from "./gate";
import { isReportsOnlyWarning, isStoppedRow } from "./row-warning";

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
