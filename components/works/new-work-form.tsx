"use client";
// "New Work" for admins: a name and the repository (anything git clone accepts).
import { useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { ActionForm, inputClass } from "../ui/action-form";
import { Button } from "../ui/button";

export function NewWorkForm({ create }: { create: (state: unknown, form: FormData) => Promise<ActionResult<{ id: string }>> }) {
  const [isOpen, setOpen] = useState(false);
  if (!isOpen) return <Button variant="primary" onClick={() => setOpen(true)}>New Work</Button>;
  return (
    <div className="w-full rounded-lg border border-zinc-200 bg-white p-4 shadow-sm sm:w-[32rem] dark:border-zinc-800 dark:bg-zinc-900">
      <ActionForm action={create} submitLabel="Create Work" ariaLabel="New Work">
        <div className="grid w-full gap-3">
          <label className="grid gap-1 text-sm font-medium">Name<input name="name" required autoFocus className={inputClass} placeholder="Payments API" /></label>
          <label className="grid gap-1 text-sm font-medium">Repository<input name="repoUrl" required className={`${inputClass} font-mono`} placeholder="https://… , file://… or a local path" /></label>
          <label className="grid gap-1 text-sm font-medium">Base branch <span className="font-normal text-zinc-500">(optional: the repository&apos;s HEAD branch)</span><input name="baseBranch" className={`${inputClass} font-mono`} /></label>
        </div>
      </ActionForm>
      <Button size="sm" variant="ghost" className="mt-1" onClick={() => setOpen(false)}>Cancel</Button>
    </div>
  );
}
