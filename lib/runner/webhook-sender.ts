// Webhook deliveries, off the run's path: an event is written down (one pending row per subscribed webhook)
// and sent by a timer of this process, so a slow or hanging receiver never delays a run. Each request has a
// timeout; a failed one schedules the next attempt as a new row, with exponential backoff, up to a bound.
// Rows, not memory, hold what is owed: a restart resumes the pending ones (resumeWebhookDeliveries). The
// process that ends a run writes its event down, and a request is made only by whoever moves its row from
// pending to sending, so with several PostgreSQL workers each delivery still happens once.
import { createHmac, randomUUID } from "node:crypto";
import { openSecret } from "../auth/secret-box";
import { config } from "../config/config";
import { findRun, listAttempts, listResults } from "../db/runs";
import { findTask } from "../db/tasks";
import { findSealedWebhooks } from "../db/works";
import {
  claimDelivery,
  failAbandonedDeliveries,
  findDelivery,
  insertDelivery,
  listPendingDeliveries,
  pruneDeliveries,
  recordDeliveryOutcome,
  type DeliveryRecord,
} from "../db/webhook-deliveries";
import {
  WEBHOOK_BACKOFF_MS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_TIMEOUT_MS,
  buildWebhookPayload,
  retryDelayMs,
} from "../gates/webhook-payload";
import { answeredError } from "../gates/webhook-failure";
import type { WebhookEvent } from "../gates/webhooks";

type SenderOptions = { timeoutMs: number; backoffMs: number; maxAttempts: number };
const holder = globalThis as unknown as {
  __gatehouseWebhooks?: {
    options: SenderOptions;
    timers: Map<string, NodeJS.Timeout>;
    busy: Set<Promise<unknown>>;
    idle: (() => void)[];
  };
};
holder.__gatehouseWebhooks ??= {
  idle: [] as (() => void)[],
  options: { timeoutMs: WEBHOOK_TIMEOUT_MS, backoffMs: WEBHOOK_BACKOFF_MS, maxAttempts: WEBHOOK_MAX_ATTEMPTS },
  timers: new Map(),
  busy: new Set(),
};
const state = holder.__gatehouseWebhooks;

// Tests shorten the timeout and the backoff.
export function configureWebhookSender(options: Partial<SenderOptions>): void {
  Object.assign(state.options, options);
}

// Resolves once nothing is being sent or waiting for its retry (tests wait for this, not for time).
export function whenWebhooksIdle(): Promise<void> {
  if (state.busy.size === 0 && state.timers.size === 0) return Promise.resolve();
  return new Promise((resolve) => state.idle.push(resolve));
}

function track<T>(work: Promise<T>): Promise<T> {
  state.busy.add(work);
  const done = () => {
    state.busy.delete(work);
    if (state.busy.size === 0 && state.timers.size === 0) for (const resolve of state.idle.splice(0)) resolve();
  };
  work.then(done, done);
  return work;
}

function schedule(id: string, delayMs: number): void {
  if (state.timers.has(id)) return;
  const timer = setTimeout(
    () => {
      state.timers.delete(id);
      track(
        send(id).catch((error: Error) =>
          console.error(`gatehouse: webhook delivery ${id} could not be sent: ${error.message}`),
        ),
      );
    },
    Math.max(0, delayMs),
  );
  timer.unref?.();
  state.timers.set(id, timer);
}

// Called where a run starts, ends, or comes to need a decision; returns at once (never awaited by the run).
// The caller names the run's Work, so a Work without webhooks for the event costs one read and no more —
// none when the caller has just read the Work (`justRead`: its webhooks as of that read) and none subscribe.
export function notifyRunEvent(
  of: { id: string; workId: string },
  event: WebhookEvent,
  justRead?: { webhooks: readonly { events: readonly WebhookEvent[] }[] },
): void {
  if (justRead && !justRead.webhooks.some((h) => h.events.includes(event))) return;
  track(
    enqueue(of, event).catch((error: Error) =>
      console.error(`gatehouse: the ${event} webhooks of run ${of.id} could not be written down: ${error.message}`),
    ),
  );
}

async function enqueue(of: { id: string; workId: string }, event: WebhookEvent): Promise<void> {
  const runId = of.id;
  const hooks = await findSealedWebhooks({ workId: of.workId });
  const subscribed = (hooks?.webhooks ?? []).flatMap((h, i) => (h.events.includes(event) ? [{ h, i }] : []));
  if (!hooks || subscribed.length === 0) return;
  // Read now, for the payload: the run as the event left it.
  const run = await findRun({ id: runId });
  if (!run) return;
  const [task, attempts] = await Promise.all([findTask({ id: run.taskId }), listAttempts({ runId })]);
  if (!task) return;
  const last = attempts.at(-1) ?? null;
  const checks = last && event !== "run.started" ? await listResults({ attemptId: last.id }) : [];
  const body = JSON.stringify(
    buildWebhookPayload({
      event,
      occurredAt: new Date(),
      publicUrl: config().publicUrl,
      work: { id: run.workId, name: hooks.name },
      task,
      run,
      attempt: last && { n: last.n, gate: last.gate, commit: last.commit },
      checks,
    }),
  );
  for (const { h, i } of subscribed) {
    const row = await insertDelivery({
      data: {
        workId: run.workId,
        webhookId: h.id,
        webhookIndex: i,
        url: h.url,
        event,
        runId,
        deliveryId: randomUUID(),
        attempt: 1,
        maxAttempts: state.options.maxAttempts,
        body,
        dueAt: new Date(),
      },
    });
    schedule(row.id, 0);
  }
}

