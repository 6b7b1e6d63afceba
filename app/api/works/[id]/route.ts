import { seesHiddenChecks } from "@/lib/services/access";
import { apiRoute } from "@/lib/api/handler";
import { presentWork } from "@/lib/api/present";
import { readWork, updateWork } from "@/lib/services/works";
import { saveWarnings } from "@/lib/services/work-repositories";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: presentWork(await readWork(actor, params.id), await seesHiddenChecks(actor, params.id)),
}));

// `warnings` (the change is saved): the repository cannot be reached now or has no such base branch (when the
// body sets repoUrl or baseBranch), or the base branch is checked out in it, so Merge will fail.
export const PATCH = apiRoute<{ id: string }>(async ({ actor, params, body }) => {
  const input = await body();
  const work = await updateWork(actor, params.id, input);
  const probe = typeof input === "object" && input !== null && ("repoUrl" in input || "baseBranch" in input);
  return { json: { ...presentWork(work), warnings: await saveWarnings(work, { probe }) } };
});
