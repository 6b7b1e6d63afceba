"use client";
// "New Work" for admins: a name and the repository (anything git clone accepts).
import type { ActionResult } from "@/lib/actions/safe-action";
import { inputClass } from "../ui/action-form";
import { DisclosureForm } from "./disclosure-form";

export function NewWorkForm({
  create,
}: {
  create: (state: unknown, form: FormData) => Promise<ActionResult<{ id: string }>>;
}) {
  return (
    <DisclosureForm label="New Work" submitLabel="Create Work" create={create}>
      <label className="grid gap-1 text-sm font-medium">
        Name
        <input name="name" required className={inputClass} placeholder="Payments API" />
      </label>
      <label className="grid gap-1 text-sm font-medium">
        Repository
        <input
          name="repoUrl"
          required
          className={`${inputClass} font-mono`}
          placeholder="https://… , file://… or a local path"
        />
      </label>
      <label className="grid gap-1 text-sm font-medium">
        Base branch{" "}
        <span className="font-normal text-zinc-500 dark:text-zinc-400">
          (optional: the repository&apos;s HEAD branch)
        </span>
        <input name="baseBranch" className={`${inputClass} font-mono`} />
      </label>
    </DisclosureForm>
  );
}
