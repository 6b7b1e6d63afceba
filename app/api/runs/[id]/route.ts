import { apiRoute } from "@/lib/api/handler";
import { jsonWithEtag } from "@/lib/api/etag";
import { presentRun } from "@/lib/api/present-run";
import { loadRunDetail } from "@/lib/services/run-detail";

export const dynamic = "force-dynamic";

// An unchanged run answers 304 to If-None-Match (its live viewers poll every second).
export const GET = apiRoute<{ id: string }>(async ({ actor, params, request }) =>
  jsonWithEtag(request, presentRun(await loadRunDetail(actor, params.id))),
);
