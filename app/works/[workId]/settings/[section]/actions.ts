"use server";
// The server-rendered sections of the Work's settings: its name and repository (General), roles and secrets,
// each change revalidating the settings layout (its header names the Work; the editor's secret names).
import { revalidatePath } from "next/cache";
import { idArg, runAction, runRowAction, type ActionResult } from "@/lib/actions/safe-action";
import { removeSecret, setSecret } from "@/lib/services/secrets";
import { removeMember, setMemberRoleByEmail } from "@/lib/services/users";
import { readWork, updateWork } from "@/lib/services/works";
import { saveWarnings } from "@/lib/services/work-repositories";

// The General section: the Work's name, repository and base branch (empty: the repository's HEAD branch),
// saved together or not at all at the version the page was read at. `warnings` as the API's save answers
// them: the repository cannot be reached (probed only when it changed), Merge will fail.
export async function saveGeneralAction(
  workId: string,
  _state: unknown,
  form: FormData,
): Promise<ActionResult<{ version: number; warnings: string[] }>> {
  return runAction(async (actor) => {
    const before = await readWork(actor, idArg(workId, "workId"));
    const baseBranch = String(form.get("baseBranch") ?? "").trim();
    const work = await updateWork(actor, before.id, {
      version: Number(form.get("version")),
      name: String(form.get("name") ?? ""),
      repoUrl: String(form.get("repoUrl") ?? ""),
      baseBranch: baseBranch || null,
    });
    revalidatePath(`/works/${work.id}`, "layout");
    const warnings = await saveWarnings(work, {
      probe: work.repoUrl !== before.repoUrl || work.baseBranch !== before.baseBranch,
    });
    return { version: work.version, warnings: warnings.map((w) => w.message) };
  });
}

export async function setRoleAction(
  workId: string,
  _state: unknown,
  form: FormData,
): Promise<ActionResult<{ email: string; role: string }>> {
  return runAction(async (actor) => {
    const email = String(form.get("email") ?? "");
    const { role } = await setMemberRoleByEmail(actor, idArg(workId, "workId"), email, {
      role: String(form.get("role") ?? ""),
    });
    revalidatePath(`/works/${workId}/settings`, "layout");
    return { email, role };
  });
}

// Bound to the Work and the member; a refusal comes back to the row (components/ui/row-action-form).
export async function removeMemberAction(workId: string, userId: string): Promise<ActionResult<null>> {
  return runRowAction(
    (actor) => removeMember(actor, idArg(workId, "workId"), idArg(userId, "userId")),
    `/works/${workId}/settings`,
    "layout",
  );
}

export async function setSecretAction(
  workId: string,
  _state: unknown,
  form: FormData,
): Promise<ActionResult<{ name: string }>> {
  return runAction(async (actor) => {
    const { name } = await setSecret(actor, idArg(workId, "workId"), String(form.get("name") ?? ""), {
      value: String(form.get("value") ?? ""),
    });
    revalidatePath(`/works/${workId}/settings`, "layout");
    return { name };
  });
}

// Bound, as above.
export async function deleteSecretAction(workId: string, name: string): Promise<ActionResult<null>> {
  return runRowAction(
    (actor) => removeSecret(actor, idArg(workId, "workId"), idArg(name, "name")),
    `/works/${workId}/settings`,
    "layout",
  );
}
