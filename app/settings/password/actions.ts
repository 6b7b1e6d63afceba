"use server";
import { cookies } from "next/headers";
import { runAction, type ActionResult } from "@/lib/actions/safe-action";
import { clientAddress } from "@/lib/auth/session-cookie";
import { SESSION_COOKIE } from "@/lib/auth/tokens";
import { AppError } from "@/lib/errors";
import { changeOwnPassword } from "@/lib/services/auth";

export async function changePasswordAction(
  _state: unknown,
  form: FormData,
): Promise<ActionResult<{ endedSessions: number }>> {
  return runAction(async (actor) => {
    const newPassword = String(form.get("newPassword") ?? "");
    if (String(form.get("newPasswordAgain") ?? "") !== newPassword)
      throw new AppError("validation", "newPasswordAgain: not the same as the new password", [
        { path: "newPasswordAgain", message: "not the same as the new password" },
      ]);
    return changeOwnPassword(
      actor,
      { currentPassword: String(form.get("currentPassword") ?? ""), newPassword },
      { address: await clientAddress(), keepSessionToken: (await cookies()).get(SESSION_COOKIE)?.value ?? null },
    );
  });
}
