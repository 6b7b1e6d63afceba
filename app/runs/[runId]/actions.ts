"use server";
// Server Actions of runs: the next attempt, a decision on a partial run, cancel.
import { revalidatePath } from "next/cache";
import { idArg, runAction } from "@/lib/actions/safe-action";
import { cancelRun, decideRun, startNextAttempt } from "@/lib/services/runs";

export async function startNextAttemptAction(runId: string) {
  return runAction(async (actor) => {
    const { run, n } = await startNextAttempt(actor, idArg(runId, "runId"));
    revalidatePath(`/runs/${run.id}`);
    return { n };
  });
}

export async function decideRunAction(runId: string, decision: unknown) {
  return runAction(async (actor) => {
    const run = await decideRun(actor, idArg(runId, "runId"), decision);
    revalidatePath(`/runs/${run.id}`);
    revalidatePath("/");
    return { ending: run.ending, status: run.status };
  });
}

export async function cancelRunAction(runId: string) {
  return runAction(async (actor) => {
    const run = await cancelRun(actor, idArg(runId, "runId"));
    revalidatePath(`/runs/${run.id}`);
    return { ending: run.ending };
  });
}
