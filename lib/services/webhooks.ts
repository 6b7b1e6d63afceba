// A Work's webhook deliveries, for its leads: the log of one webhook, and sending a logged delivery again.
import { z } from "zod";
import type { Actor } from "../auth/actor";
import { findDelivery, listDeliveries, type DeliveryRecord } from "../db/webhook-deliveries";
import { findSealedWebhooks } from "../db/works";
import { AppError, notFound } from "../errors";
import { redeliver } from "../runner/webhook-sender";
import { requireRole } from "./access";
import { parseInput } from "./validate";

const ZLogQuery = z.strictObject({
  limit: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "at least 1")
    .max(200, "at most 200")
    .default(50),
});

async function webhookOf(actor: Actor, workId: string, webhookId: string) {
  const work = await findSealedWebhooks({ workId });
  if (!work) throw notFound("Work");
  await requireRole(actor, workId, "lead");
  const index = work.webhooks.findIndex((h) => h.id === webhookId);
  if (index < 0) throw notFound("Webhook");
  return { index, url: work.webhooks[index].url };
}

// Newest first; `query` is the request's search parameters (limit: 1–200, default 50).
export async function readDeliveryLog(
  actor: Actor,
  workId: string,
  webhookId: string,
  query: Record<string, string>,
): Promise<DeliveryRecord[]> {
  const { limit } = parseInput(ZLogQuery, query);
  await webhookOf(actor, workId, webhookId);
  return listDeliveries({ workId, webhookId, take: limit });
}

// The logged body, sent once more as a new delivery to the webhook's URL now; answers when it has an outcome.
export async function redeliverWebhook(
  actor: Actor,
  workId: string,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryRecord> {
  const { url } = await webhookOf(actor, workId, webhookId);
  const row = await findDelivery({ id: deliveryId });
  if (!row || row.workId !== workId || row.webhookId !== webhookId) throw notFound("Delivery");
  if (row.state === "pending" || row.state === "sending")
    throw new AppError("conflict", "this delivery has not been sent yet; redeliver one that has an outcome");
  return redeliver(row, url);
}
