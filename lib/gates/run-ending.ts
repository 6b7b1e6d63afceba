// What happens after an attempt the runner judged: accept, try again, wait for a person, or end partial (an
// attempt found inconclusive ends the run before this is asked).
import { withAgentNote, type AgentCaveat, type AgentNote } from "./agent-note";
import type { Gate } from "./gate";
import type { ChecksPolicy } from "./work-schema";

export const ENDINGS = ["accepted", "partial", "rejected", "inconclusive"] as const;
export type Ending = (typeof ENDINGS)[number];
export const RUN_STATUSES = ["queued", "running", "waiting", "finished"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
// A run in one of these has not ended yet: a task runs one such run at a time.
export const ACTIVE_RUN_STATUSES = ["queued", "running", "waiting"] as const satisfies readonly RunStatus[];

export const isActiveRun = (run: { status: RunStatus }): boolean =>
  (ACTIVE_RUN_STATUSES as readonly RunStatus[]).includes(run.status);

// A cancel ends a run rejected with the reason "cancelled by <who>" (services/runs.ts cancelRun): who
// cancelled it, or null for any other ending. The one place that reads the reason back.
export const CANCELLED_BY = "cancelled by ";

export function cancelledByOf(run: { ending: string | null; endingReason: string | null }): string | null {
  return run.ending === "rejected" && run.endingReason?.startsWith(CANCELLED_BY)
    ? run.endingReason.slice(CANCELLED_BY.length)
    : null;
}

export type NextStep =
  // agentCaveat: the agent did not pass (recorded beside the reason so lists can flag it), else null.
  | { kind: "accept"; reason: string; agentCaveat: AgentCaveat | null }
  | { kind: "next-attempt" }
  | { kind: "wait"; reason: string }
  | { kind: "partial"; reason: string };

export type AttemptOutcome = {
  policy: ChecksPolicy;
  gate: Gate;
  attemptN: number;
  maxAttempts: number;
  hasAgent: boolean;
  isBudgetSpent: boolean;
  budgetSec: number | null;
  // The USD budget ran out (the agent CLI's reported cost): how much of how much, e.g. "$1.20 of $1.00".
  usdSpent?: string | null;
  isNothingRequired: boolean;
  // How the agent ended when it did not pass (lib/gates/agent-note.ts): an accepted ending says it too.
  agentNote?: AgentNote | null;
};

export function decideNextStep(o: AttemptOutcome): NextStep {
  const accept = (reason: string): NextStep => ({
    kind: "accept",
    reason: withAgentNote(reason, o.agentNote),
    agentCaveat: o.agentNote?.caveat ?? null,
  });
  if (o.policy === "off") return accept("policy off: checks are not run");
  if (o.gate === "green")
    return accept(
      o.isNothingRequired
        ? `gate green on attempt ${o.attemptN} (nothing required)`
        : `gate green on attempt ${o.attemptN}`,
    );
  if (o.policy === "warn") return accept("policy warn: accepted with the red gate shown as a warning");
  if (o.isBudgetSpent) return { kind: "partial", reason: `budget of ${o.budgetSec}s spent with the gate still red` };
  if (o.usdSpent) return { kind: "partial", reason: `budget in USD spent (${o.usdSpent}) with the gate still red` };
  if (o.attemptN >= o.maxAttempts) {
    return {
      kind: "partial",
      reason: `all ${o.maxAttempts} attempt${o.maxAttempts === 1 ? "" : "s"} used with the gate still red`,
    };
  }
  if (o.hasAgent) return { kind: "next-attempt" };
  return {
    kind: "wait",
    reason: `gate red on attempt ${o.attemptN}: waiting for a fix, then "Run attempt ${o.attemptN + 1}"`,
  };
}

export type AttemptScore = { n: number; requiredPassed: number; commit: string | null };

// The best attempt of a partial run: most required checks passed, the later one on a tie.
export function pickBestAttempt(attempts: readonly AttemptScore[]): AttemptScore | null {
  let best: AttemptScore | null = null;
  for (const a of attempts)
    if (!best || a.requiredPassed > best.requiredPassed || (a.requiredPassed === best.requiredPassed && a.n > best.n))
      best = a;
  return best;
}

export const DECISION_CHOICES = ["accept", "more-attempts", "reject"] as const;
export type DecisionChoice = (typeof DECISION_CHOICES)[number];

export function endingForDecision(choice: Exclude<DecisionChoice, "more-attempts">): Ending {
  return choice === "accept" ? "accepted" : "rejected";
}
