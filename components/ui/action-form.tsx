"use client";
// A small form posting to a Server Action that answers { data } or { error }; errors are shown with the
// field they belong to, success with an optional message. Fields are plain inputs given as children.
import { startTransition, useActionState, useEffect, useRef } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { buttonClass, type ButtonVariant } from "./button";
import { InlineError } from "./inline-error";

type Props<T> = {
  action: (state: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;
  submitLabel: string;
  variant?: ButtonVariant;
  children?: React.ReactNode;
  className?: string;
  // From client components: render the answer. From server components (functions cannot cross to the
  // client): a text where {field} is replaced by that field of the answer.
  success?: (data: T) => React.ReactNode;
  successText?: string;
  ariaLabel?: string;
  // Shown beside the submit button (a Cancel, say).
  besideSubmit?: React.ReactNode;
};

export function ActionForm<T>({
  action,
  submitLabel,
  variant = "primary",
  children,
  className = "",
  success,
  successText,
  ariaLabel,
  besideSubmit,
}: Props<T>) {
  const [state, formAction, isPending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state?.data !== undefined) form.current?.reset();
  }, [state]);
  const fieldErrors = state?.error?.fieldErrors ?? [];
  return (
    <form
      ref={form}
      aria-label={ariaLabel}
      className={className}
      // Submitted by hand so a refused form keeps what was typed (a form action would clear it).
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        startTransition(() => formAction(data));
      }}
    >
      <div className="flex flex-wrap items-end gap-2">
        {children}
        <button type="submit" disabled={isPending} className={buttonClass(variant)}>
          {isPending ? "…" : submitLabel}
        </button>
        {besideSubmit}
      </div>
      <div className="mt-2 space-y-1">
        {fieldErrors.length > 0 ? (
          <ul role="alert" className="text-sm text-rose-700 dark:text-rose-300">
            {fieldErrors.map((e) => (
              <li key={e.path + e.message}>
                {e.path ? `${e.path}: ` : ""}
                {e.message}
              </li>
            ))}
          </ul>
        ) : (
          <InlineError message={state?.error?.message ?? null} />
        )}
        {state?.data !== undefined && success ? success(state.data) : null}
        {state?.data !== undefined && successText ? (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
            {successText.replace(/\{(\w+)\}/g, (_m, key: string) =>
              String((state.data as Record<string, unknown>)[key] ?? ""),
            )}
          </p>
        ) : null}
      </div>
    </form>
  );
}

// The input classes live in ./input-classes.ts: a constant exported from this client module reaches a
// server component as a client reference (its text a function's), not as the string.
export { inputBaseClass, inputBorderClass, inputClass } from "./input-classes";

// A label around its control: every caller passes the one input or select it names as children.
export function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child each caller nests
    <label className="flex flex-col gap-1 text-sm font-medium">
      {label}
      {children}
    </label>
  );
}
