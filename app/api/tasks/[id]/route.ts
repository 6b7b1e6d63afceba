import { seesHiddenChecks } from "@/lib/services/access";
import { apiRoute } from "@/lib/api/handler";
import { presentTask } from "@/lib/api/present";
import { readTask, updateTask } from "@/lib/services/tasks";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>(async ({ actor, params }) => ({
  json: await readTask(actor, params.id).then(async ({ task }) =>
    presentTask(task, await seesHiddenChecks(actor, task.workId)),
  ),
}));

// Answered as GET answers it: an engineer's save shows held-out checks as their name only.
export const PATCH = apiRoute<{ id: string }>(async ({ actor, params, body }) => {
  const task = await updateTask(actor, params.id, await body());
  return { json: presentTask(task, await seesHiddenChecks(actor, task.workId)) };
});
