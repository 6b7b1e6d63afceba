"use client";
// Changing one's own password: the current one, the new one twice. The answer says how many other browsers
// were signed out.
import type { ActionResult } from "@/lib/actions/safe-action";
import { NEW_PASSWORD_RULE } from "@/lib/auth/schemas";
import { ActionForm, Field, inputClass } from "../ui/action-form";

const FIELDS = [
  { name: "currentPassword", label: "Current password", autoComplete: "current-password" },
  { name: "newPassword", label: "New password", autoComplete: "new-password" },
  { name: "newPasswordAgain", label: "New password again", autoComplete: "new-password" },
] as const;

export function ChangePasswordForm({
  change,
}: {
  change: (state: unknown, form: FormData) => Promise<ActionResult<{ endedSessions: number }>>;
}) {
  return (
    <ActionForm
      action={change}
      submitLabel="Change password"
      ariaLabel="Change your password"
      success={({ endedSessions }) => (
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
          Password changed.{" "}
          {endedSessions === 0
            ? "No other browser was signed in."
            : `${endedSessions} other ${endedSessions === 1 ? "browser was" : "browsers were"} signed out.`}
        </p>
      )}
    >
      <div className="flex w-full flex-col gap-3">
        {FIELDS.map((f) => (
          <Field key={f.name} label={f.label} name={f.name}>
            <input
              name={f.name}
              type="password"
              autoComplete={f.autoComplete}
              className={`${inputClass} w-72 max-w-full aria-[invalid=true]:border-rose-500`}
              required
            />
          </Field>
        ))}
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{NEW_PASSWORD_RULE}</p>
      </div>
    </ActionForm>
  );
}
