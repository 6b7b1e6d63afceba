import { apiRoute } from "@/lib/api/handler";
import { textWithEtag } from "@/lib/api/etag";
import { runJsonFor } from "@/lib/api/run-json-cache";

export const dynamic = "force-dynamic";

// An unchanged run answers 304 to If-None-Match (its live viewers poll every second); the JSON is built
// once for all its viewers who see it alike (lib/api/run-json.ts).
export const GET = apiRoute<{ id: string }>(async ({ actor, params, request }) =>
  textWithEtag(request, await runJsonFor(actor, params.id)),
);
