"use server";
// Server Actions of the task page.
import { revalidatePath } from "next/cache";
import { idArg, runAction } from "@/lib/actions/safe-action";
import { dispatchTask } from "@/lib/services/runs";
import { updateTask } from "@/lib/services/tasks";
import { mergeTask } from "@/lib/services/merge";

export async function dispatchTaskAction(taskId: string) {
  return runAction(async (actor) => {
    const run = await dispatchTask(actor, idArg(taskId, "taskId"));
    revalidatePath(`/tasks/${run.taskId}`);
    return { runId: run.id, number: run.number };
  });
}

// Saves a task's title, description, overrides, attempt budget, agent command and lane with the version the
// editing started from.
export async function saveTaskOverridesAction(taskId: string, input: unknown) {
  return runAction(async (actor) => {
    const task = await updateTask(actor, idArg(taskId, "taskId"), input);
    revalidatePath(`/tasks/${task.id}`, "layout");
    return {
      title: task.title,
      description: task.description,
      acceptanceChecks: task.acceptanceChecks,
      maxGateAttempts: task.maxGateAttempts,
      agentCommand: task.agentCommand,
      lane: task.lane,
      version: task.version,
    };
  });
}

// Merges the task's branch into the base branch (a refusal comes back as the error, with its reason).
export async function mergeTaskAction(taskId: string) {
  return runAction(async (actor) => {
    const id = idArg(taskId, "taskId");
    const merged = await mergeTask(actor, id);
    revalidatePath(`/tasks/${id}`);
    return { commit: merged.commit, base: merged.base };
  });
}
