import { apiRoute } from "@/lib/api/handler";
import { logResponse } from "@/lib/api/log-response";
import { locateLog } from "@/lib/services/logs";

export const dynamic = "force-dynamic";

// The full log of a check (or of the agent, as checkId "_agent"), text/plain; ?download=1 for a file.
export const GET = apiRoute<{ id: string; n: string; checkId: string }>(async ({ actor, params, request }) => {
  const log = await locateLog(actor, params.id, params.n, params.checkId);
  return logResponse(request, log, { download: new URL(request.url).searchParams.get("download") === "1" });
});
