import { apiRoute } from "@/lib/api/handler";
import { textQueryParam } from "@/lib/api/request-input";
import { searchLog } from "@/lib/services/logs";

export const dynamic = "force-dynamic";

// The lines of a log containing ?q= (case-insensitive), the first 5000 of them, and how many in all.
export const GET = apiRoute<{ id: string; n: string; checkId: string }>(async ({ actor, params, request }) => ({
  json: await searchLog(
    actor,
    params.id,
    params.n,
    params.checkId,
    textQueryParam(new URL(request.url).searchParams, "q") ?? "",
  ),
}));
