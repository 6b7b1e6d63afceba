// What a webhook delivery says (README, "Webhooks"), and when a failed one is tried again. Checks appear by
// id, name and verdict only: no command, no log, so a held-out check says no more here than to a viewer.
import type { WebhookEvent } from "./webhooks";
import { cancelledByOf } from "./run-ending";
import { agentCaveatOf } from "./agent-note";

// The first try and 3 retries, 2 s, 8 s and 32 s after the failure before them; 10 s per request.
export const WEBHOOK_MAX_ATTEMPTS = 4;
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_BACKOFF_MS = 2_000;

export function retryDelayMs(failedAttempt: number, baseMs = WEBHOOK_BACKOFF_MS): number {
  return baseMs * 4 ** (failedAttempt - 1);
}

export type PayloadFacts = {
  event: WebhookEvent;
  occurredAt: Date;
  publicUrl: string;
  work: { id: string; name: string };
  task: { id: string; key: string; title: string };
  run: {
    id: string;
    number: number;
    status: string;
    gate: string;
    ending: string | null;
    endingReason: string | null;
    agentCaveat: string | null;
    needsDecision: boolean;
    maxAttempts: number;
    bestAttempt: number | null;
  };
  // The run's latest attempt (null before its first has a number) and its checks' verdicts.
  attempt: { n: number; gate: string; commit: string | null } | null;
  checks: { checkId: string; name: string; verdict: string; required: boolean }[];
};

export function buildWebhookPayload(f: PayloadFacts) {
  return {
    event: f.event,
    occurredAt: f.occurredAt.toISOString(),
    work: { id: f.work.id, name: f.work.name },
    task: { id: f.task.id, key: f.task.key, title: f.task.title },
    run: {
      id: f.run.id,
      number: f.run.number,
      url: `${f.publicUrl}/runs/${encodeURIComponent(f.run.id)}`,
      status: f.run.status,
      gate: f.run.gate,
      ending: f.run.ending,
      endingReason: f.run.endingReason,
      agentCaveat: agentCaveatOf(f.run.agentCaveat),
      cancelledBy: cancelledByOf(f.run),
      needsDecision: f.run.needsDecision,
      bestAttempt: f.run.bestAttempt,
      attempt: { n: f.attempt?.n ?? 0, of: f.run.maxAttempts },
    },
    attempt: f.attempt && { n: f.attempt.n, gate: f.attempt.gate, commit: f.attempt.commit },
    checks: f.checks.map((c) => ({ id: c.checkId, name: c.name, verdict: c.verdict, required: c.required })),
  };
}
