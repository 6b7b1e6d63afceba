"use server";
// The Access and Secrets sections of the Work's settings: roles and secrets, each change revalidating the
// settings layout (the editor's secret names come from it).
import { revalidatePath } from "next/cache";
import { idArg, runAction, type ActionResult } from "@/lib/actions/safe-action";
import { removeSecret, setSecret } from "@/lib/services/secrets";
import { removeMember, setMemberRoleByEmail } from "@/lib/services/users";

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

export async function removeMemberAction(workId: string, userId: string): Promise<void> {
  await runAction(async (actor) => removeMember(actor, idArg(workId, "workId"), idArg(userId, "userId")));
  revalidatePath(`/works/${workId}/settings`, "layout");
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

export async function deleteSecretAction(workId: string, name: string): Promise<void> {
  await runAction(async (actor) => removeSecret(actor, idArg(workId, "workId"), idArg(name, "name")));
  revalidatePath(`/works/${workId}/settings`, "layout");
}
