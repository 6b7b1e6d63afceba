import { seesHiddenChecks } from "@/lib/services/access";
import { apiRoute } from "@/lib/api/handler";
import { presentWork } from "@/lib/api/present";
import { createWork, listVisibleWorks } from "@/lib/services/works";
import { saveWarnings } from "@/lib/services/work-repositories";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async ({ actor }) => ({
  json: {
    works: await Promise.all(
      (await listVisibleWorks(actor)).map(async (w) => presentWork(w, await seesHiddenChecks(actor, w.id))),
    ),
  },
}));

// `warnings`: the repository cannot be reached now (the Work is saved; its runs would end inconclusive), or
// its base branch is checked out there (Merge will fail).
export const POST = apiRoute(async ({ actor, body }) => {
  const work = await createWork(actor, await body());
  return { status: 201, json: { ...presentWork(work), warnings: await saveWarnings(work, { probe: true }) } };
});
