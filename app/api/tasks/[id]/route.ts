import { apiRoute } from "@/lib/api/handler";
import { presentTask } from "@/lib/api/present";
import { readTask, updateTask } from "@/lib/services/tasks";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: presentTask((await readTask(actor, params.id)).task),
}));

export const PATCH = apiRoute<{ id: string }>(async ({ actor, params, body }) => ({
  json: presentTask(await updateTask(actor, params.id, await body())),
}));
