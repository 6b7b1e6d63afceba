"use client";
// A "New …" button that opens into a small create form (posting to a Server Action) with a Cancel.
import { useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { ActionForm } from "../ui/action-form";
import { Button } from "../ui/button";
import { Card } from "../ui/page-parts";

type Props = {
  // The button's text, and the form's accessible name.
  label: string;
  submitLabel: string;
  create: (state: unknown, form: FormData) => Promise<ActionResult<{ id: string }>>;
  children: React.ReactNode;
};

export function DisclosureForm({ label, submitLabel, create, children }: Props) {
  const [isOpen, setOpen] = useState(false);
  if (!isOpen) return <Button variant="primary" onClick={() => setOpen(true)}>{label}</Button>;
  return (
    <Card className="w-full p-4 sm:w-[32rem]">
      <ActionForm action={create} submitLabel={submitLabel} ariaLabel={label}>
        <div className="grid w-full gap-3">{children}</div>
      </ActionForm>
      <Button size="sm" variant="ghost" className="mt-1" onClick={() => setOpen(false)}>Cancel</Button>
    </Card>
  );
}
