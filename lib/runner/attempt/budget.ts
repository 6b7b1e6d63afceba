// The run's spend guardrail (budgetSec: wall seconds of agent, checks and layers together), as one object:
// what is left, what a command may take, and the words for "spent". The run record is the store (the run
// loop reads `spentMs` to end a run partial, and saves it).
import type { RunRecord } from "../../db/runs";

type BudgetOf = Pick<RunRecord, "budgetSec" | "spentMs" | "budgetFromMs">;

export type Timeout = { timeoutMs: number; isBudgetBound: boolean };

export class Budget {
  constructor(
    private readonly run: BudgetOf,
    // The limit of a command with no limit of its own (the agent, a review) when the run has no budget.
    private readonly defaultTimeoutMs: number,
  ) {}

  // Milliseconds left, or null when the run has no budget.
  remainingMs(): number | null {
    const { run } = this;
    if (run.budgetSec === null) return null;
    return run.budgetSec * 1000 - (run.spentMs - run.budgetFromMs);
  }

  isSpent(): boolean {
    const left = this.remainingMs();
    return left !== null && left <= 0;
  }

  spend(ms: number): void {
    this.run.spentMs += ms;
  }

  // A command gets at most what is left: a check its own `limitMs` unless the budget is shorter; a command
  // without a limit of its own (null) what is left, or the default when there is no budget.
  timeoutFor(limitMs: number | null): Timeout {
    const left = this.remainingMs();
    if (limitMs === null)
      return left === null
        ? { timeoutMs: this.defaultTimeoutMs, isBudgetBound: false }
        : { timeoutMs: Math.max(1, left), isBudgetBound: true };
    const isBudgetBound = left !== null && left < limitMs;
    return { timeoutMs: isBudgetBound ? Math.max(1, left) : limitMs, isBudgetBound };
  }

  spentMessage(): string {
    return `the run's budget of ${this.run.budgetSec}s is spent`;
  }
}

// How a command cut off by its limit is described: the budget's words, or the limit's.
export function timeoutWords(timeout: Timeout): string {
  return timeout.isBudgetBound
    ? "stopped when the run's budget ran out"
    : `timed out after ${Math.round(timeout.timeoutMs / 1000)}s`;
}
