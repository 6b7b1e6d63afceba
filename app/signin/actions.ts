"use server";
// Signing in and out, and the first-run admin. Thin: the services do the checking and the slowing down.
import { redirect } from "next/navigation";
import { runPublicAction, type ActionResult } from "@/lib/actions/safe-action";
import { clearSessionCookie, clientAddress, setSessionCookie } from "@/lib/auth/session-cookie";
import { safeNext } from "@/lib/auth/safe-next";
import { createFirstAdmin, signIn, signOut } from "@/lib/services/auth";

// Success never returns: it redirects into the app.
export async function signInAction(_state: unknown, form: FormData): Promise<ActionResult<never>> {
  const input = { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") };
  return runPublicAction(async () => {
    const { token, expiresAt } = await signIn(input, await clientAddress());
    await setSessionCookie(token, expiresAt);
    redirect(safeNext(form.get("next")));
  });
}

export async function createFirstAdminAction(_state: unknown, form: FormData): Promise<ActionResult<never>> {
  const input = {
    email: String(form.get("email") ?? ""),
    name: String(form.get("name") ?? ""),
    password: String(form.get("password") ?? ""),
  };
  return runPublicAction(async () => {
    await createFirstAdmin(input);
    const { token, expiresAt } = await signIn({ email: input.email, password: input.password }, await clientAddress());
    await setSessionCookie(token, expiresAt);
    redirect("/");
  });
}

// The cookie is cleared first, so the person is signed out here even if ending the session fails.
export async function signOutAction(): Promise<void> {
  await runPublicAction(async () => {
    const token = await clearSessionCookie();
    if (token) await signOut(token);
  });
  redirect("/signin");
}
