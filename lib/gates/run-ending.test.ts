import { describe, expect, it } from "vitest";
import {
  DECISION_CHOICES,
  ENDINGS,
  RUN_STATUSES,
  decideNextStep,
  endingForDecision,
  pickBestAttempt,
  type AttemptOutcome,
  type AttemptScore,
  type NextStep,
} from "./run-ending";

// A red attempt 1 of 3 under policy required, with an agent and no budget: the usual case.
const outcome = (over: Partial<AttemptOutcome> = {}): AttemptOutcome => ({
  policy: "required",
  gate: "red",
  attemptN: 1,
  maxAttempts: 3,
  hasAgent: true,
  isBudgetSpent: false,
  budgetSec: null,
  isNothingRequired: false,
  ...over,
});

describe("constants", () => {
  it("match the SPEC", () => {
    expect(ENDINGS).toEqual(["accepted", "partial", "rejected", "inconclusive"]);
    expect(RUN_STATUSES).toEqual(["queued", "running", "waiting", "finished"]);
    expect(DECISION_CHOICES).toEqual(["accept", "more-attempts", "reject"]);
  });
});

describe("decideNextStep", () => {
  describe("policy off: accepted after its one attempt, whatever happened", () => {
    it.each<[string, Partial<AttemptOutcome>]>([
      ["gate off", { gate: "off" }],
      ["no agent", { gate: "off", hasAgent: false }],
      ["budget spent", { gate: "off", isBudgetSpent: true, budgetSec: 60 }],
      ["a single-attempt budget", { gate: "off", maxAttempts: 1 }],
    ])("%s", (_label, over) => {
      expect(decideNextStep(outcome({ policy: "off", ...over }))).toEqual({
        kind: "accept",
        reason: "policy off: checks are not run",
        agentCaveat: null,
      });
    });
  });

  describe("gate green: accepted", () => {
    it.each<[string, Partial<AttemptOutcome>, string]>([
      ["on attempt 1", { gate: "green", attemptN: 1 }, "gate green on attempt 1"],
      ["on the last attempt", { gate: "green", attemptN: 3, maxAttempts: 3 }, "gate green on attempt 3"],
      [
        "on the last attempt with the budget spent",
        { gate: "green", attemptN: 3, isBudgetSpent: true, budgetSec: 60 },
        "gate green on attempt 3",
      ],
      ["without an agent", { gate: "green", attemptN: 2, hasAgent: false }, "gate green on attempt 2"],
      ["under policy warn", { gate: "green", policy: "warn" }, "gate green on attempt 1"],
      [
        "with nothing required, saying so",
        { gate: "green", isNothingRequired: true },
        "gate green on attempt 1 (nothing required)",
      ],
    ])("%s", (_label, over, reason) => {
      expect(decideNextStep(outcome(over))).toEqual({ kind: "accept", reason, agentCaveat: null });
    });

    it("an agent that did not pass: the reason says how it ended, and its caveat goes with the acceptance", () => {
      const agentNote = {
        text: "the agent exited 2; the checks passed on what it left",
        caveat: "agent-failed",
      } as const;
      expect(decideNextStep(outcome({ gate: "green", agentNote }))).toEqual({
        kind: "accept",
        reason: "gate green on attempt 1; the agent exited 2; the checks passed on what it left",
        agentCaveat: "agent-failed",
      });
      // Not accepted: no caveat travels (a partial run's badge already says it did not pass).
      const red = decideNextStep(outcome({ gate: "red", attemptN: 3, maxAttempts: 3, agentNote }));
      expect(red).toEqual({ kind: "partial", reason: "all 3 attempts used with the gate still red" });
    });

    it("never says 'nothing required' when something was required", () => {
      const step = decideNextStep(outcome({ gate: "green", isNothingRequired: false }));
      expect(step.kind).toBe("accept");
      expect((step as { reason: string }).reason).not.toMatch(/nothing required/);
    });
  });

  describe("policy warn, gate red: accepted after one attempt, red shown as a warning", () => {
    it.each<[string, Partial<AttemptOutcome>]>([
      ["attempts left and an agent (no iteration)", { attemptN: 1, maxAttempts: 5 }],
      ["no agent (no waiting)", { hasAgent: false }],
      ["budget spent (not partial)", { isBudgetSpent: true, budgetSec: 10 }],
    ])("%s", (_label, over) => {
      const step = decideNextStep(outcome({ policy: "warn", ...over }));
      expect(step).toEqual({
        kind: "accept",
        reason: "policy warn: accepted with the red gate shown as a warning",
        agentCaveat: null,
      });
    });
  });

  describe("policy required, gate red", () => {
    it.each<[string, Partial<AttemptOutcome>, NextStep]>([
      [
        "budget spent with attempts left → partial",
        { isBudgetSpent: true, budgetSec: 900 },
        { kind: "partial", reason: "budget of 900s spent with the gate still red" },
      ],
      [
        "budget spent without an agent → partial, not wait",
        { isBudgetSpent: true, budgetSec: 120, hasAgent: false },
        { kind: "partial", reason: "budget of 120s spent with the gate still red" },
      ],
      [
        "budget spent on the last attempt → partial, for the budget",
        { isBudgetSpent: true, budgetSec: 60, attemptN: 3 },
        { kind: "partial", reason: "budget of 60s spent with the gate still red" },
      ],
      [
        "last of 3 attempts → partial",
        { attemptN: 3, maxAttempts: 3 },
        { kind: "partial", reason: "all 3 attempts used with the gate still red" },
      ],
      [
        "the only attempt → partial (singular wording)",
        { attemptN: 1, maxAttempts: 1 },
        { kind: "partial", reason: "all 1 attempt used with the gate still red" },
      ],
      [
        "last attempt without an agent → partial, not wait",
        { attemptN: 2, maxAttempts: 2, hasAgent: false },
        { kind: "partial", reason: "all 2 attempts used with the gate still red" },
      ],
      [
        "beyond the budget of attempts → partial",
        { attemptN: 4, maxAttempts: 3 },
        { kind: "partial", reason: "all 3 attempts used with the gate still red" },
      ],
      ["attempts left with an agent → next attempt", { attemptN: 1, maxAttempts: 3 }, { kind: "next-attempt" }],
      [
        "second to last attempt with an agent → next attempt",
        { attemptN: 4, maxAttempts: 5 },
        { kind: "next-attempt" },
      ],
      [
        "attempts left without an agent → wait for a fix",
        { attemptN: 1, hasAgent: false },
        { kind: "wait", reason: 'gate red on attempt 1: waiting for a fix, then "Run attempt 2"' },
      ],
      [
        "attempt 2 of 3 without an agent → wait, naming attempt 3",
        { attemptN: 2, hasAgent: false },
        { kind: "wait", reason: 'gate red on attempt 2: waiting for a fix, then "Run attempt 3"' },
      ],
      [
        "more attempts granted after a partial → next attempt",
        { attemptN: 3, maxAttempts: 5 },
        { kind: "next-attempt" },
      ],
    ])("%s", (_label, over, expected) => {
      expect(decideNextStep(outcome(over))).toEqual(expected);
    });
  });

  it("the budget of attempts is exact: attempt m of m ends, attempt m-1 continues", () => {
    for (let m = 1; m <= 5; m++) {
      expect(decideNextStep(outcome({ attemptN: m, maxAttempts: m })).kind).toBe("partial");
      if (m > 1) expect(decideNextStep(outcome({ attemptN: m - 1, maxAttempts: m })).kind).toBe("next-attempt");
    }
  });
});

