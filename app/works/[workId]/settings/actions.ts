"use server";
import { revalidatePath } from "next/cache";
import { idArg, runAction } from "@/lib/actions/safe-action";
import { presentWork } from "@/lib/api/present";
import { toJson } from "@/lib/api/jsonify";
import { saveWarnings } from "@/lib/services/work-repositories";
import { updateWork } from "@/lib/services/works";

// Saves a Work's checks and policy with the version the editor started from (409-style conflict otherwise);
// `warnings` as the API's save answers them (Merge will fail: the base branch is checked out there).
export async function saveWorkSettingsAction(workId: string, input: unknown) {
  return runAction(async (actor) => {
    const work = await updateWork(actor, idArg(workId, "workId"), input);
    revalidatePath(`/works/${work.id}`);
    return { ...toJson(presentWork(work)), warnings: await saveWarnings(work, { probe: false }) };
  });
}
