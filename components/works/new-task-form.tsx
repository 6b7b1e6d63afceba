"use client";
// "New task" on a Work: a title, what it is about, and (optionally) its branch.
import { useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { ActionForm, inputClass } from "../ui/action-form";
import { Button } from "../ui/button";

export function NewTaskForm({ create }: { create: (state: unknown, form: FormData) => Promise<ActionResult<{ id: string }>> }) {
  const [isOpen, setOpen] = useState(false);
  if (!isOpen) return <Button variant="primary" onClick={() => setOpen(true)}>New task</Button>;
  return (
    <div className="w-full rounded-lg border border-zinc-200 bg-white p-4 shadow-sm sm:w-[32rem] dark:border-zinc-800 dark:bg-zinc-900">
      <ActionForm action={create} submitLabel="Create task" ariaLabel="New task">
        <div className="grid w-full gap-3">
          <label className="grid gap-1 text-sm font-medium">Title<input name="title" required autoFocus className={inputClass} placeholder="What is to be done" /></label>
          <label className="grid gap-1 text-sm font-medium">Description<textarea name="description" rows={3} className={inputClass} placeholder="For the agent: what done means" /></label>
          <label className="grid gap-1 text-sm font-medium">Branch <span className="font-normal text-zinc-500">(optional: derived from the key)</span><input name="branch" className={`${inputClass} font-mono`} /></label>
        </div>
      </ActionForm>
      <Button size="sm" variant="ghost" className="mt-1" onClick={() => setOpen(false)}>Cancel</Button>
    </div>
  );
}
