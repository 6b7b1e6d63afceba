// A run's spend in US dollars: what the agent CLI reported each attempt cost (its JSON result's
// total_cost_usd, see agent-result.ts), counted against the run's budgetUsd like wall time against
// budgetSec. A lead's "more attempts" starts the count again from the attempt it granted, as it does for time.
type SpendingAttempt = { n: number; trigger: string; agentResult: { costUsd: number | null } | null };

export function usdSpent(attempts: readonly SpendingAttempt[]): number {
  const granted = attempts.filter((a) => a.trigger === "decision").map((a) => a.n);
  const from = granted.length ? Math.max(...granted) : 1;
  return attempts.filter((a) => a.n >= from).reduce((sum, a) => sum + (a.agentResult?.costUsd ?? 0), 0);
}

export function isUsdBudgetSpent(budgetUsd: number | null, attempts: readonly SpendingAttempt[]): boolean {
  return budgetUsd !== null && usdSpent(attempts) >= budgetUsd;
}

export function formatUsd(n: number): string {
  return `$${n.toFixed(n > 0 && n < 0.01 ? 4 : 2)}`;
}
