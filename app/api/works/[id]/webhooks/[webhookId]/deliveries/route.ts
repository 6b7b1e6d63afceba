import { apiRoute } from "@/lib/api/handler";
import { intQueryParam, textQueryParam } from "@/lib/api/request-input";
import { presentDelivery } from "@/lib/api/present";
import { readDeliveryLog } from "@/lib/services/webhooks";

export const dynamic = "force-dynamic";

// A webhook's delivery log, newest delivery first, each with its retries (?limit=1–200 deliveries, default
// 50; ?before= the nextBefore of the page before).
export const GET = apiRoute<{ id: string; webhookId: string }>(async ({ actor, params, request }) => {
  // Read as every route reads its query: other parameters (a cache-buster) are ignored, an empty one is absent.
  const q = new URL(request.url).searchParams;
  const query = {
    limit: intQueryParam(q, "limit", { min: 1, max: 200 }),
    before: textQueryParam(q, "before") || undefined,
  };
  const { rows, nextBefore } = await readDeliveryLog(actor, params.id, params.webhookId, query);
  return { json: { deliveries: rows.map(presentDelivery), nextBefore } };
});
