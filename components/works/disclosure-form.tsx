"use client";
// A "New …" button that opens a small create form (posting to a Server Action): in a panel over the page
// beneath the button on wider screens; on a phone in the page's flow under the button, the whole width
// (over the page there, it hid the heading and the button itself). Cancel, Escape or the button again
// closes it.
import { useEffect, useRef, useState } from "react";
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
  const fields = useRef<HTMLDivElement>(null);
  // Opening moves focus to the first field, where the person will type.
  useEffect(() => {
    if (isOpen) fields.current?.querySelector<HTMLElement>("input, textarea, select")?.focus();
  }, [isOpen]);
  return (
    <div className={isOpen ? "relative w-full sm:w-auto" : "relative"}>
      <Button variant="primary" aria-expanded={isOpen} onClick={() => setOpen(!isOpen)}>
        {label}
      </Button>
      {isOpen ? (
        <Card
          className={
            "mt-3 w-full p-4 text-left shadow-lg sm:absolute sm:right-0 sm:top-full sm:z-20 sm:mt-2 " + "sm:w-[32rem]"
          }
          onKeyDown={(e) => {
            if (e.key === "Escape") setOpen(false);
          }}
        >
          <ActionForm
            action={create}
            submitLabel={submitLabel}
            ariaLabel={label}
            besideSubmit={
              <Button variant="ghost" onClick={() => setOpen(false)}>
                Cancel
              </Button>
            }
          >
            <div ref={fields} className="grid w-full gap-3">
              {children}
            </div>
          </ActionForm>
        </Card>
      ) : null}
    </div>
  );
}
