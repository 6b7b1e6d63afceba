// A Work's webhook deliveries, for its leads: the log of one webhook, and sending a logged delivery again.
import { z } from "zod";
import type { Actor } from "../auth/actor";
import {
  findDelivery,
  listDeliveryAttempts,
  listDeliveryPage,
  type DeliveryCursor,
  type DeliveryRecord,
} from "../db/webhook-deliveries";
import { findSealedWebhooks } from "../db/works";
import { AppError, notFound } from "../errors";
import { redeliver } from "../runner/webhook-sender";
import { requireRole } from "./access";
import { parseInput } from "./validate";

// A page's end as the API hands it out (`nextBefore`) and takes it back (`?before=`): the time its last
// delivery was first written down and that delivery's id, so deliveries logged in the same millisecond
// neither repeat nor go missing across pages.
const CURSOR = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)_([\w-]{1,64})$/;
const cursorText = (c: DeliveryCursor) => `${c.at.toISOString()}_${c.deliveryId}`;

// `limit` arrives parsed as every route parses a whole-number parameter (lib/api/request-input.ts).
const ZLogQuery = z.object({
  limit: z.number().int().min(1, "at least 1").max(200, "at most 200").default(50),
  before: z
    .string()
    .refine((text) => CURSOR.test(text) && !Number.isNaN(Date.parse(text.slice(0, 24))), {
      message: "must be a nextBefore the log gave",
    })
    .transform((text): DeliveryCursor => {
      const [, at, deliveryId] = CURSOR.exec(text) ?? [];
      return { at: new Date(at), deliveryId };
    })
    .optional(),
});

async function webhookOf(actor: Actor, workId: string, webhookId: string) {
  const work = await findSealedWebhooks({ workId });
  if (!work) throw notFound("Work");
  await requireRole(actor, workId, "lead");
  const index = work.webhooks.findIndex((h) => h.id === webhookId);
  if (index < 0) throw notFound("Webhook");
  return { index, url: work.webhooks[index].url };
}

// One page of the log: `limit` deliveries (1–200, default 50), newest first by when each was first written
// down, every request of each (its retries) together, newest try first; `before` (a nextBefore) for the page
// after.
export async function readDeliveryLog(
  actor: Actor,
  workId: string,
  webhookId: string,
  query: { limit?: number; before?: string },
): Promise<{ rows: DeliveryRecord[]; nextBefore: string | null }> {
  await webhookOf(actor, workId, webhookId);
  const { limit, before } = parseInput(ZLogQuery, query);
  const page = await listDeliveryPage({ workId, webhookId, before, take: limit + 1 });
  const shown = page.slice(0, limit);
  const attempts = await listDeliveryAttempts({ workId, webhookId, deliveryIds: shown.map((d) => d.deliveryId) });
  const rows = shown.flatMap((d) => attempts.filter((a) => a.deliveryId === d.deliveryId));
  return { rows, nextBefore: page.length > limit ? cursorText(shown[shown.length - 1]) : null };
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
