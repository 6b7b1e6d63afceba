"use client";
// A token just created: shown once, with a copy button.
import { useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { TOKEN_NAME_MAX } from "@/lib/auth/schemas";
import { ActionForm, Field, inputClass } from "../ui/action-form";
import { Button } from "../ui/button";

export function NewTokenForm({
  create,
}: {
  create: (state: unknown, form: FormData) => Promise<ActionResult<{ token: string; name: string }>>;
}) {
  return (
    <ActionForm
      action={create}
      submitLabel="Create token"
      ariaLabel="New token"
      success={(data) => <NewTokenNotice token={data.token} name={data.name} />}
    >
      <Field label="Name" name="name">
        <input
          name="name"
          placeholder="e.g. CI on main"
          className={`${inputClass} w-72 max-w-full aria-[invalid=true]:border-rose-500`}
          maxLength={TOKEN_NAME_MAX}
          required
        />
      </Field>
    </ActionForm>
  );
}

function NewTokenNotice({ token, name }: { token: string; name: string }) {
  const [isCopied, setCopied] = useState(false);
  return (
    <div
      role="status"
      className={
        "rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm " +
        "dark:border-emerald-800 dark:bg-emerald-950/50"
      }
    >
      <p className="font-medium text-emerald-900 dark:text-emerald-200">
        Token “{name}” created. Copy it now: it is not shown again.
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code
          data-testid="new-token"
          className="rounded bg-white px-2 py-1 font-mono text-xs break-all dark:bg-zinc-950"
        >
          {token}
        </code>
        <Button size="sm" onClick={() => navigator.clipboard?.writeText(token).then(() => setCopied(true))}>
          {isCopied ? "Copied" : "Copy"}
        </Button>
      </div>
    </div>
  );
}
