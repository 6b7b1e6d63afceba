import { apiRoute } from "@/lib/api/handler";
import { presentRunSummary } from "@/lib/api/present-run";
import { decideRun } from "@/lib/services/runs";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ id: string }>(async ({ actor, params, body }) => ({
  json: presentRunSummary(await decideRun(actor, params.id, await body())),
}));
