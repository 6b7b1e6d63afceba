"use server";
// Signing in and out, and the first-run admin. Thin: the services do the checking and the slowing down.
import { redirect } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { clearSessionCookie, clientAddress, setSessionCookie } from "@/lib/auth/session-cookie";
import { createFirstAdmin, signIn, signOut } from "@/lib/services/auth";
import type { FieldIssue } from "@/lib/gates/field-issues";
import { safeNext } from "@/lib/auth/safe-next";

export type FormState = { message: string | null; fieldErrors: FieldIssue[]; values?: Record<string, string> };

export async function signInAction(_state: FormState, form: FormData): Promise<FormState> {
  const input = { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") };
  try {
    const { token, expiresAt } = await signIn(input, await clientAddress());
    await setSessionCookie(token, expiresAt);
  } catch (error) {
    if (isAppError(error)) return { message: error.message, fieldErrors: error.issues, values: { email: input.email } };
    throw error;
  }
  redirect(safeNext(form.get("next")));
}

export async function createFirstAdminAction(_state: FormState, form: FormData): Promise<FormState> {
  const input = {
    email: String(form.get("email") ?? ""),
    name: String(form.get("name") ?? ""),
    password: String(form.get("password") ?? ""),
  };
  try {
    await createFirstAdmin(input);
    const { token, expiresAt } = await signIn({ email: input.email, password: input.password }, await clientAddress());
    await setSessionCookie(token, expiresAt);
  } catch (error) {
    if (isAppError(error))
      return { message: error.message, fieldErrors: error.issues, values: { email: input.email, name: input.name } };
    throw error;
  }
  redirect("/");
}

export async function signOutAction(): Promise<void> {
  const token = await clearSessionCookie();
  if (token) await signOut(token);
  redirect("/signin");
}
