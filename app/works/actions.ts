"use server";
import { redirect } from "next/navigation";
import { runAction, type ActionResult } from "@/lib/actions/safe-action";
import { createWork } from "@/lib/services/works";
import { probeRepository } from "@/lib/services/work-repositories";

// Creates a Work (admins) and opens its checks and policy.
export async function createWorkAction(
  _state: unknown,
  form: FormData,
): Promise<ActionResult<{ id: string; isUnreachable: boolean }>> {
  const result = await runAction(async (actor) => {
    const baseBranch = String(form.get("baseBranch") ?? "").trim();
    const work = await createWork(actor, {
      name: String(form.get("name") ?? ""),
      repoUrl: String(form.get("repoUrl") ?? ""),
      ...(baseBranch ? { baseBranch } : {}),
    });
    return { id: work.id, isUnreachable: (await probeRepository(work.repoUrl)) !== null };
  });
  if (result.data) redirect(`/works/${result.data.id}/settings${result.data.isUnreachable ? "?repo=unreachable" : ""}`);
  return result;
}
