"use client";
// A row's button (or buttons) posting to a Server Action, with the action's refusal said under it: a plain
// `<form action>` throws the answer away, so a refused press looked like nothing happened.
import { useActionState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { InlineError } from "./inline-error";

export function RowActionForm({
  action,
  children,
}: {
  action: (state: unknown, form: FormData) => Promise<ActionResult<unknown>>;
  children: React.ReactNode;
}) {
  const [state, formAction] = useActionState(action, null);
  return (
    <form action={formAction} className="flex flex-col items-start gap-1 sm:items-end">
      {children}
      <InlineError message={state?.error?.message ?? null} />
    </form>
  );
}
