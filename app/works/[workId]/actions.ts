"use server";
import { redirect } from "next/navigation";
import { idArg, runAction, type ActionResult } from "@/lib/actions/safe-action";
import { createTask } from "@/lib/services/tasks";

// Creates a task from the Work page and opens it.
export async function createTaskAction(
  workId: string,
  _state: unknown,
  form: FormData,
): Promise<ActionResult<{ id: string }>> {
  const result = await runAction(async (actor) => {
    const branch = String(form.get("branch") ?? "").trim();
    const lane = String(form.get("lane") ?? "");
    const task = await createTask(actor, idArg(workId, "workId"), {
      title: String(form.get("title") ?? ""),
      description: String(form.get("description") ?? ""),
      ...(branch ? { branch } : {}),
      ...(lane ? { lane } : {}),
    });
    return { id: task.id };
  });
  if (result.data) redirect(`/tasks/${result.data.id}`);
  return result;
}
