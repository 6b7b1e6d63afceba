import { seesHiddenChecks } from "@/lib/services/access";
import { apiRoute } from "@/lib/api/handler";
import { presentWork } from "@/lib/api/present";
import { createWork, listVisibleWorks } from "@/lib/services/works";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async ({ actor }) => ({
  json: {
    works: await Promise.all(
      (await listVisibleWorks(actor)).map(async (w) => presentWork(w, await seesHiddenChecks(actor, w.id))),
    ),
  },
}));

export const POST = apiRoute(async ({ actor, body }) => ({
  status: 201,
  json: presentWork(await createWork(actor, await body())),
}));
