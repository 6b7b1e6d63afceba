"use server";
import { redirect } from "next/navigation";
import { runAction, type ActionResult } from "@/lib/actions/safe-action";
import { createWork } from "@/lib/services/works";
import { isMissingBranchWarning, saveWarnings } from "@/lib/services/work-repositories";

// Creates a Work (admins) and opens its checks and policy, saying what the save warned about.
export async function createWorkAction(
  _state: unknown,
  form: FormData,
): Promise<ActionResult<{ id: string; repo: "unreachable" | "no-branch" | "checked-out" | null }>> {
  const result = await runAction(async (actor) => {
    const baseBranch = String(form.get("baseBranch") ?? "").trim();
    const work = await createWork(actor, {
      name: String(form.get("name") ?? ""),
      repoUrl: String(form.get("repoUrl") ?? ""),
      ...(baseBranch ? { baseBranch } : {}),
    });
    const warnings = await saveWarnings(work, { probe: true });
    const repo = warnings.some((w) => w.path === "repoUrl")
      ? "unreachable"
      : warnings.some(isMissingBranchWarning)
        ? "no-branch"
        : warnings.length > 0
          ? "checked-out"
          : null;
    return { id: work.id, repo };
  });
  // The settings page says each warning again (the server's own words, probed anew).
  if (result.data) redirect(`/works/${result.data.id}/settings${result.data.repo ? `?repo=${result.data.repo}` : ""}`);
  return result;
}
