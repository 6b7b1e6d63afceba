import { apiRoute } from "@/lib/api/handler";
import { presentDelivery } from "@/lib/api/present";
import { readDeliveryLog } from "@/lib/services/webhooks";

export const dynamic = "force-dynamic";

// A webhook's delivery log, newest first (?limit=1–200, default 50).
export const GET = apiRoute<{ id: string; webhookId: string }>(async ({ actor, params, request }) => {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const rows = await readDeliveryLog(actor, params.id, params.webhookId, query);
  return { json: { deliveries: rows.map(presentDelivery) } };
});
