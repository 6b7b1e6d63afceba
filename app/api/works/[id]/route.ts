import { seesHiddenChecks } from "@/lib/services/access";
import { apiRoute } from "@/lib/api/handler";
import { presentWork } from "@/lib/api/present";
import { readWork, updateWork } from "@/lib/services/works";
import { repositoryWarnings } from "@/lib/services/work-repositories";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: presentWork(await readWork(actor, params.id), await seesHiddenChecks(actor, params.id)),
}));

// `warnings` when the body sets repoUrl and that repository cannot be reached now (the change is saved).
export const PATCH = apiRoute<{ id: string }>(async ({ actor, params, body }) => {
  const input = await body();
  const work = await updateWork(actor, params.id, input);
  const setsRepo = typeof input === "object" && input !== null && "repoUrl" in input;
  return { json: { ...presentWork(work), warnings: setsRepo ? await repositoryWarnings(work.repoUrl) : [] } };
});
