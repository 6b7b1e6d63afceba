import { apiRoute } from "@/lib/api/handler";
import { presentRunSummary } from "@/lib/api/present-run";
import { cancelRun } from "@/lib/services/runs";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: presentRunSummary(await cancelRun(actor, params.id)),
}));
