import { apiRoute } from "@/lib/api/handler";
import { presentDelivery } from "@/lib/api/present";
import { redeliverWebhook } from "@/lib/services/webhooks";

export const dynamic = "force-dynamic";

// Sends a logged delivery's body again (a new delivery, one attempt); 201 with its outcome.
export const POST = apiRoute<{ id: string; webhookId: string; deliveryId: string }>(async ({ actor, params }) => {
  const row = await redeliverWebhook(actor, params.id, params.webhookId, params.deliveryId);
  return { status: 201, json: presentDelivery(row) };
});
