import { apiRoute } from "@/lib/api/handler";
import { presentWork } from "@/lib/api/present";
import { createWork, listVisibleWorks } from "@/lib/services/works";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async ({ actor }) => ({
  json: { works: (await listVisibleWorks(actor)).map(presentWork) },
}));

export const POST = apiRoute(async ({ actor, body }) => ({
  status: 201,
  json: presentWork(await createWork(actor, await body())),
}));
