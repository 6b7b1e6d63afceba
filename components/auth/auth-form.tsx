"use client";
// The sign-in and first-admin forms: fields with their errors next to them, and the form's message.
import { useActionState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { inputClass } from "../ui/action-form";
import { buttonClass } from "../ui/button";
import { InlineError } from "../ui/inline-error";

type Field = { name: string; label: string; type: string; autoComplete: string; hint?: string };
type AuthFormState = { result: ActionResult<unknown> | null; values: Record<string, string> };

export function AuthForm({
  action,
  fields,
  submitLabel,
  next,
}: {
  action: (state: unknown, form: FormData) => Promise<ActionResult<unknown>>;
  fields: Field[];
  submitLabel: string;
  next?: string;
}) {
  // What the person typed is put back into the fields when the answer is an error (it never leaves the
  // browser for that): not a password they signed in with, and not a new one the answer found wrong — a new
  // password refused for another field's sake (a mistyped email) stays, so fixing that field is enough.
  const [state, formAction, isPending] = useActionState(
    async (_previous: AuthFormState, form: FormData): Promise<AuthFormState> => {
      const result = await action(null, form);
      const isRefused = (name: string) => (result.error?.fieldErrors ?? []).some((e) => e.path === name);
      const kept = fields.filter(
        (f) => f.type !== "password" || (f.autoComplete === "new-password" && !isRefused(f.name)),
      );
      return { result, values: Object.fromEntries(kept.map((f) => [f.name, String(form.get(f.name) ?? "")])) };
    },
    { result: null, values: {} },
  );
  const fieldErrors = state.result?.error?.fieldErrors ?? [];
  const message = state.result?.error?.message ?? null;
  return (
    <form action={formAction} className="space-y-4" noValidate>
      {next ? <input type="hidden" name="next" value={next} /> : null}
      {fields.map((field) => {
        const error = fieldErrors.find((e) => e.path === field.name)?.message;
        return (
          <div key={field.name}>
            <label htmlFor={field.name} className="block text-sm font-medium">
              {field.label}
            </label>
            <input
              id={field.name}
              name={field.name}
              type={field.type}
              autoComplete={field.autoComplete}
              defaultValue={state.values[field.name]}
              aria-invalid={!!error}
              aria-describedby={error ? `${field.name}-error` : undefined}
              required
              className={`mt-1 w-full ${inputClass} aria-[invalid=true]:border-rose-500`}
            />
            {error ? (
              <p id={`${field.name}-error`} className="mt-1 text-xs text-rose-600 dark:text-rose-400">
                {field.label}: {error}
              </p>
            ) : field.hint ? (
              <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{field.hint}</p>
            ) : null}
          </div>
        );
      })}
      {message && fieldErrors.length === 0 ? <InlineError message={message} /> : null}
      <button type="submit" disabled={isPending} className={`w-full ${buttonClass("primary")}`}>
        {isPending ? "…" : submitLabel}
      </button>
    </form>
  );
}
