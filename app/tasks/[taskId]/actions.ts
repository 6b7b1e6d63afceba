"use server";
// Server Actions of the task page.
import { revalidatePath } from "next/cache";
import { runAction } from "@/lib/actions/safe-action";
import { dispatchTask } from "@/lib/services/runs";

export async function dispatchTaskAction(taskId: string) {
  return runAction(async (actor) => {
    const run = await dispatchTask(actor, String(taskId));
    revalidatePath(`/tasks/${run.taskId}`);
    return { runId: run.id, number: run.number };
  });
}
