import { apiRoute } from "@/lib/api/handler";
import { jsonWithEtag } from "@/lib/api/etag";
import { intQueryParam } from "@/lib/api/request-input";
import { readLogLines } from "@/lib/services/logs";

export const dynamic = "force-dynamic";

// A page of a log's lines: ?from=<line>&count=<n> (from omitted: the last lines).
export const GET = apiRoute<{ id: string; n: string; checkId: string }>(async ({ actor, params, request }) => {
  const q = new URL(request.url).searchParams;
  const page = await readLogLines(
    actor,
    params.id,
    params.n,
    params.checkId,
    intQueryParam(q, "from", { min: 0, max: 2 ** 31 - 1 }) ?? 0,
    intQueryParam(q, "count", { min: 1, max: 2000 }) ?? 500,
  );
  // A followed log that has not grown answers 304 to If-None-Match.
  return jsonWithEtag(request, page);
});
