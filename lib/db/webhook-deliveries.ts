// Webhook deliveries: one row per request (or per request still to be made: pending), one query per function.
import type { WebhookEvent } from "../gates/webhooks";
import { getDb, type DbOrTx } from "./client";
import type { WebhookDelivery } from "./models";

type DeliveryState = "pending" | "sending" | "delivered" | "failed";
export type DeliveryRecord = Omit<WebhookDelivery, "state" | "event"> & { state: DeliveryState; event: WebhookEvent };
const asRecord = (row: WebhookDelivery) => row as DeliveryRecord;

export type NewDelivery = {
  workId: string;
  webhookId: string;
  webhookIndex: number;
  url: string;
  event: WebhookEvent;
  runId: string | null;
  deliveryId: string;
  // Set on a redelivery (and its retries): the event's first delivery.
  redeliveryOf?: string | null;
  attempt: number;
  maxAttempts: number;
  body: string;
  dueAt: Date;
};

export async function insertDelivery(opts: { data: NewDelivery; db?: DbOrTx }): Promise<DeliveryRecord> {
  return asRecord(await (opts.db ?? getDb()).webhookDelivery.create({ data: { ...opts.data, state: "pending" } }));
}

// Moves a pending delivery to sending; false when another process (or an earlier timer) took it.
export async function claimDelivery(opts: { id: string; db?: DbOrTx }): Promise<boolean> {
  const result = await (opts.db ?? getDb()).webhookDelivery.updateMany({
    where: { id: opts.id, state: "pending" },
    data: { state: "sending", sentAt: new Date() },
  });
  return result.count === 1;
}

export async function recordDeliveryOutcome(opts: {
  id: string;
  outcome: { state: "delivered" | "failed"; statusCode: number | null; error: string | null; durationMs: number };
  db?: DbOrTx;
}): Promise<void> {
  await (opts.db ?? getDb()).webhookDelivery.update({
    where: { id: opts.id },
    data: opts.outcome,
    select: { id: true },
  });
}

export async function findDelivery(opts: { id: string; db?: DbOrTx }): Promise<DeliveryRecord | null> {
  const row = await (opts.db ?? getDb()).webhookDelivery.findUnique({ where: { id: opts.id } });
  return row && asRecord(row);
}

// Every request logged for a Work's webhooks, newest first, as written (the sender's tests read it; the
// API's log is a webhook's, a page of deliveries at a time: listDeliveryPage).
export async function listDeliveries(opts: { workId: string; take: number; db?: DbOrTx }): Promise<DeliveryRecord[]> {
  const rows = await (opts.db ?? getDb()).webhookDelivery.findMany({
    where: { workId: opts.workId },
    orderBy: [{ createdAt: "desc" }, { attempt: "desc" }],
    take: opts.take,
  });
  return rows.map(asRecord);
}

// Where a page of a webhook's log ends: the last delivery on it (an event and its retries) and when its first
// request was written down. The next page holds the deliveries written down before it.
export type DeliveryCursor = { at: Date; deliveryId: string };

// One page of a webhook's deliveries, newest first by when each was first written down (ties: by id): each
// delivery's id and that time, `take` of them at most, all before `before` when given. A delivery is its first
// request (attempt 1; a redelivery starts again at 1): the page is read down the (workId, webhookId, createdAt)
// index and stops after `take` of them, where grouping every request of the 30-day log by delivery read the
// whole log for each page, every 2 s while a try is pending. Retries come within a minute of their first
// try, so the 30-day sweep never leaves a delivery without its first request while its retries stay.
export async function listDeliveryPage(opts: {
  workId: string;
  webhookId: string;
  take: number;
  before?: DeliveryCursor;
  db?: DbOrTx;
}): Promise<DeliveryCursor[]> {
  const { before } = opts;
  const firsts = await (opts.db ?? getDb()).webhookDelivery.findMany({
    where: {
      workId: opts.workId,
      webhookId: opts.webhookId,
      attempt: 1,
      ...(before
        ? {
            OR: [{ createdAt: { lt: before.at } }, { createdAt: before.at, deliveryId: { lt: before.deliveryId } }],
          }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { deliveryId: "desc" }],
    take: opts.take,
    select: { deliveryId: true, createdAt: true },
  });
  return firsts.map((f) => ({ deliveryId: f.deliveryId, at: f.createdAt }));
}

// Every request of the deliveries named (an event's first try and its retries), newest try first.
export async function listDeliveryAttempts(opts: {
  workId: string;
  webhookId: string;
  deliveryIds: string[];
  db?: DbOrTx;
}): Promise<DeliveryRecord[]> {
  if (opts.deliveryIds.length === 0) return [];
  const rows = await (opts.db ?? getDb()).webhookDelivery.findMany({
    where: { workId: opts.workId, webhookId: opts.webhookId, deliveryId: { in: opts.deliveryIds } },
    orderBy: [{ attempt: "desc" }, { createdAt: "desc" }],
  });
  return rows.map(asRecord);
}

export async function listPendingDeliveries(opts: { db?: DbOrTx } = {}): Promise<{ id: string; dueAt: Date }[]> {
  return (opts.db ?? getDb()).webhookDelivery.findMany({
    where: { state: "pending" },
    orderBy: { dueAt: "asc" },
    select: { id: true, dueAt: true },
  });
}

// Requests a stopped process left in flight (sent before `before`): failed, each returned so its retry can be
// scheduled. A live process's request ends long before (its timeout), so this never takes one of those.
export async function failAbandonedDeliveries(opts: { before: Date; db?: DbOrTx }): Promise<DeliveryRecord[]> {
  const db = opts.db ?? getDb();
  const rows = await db.webhookDelivery.findMany({ where: { state: "sending", sentAt: { lt: opts.before } } });
  const failed: DeliveryRecord[] = [];
  for (const row of rows) {
    const moved = await db.webhookDelivery.updateMany({
      where: { id: row.id, state: "sending" },
      data: { state: "failed", error: "the server stopped before the receiver answered" },
    });
    if (moved.count === 1) failed.push(asRecord(row));
  }
  return failed;
}

// Deliveries done with (delivered or failed) before `before` are removed; pending and in-flight ones stay.
export async function pruneDeliveries(opts: { before: Date; db?: DbOrTx }): Promise<number> {
  const removed = await (opts.db ?? getDb()).webhookDelivery.deleteMany({
    where: { createdAt: { lt: opts.before }, state: { in: ["delivered", "failed"] } },
  });
  return removed.count;
}
