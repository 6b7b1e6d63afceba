"use client";
// "New Work" for admins: a name and the repository (anything git clone accepts).
import type { ActionResult } from "@/lib/actions/safe-action";
import { Field, inputClass } from "../ui/action-form";
import { DisclosureForm } from "./disclosure-form";

export function NewWorkForm({
  create,
}: {
  create: (state: unknown, form: FormData) => Promise<ActionResult<{ id: string }>>;
}) {
  return (
    <DisclosureForm label="New Work" submitLabel="Create Work" create={create}>
      {/* Named fields: a refused name or repository is said beside it, and the field marked and focused. */}
      <Field label="Name" name="name">
        <input name="name" required className={inputClass} placeholder="Payments API" />
      </Field>
      <Field label="Repository" name="repoUrl">
        <input
          name="repoUrl"
          required
          className={`${inputClass} font-mono`}
          placeholder="https://… , file://… or a local path"
        />
      </Field>
      <Field label="Base branch" name="baseBranch" hint="(optional: the repository's HEAD branch)">
        <input name="baseBranch" className={`${inputClass} font-mono`} />
      </Field>
    </DisclosureForm>
  );
}