// The header a receiver checks: HMAC-SHA256 of the exact body bytes, keyed with the webhook's secret.
function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(Buffer.from(body, "utf8")).digest("hex")}`;
}

async function send(id: string): Promise<void> {
  if (!(await claimDelivery({ id }))) return;
  const row = await findDelivery({ id });
  if (!row) return;
  const hook = (await findSealedWebhooks({ workId: row.workId }))?.webhooks.find((h) => h.id === row.webhookId);
  if (!hook) {
    await recordDeliveryOutcome({
      id,
      outcome: { state: "failed", statusCode: null, error: "the webhook was removed", durationMs: 0 },
    });
    return;
  }
  const outcome = await post(row, openSecret(hook.secret));
  await recordDeliveryOutcome({ id, outcome });
  if (outcome.state === "failed" && row.attempt < row.maxAttempts) await scheduleRetry(row, hook.url);
}

async function post(row: DeliveryRecord, secret: string) {
  const { timeoutMs } = state.options;
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(row.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Gatehouse-Webhooks/1",
        "X-Gatehouse-Event": row.event,
        "X-Gatehouse-Delivery": row.deliveryId,
        "X-Gatehouse-Attempt": String(row.attempt),
        "X-Gatehouse-Signature-256": signatureOf(row.body, secret),
        ...(row.redeliveryOf ? { "X-Gatehouse-Redelivery-Of": row.redeliveryOf } : {}),
      },
      body: row.body,
    });
    const durationMs = took();
    await response.body?.cancel().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return {
      state: ok ? ("delivered" as const) : ("failed" as const),
      statusCode: response.status,
      error: ok ? null : answeredError(response.status, response.headers.get("location"), row.url),
      durationMs,
    };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    const reason =
      e.name === "TimeoutError"
        ? `timed out: no answer within ${timeoutMs / 1000} s`
        : `could not deliver: ${e.cause?.code ?? e.cause?.message ?? e.message}`;
    return { state: "failed" as const, statusCode: null, error: reason, durationMs: took() };
  }
}

async function scheduleRetry(row: DeliveryRecord, url: string): Promise<void> {
  const delay = retryDelayMs(row.attempt, state.options.backoffMs);
  const next = await insertDelivery({
    data: {
      workId: row.workId,
      webhookId: row.webhookId,
      webhookIndex: row.webhookIndex,
      url,
      event: row.event,
      runId: row.runId,
      deliveryId: row.deliveryId,
      redeliveryOf: row.redeliveryOf,
      attempt: row.attempt + 1,
      maxAttempts: row.maxAttempts,
      body: row.body,
      dueAt: new Date(Date.now() + delay),
    },
  });
  schedule(next.id, delay);
}

// Sends a logged delivery's body again, once, as a new delivery (new id, attempt 1 of 1) that names the
// event's first delivery (redeliveryOf, and the X-Gatehouse-Redelivery-Of header), and waits for it.
export async function redeliver(row: DeliveryRecord, url: string): Promise<DeliveryRecord> {
  const again = await insertDelivery({
    data: {
      workId: row.workId,
      webhookId: row.webhookId,
      webhookIndex: row.webhookIndex,
      url,
      event: row.event,
      runId: row.runId,
      deliveryId: randomUUID(),
      redeliveryOf: row.redeliveryOf ?? row.deliveryId,
      attempt: 1,
      maxAttempts: 1,
      body: row.body,
      dueAt: new Date(),
    },
  });
  await track(send(again.id));
  return (await findDelivery({ id: again.id })) ?? again;
}

// At start-up: requests the last process left in flight count as failed (and are retried), and every pending
// delivery is scheduled for its time.
export async function resumeWebhookDeliveries(): Promise<number> {
  const before = new Date(Date.now() - state.options.timeoutMs - 60_000);
  for (const row of await failAbandonedDeliveries({ before })) {
    const hook = (await findSealedWebhooks({ workId: row.workId }))?.webhooks.find((h) => h.id === row.webhookId);
    if (hook && row.attempt < row.maxAttempts) await scheduleRetry(row, hook.url);
  }
  const pending = await listPendingDeliveries();
  for (const p of pending) schedule(p.id, p.dueAt.getTime() - Date.now());
  return pending.length;
}

// Forgets every scheduled delivery of this process (their rows stay pending for the next start to resume).
export function stopWebhookSender(): void {
  for (const timer of state.timers.values()) clearTimeout(timer);
  state.timers.clear();
  if (state.busy.size === 0) for (const resolve of state.idle.splice(0)) resolve();
}

// How long a webhook's delivery log keeps a request once it is done with (delivered or failed).
export const WEBHOOK_LOG_KEEP_MS = 30 * 24 * 3600 * 1000;

// Removes the deliveries done with before the log's keeping time; the number removed.
export function pruneWebhookLog(now = Date.now()): Promise<number> {
  return pruneDeliveries({ before: new Date(now - WEBHOOK_LOG_KEEP_MS) });
}

// The server looks for owed deliveries at start and then every minute: a worker that stopped, or a process
// that died, leaves its pending rows for whoever looks next (the claim keeps each request to one sender).
// Each look also drops what the delivery log no longer keeps.
export function startWebhookSweeper(everyMs = 60_000): void {
  const sweep = () =>
    void Promise.all([resumeWebhookDeliveries(), pruneWebhookLog()]).catch((error: Error) =>
      console.error(`gatehouse: pending webhook deliveries could not be resumed: ${error.message}`),
    );
  sweep();
  setInterval(sweep, everyMs).unref();
}
