import { describe, expect, it } from "vitest";
import { formatUsd, isUsdBudgetSpent, usdSpent } from "./usd-budget";

const a = (n: number, costUsd: number | null, trigger = "agent-loop") => ({
  n,
  trigger,
  agentResult: costUsd === null ? null : { costUsd },
});

describe("usdSpent", () => {
  it.each([
    ["no attempt", [], 0],
    [
      "costs added up; an attempt without a result costs nothing known",
      [a(1, 0.25, "dispatch"), a(2, null), a(3, 0.5)],
      0.75,
    ],
    [
      "counted again from the attempt a decision granted",
      [a(1, 0.6, "dispatch"), a(2, 0.6), a(3, 0.1, "decision"), a(4, 0.2)],
      0.3,
    ],
  ])("%s", (_name, attempts, spent) => {
    expect(usdSpent(attempts)).toBeCloseTo(spent, 10);
  });

  it("is spent once the cost reaches the budget; no budget is never spent", () => {
    expect(isUsdBudgetSpent(1, [a(1, 0.6), a(2, 0.4)])).toBe(true);
    expect(isUsdBudgetSpent(1, [a(1, 0.6)])).toBe(false);
    expect(isUsdBudgetSpent(null, [a(1, 1000)])).toBe(false);
    expect([formatUsd(1.2), formatUsd(0.0027), formatUsd(0)]).toEqual(["$1.20", "$0.0027", "$0.00"]);
  });
});
