import { describe, expect, it } from "vitest";
import type { Verdict } from "./gate";
import { isReportsOnlyWarning } from "./row-warning";
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
