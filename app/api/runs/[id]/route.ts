import { apiRoute } from "@/lib/api/handler";
import { presentRun } from "@/lib/api/present-run";
import { loadRunDetail } from "@/lib/services/run-detail";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: presentRun(await loadRunDetail(actor, params.id)),
}));
