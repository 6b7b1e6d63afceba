import { seesHiddenChecks } from "@/lib/services/access";
import { apiRoute } from "@/lib/api/handler";
import { presentTask } from "@/lib/api/present";
import { createTask, listTasksOfWork } from "@/lib/services/tasks";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: await listTasksOfWork(actor, params.id).then(async (tasks) => {
    const seesHidden = await seesHiddenChecks(actor, params.id);
    return { tasks: tasks.map((t) => presentTask(t, seesHidden)) };
  }),
}));

export const POST = apiRoute<{ id: string }>(async ({ actor, params, body }) => ({
  status: 201,
  json: presentTask(await createTask(actor, params.id, await body())),
}));