describe("pickBestAttempt", () => {
  const a = (n: number, requiredPassed: number, commit: string | null = `c${n}`): AttemptScore => ({
    n,
    requiredPassed,
    commit,
  });

  it.each<[string, AttemptScore[], number | null]>([
    ["no attempts", [], null],
    ["a single attempt", [a(1, 0)], 1],
    ["most required passed wins", [a(1, 1), a(2, 3), a(3, 2)], 2],
    ["the first attempt can be the best", [a(1, 4), a(2, 1), a(3, 0)], 1],
    ["the later one wins a tie", [a(1, 2), a(2, 2)], 2],
    ["the latest of a three-way tie", [a(1, 0), a(2, 0), a(3, 0)], 3],
    ["a tie for best below a later worse one", [a(1, 3), a(2, 3), a(3, 1)], 2],
    ["later by attempt number, not by list order", [a(3, 2), a(1, 2), a(2, 2)], 3],
    ["most passed wins even when listed last", [a(3, 1), a(2, 1), a(1, 5)], 1],
  ])("%s → attempt %j", (_label, attempts, expectedN) => {
    const best = pickBestAttempt(attempts);
    expect(best?.n ?? null).toBe(expectedN);
  });

  it("returns the best attempt's record, with its commit", () => {
    const attempts = [a(1, 1, "aaa111"), a(2, 2, "bbb222"), a(3, 2, null)];
    expect(pickBestAttempt(attempts)).toEqual({ n: 3, requiredPassed: 2, commit: null });
    expect(pickBestAttempt(attempts.slice(0, 2))).toEqual({ n: 2, requiredPassed: 2, commit: "bbb222" });
  });
});

describe("endingForDecision", () => {
  it.each([
    ["accept", "accepted"],
    ["reject", "rejected"],
  ] as const)("%s → %s", (choice, ending) => {
    expect(endingForDecision(choice)).toBe(ending);
  });
});
