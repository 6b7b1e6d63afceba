"use server";
import { revalidatePath } from "next/cache";
import { idArg, runAction, runRowAction, type ActionResult } from "@/lib/actions/safe-action";
import { createUser, updateUserByAdmin } from "@/lib/services/users";

export async function createUserAction(_state: unknown, form: FormData): Promise<ActionResult<{ email: string }>> {
  return runAction(async (actor) => {
    const user = await createUser(actor, {
      email: String(form.get("email") ?? ""),
      name: String(form.get("name") ?? "") || undefined,
      password: String(form.get("password") ?? ""),
      admin: form.get("admin") === "on",
    });
    revalidatePath("/admin/users");
    return { email: user.email };
  });
}

// Bound to the person and the new value; the refusal comes back to the row (components/ui/row-action-form).
export async function setAdminAction(userId: string, isAdmin: boolean): Promise<ActionResult<null>> {
  return runRowAction(
    (actor) => updateUserByAdmin(actor, idArg(userId, "userId"), { admin: Boolean(isAdmin) }),
    "/admin/users",
  );
}

// Disable (their sessions end, their tokens are refused) or enable again; bound, as above.
export async function setDisabledAction(userId: string, isDisabled: boolean): Promise<ActionResult<null>> {
  return runRowAction(
    (actor) => updateUserByAdmin(actor, idArg(userId, "userId"), { disabled: Boolean(isDisabled) }),
    "/admin/users",
  );
}

// A new password for someone who lost theirs; their sessions end. The form says so, and keeps the field on error.
export async function setPasswordAction(
  userId: string,
  _state: unknown,
  form: FormData,
): Promise<ActionResult<{ email: string }>> {
  return runAction(async (actor) => {
    const user = await updateUserByAdmin(actor, idArg(userId, "userId"), {
      password: String(form.get("password") ?? ""),
    });
    return { email: user.email };
  });
}
