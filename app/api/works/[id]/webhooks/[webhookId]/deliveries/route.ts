import { apiRoute } from "@/lib/api/handler";
import { presentDelivery } from "@/lib/api/present";
import { readDeliveryLog } from "@/lib/services/webhooks";

export const dynamic = "force-dynamic";

// A webhook's delivery log, newest delivery first, each with its retries (?limit=1–200 deliveries, default
// 50; ?before= the nextBefore of the page before).
export const GET = apiRoute<{ id: string; webhookId: string }>(async ({ actor, params, request }) => {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const { rows, nextBefore } = await readDeliveryLog(actor, params.id, params.webhookId, query);
  return { json: { deliveries: rows.map(presentDelivery), nextBefore } };
});
