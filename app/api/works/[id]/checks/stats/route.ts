import { apiRoute } from "@/lib/api/handler";
import { readCheckHistory } from "@/lib/services/check-history";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: { checks: await readCheckHistory(actor, params.id) },
}));
