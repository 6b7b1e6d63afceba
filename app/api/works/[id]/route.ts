import { seesHiddenChecks } from "@/lib/services/access";
import { apiRoute } from "@/lib/api/handler";
import { presentWork } from "@/lib/api/present";
import { readWork, updateWork } from "@/lib/services/works";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: presentWork(await readWork(actor, params.id), await seesHiddenChecks(actor, params.id)),
}));

export const PATCH = apiRoute<{ id: string }>(async ({ actor, params, body }) => ({
  json: presentWork(await updateWork(actor, params.id, await body())),
}));
