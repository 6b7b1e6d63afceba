"use client";
// The save cycle both settings editors share: a working copy of settings read at a version, saved as a
// Server Action carrying that version. A stale save comes back as a conflict to resolve (load theirs, or
// keep mine on top of their version); discard goes back to what was last read or saved.
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/actions/safe-action";

export type SaveMessage = { kind: "saved" | "error"; text: string };

type Options<S, F> = {
  initial: S;
  save: (input: unknown) => Promise<ActionResult<S>>;
  formFrom: (settings: S) => F;
  patchFrom: (form: F) => Record<string, unknown>;
};

export function useVersionedSettings<S extends { version: number }, F>({ initial, save, formFrom, patchFrom }: Options<S, F>) {
  const router = useRouter();
  const [base, setBase] = useState(initial);
  const [version, setVersion] = useState(initial.version);
  const [form, setForm] = useState<F>(() => formFrom(initial));
  const [conflict, setConflict] = useState<S | null>(null);
  const [message, setMessage] = useState<SaveMessage | null>(null);
  const [isPending, startTransition] = useTransition();
  const isDirty = JSON.stringify(patchFrom(form)) !== JSON.stringify(patchFrom(formFrom(base))) || version !== base.version;

  const load = (s: S) => {
    setBase(s);
    setVersion(s.version);
    setForm(formFrom(s));
  };
  const submit = () =>
    startTransition(async () => {
      setMessage(null);
      const result = await save({ ...patchFrom(form), version });
      if (result.error) {
        if (result.error.code === "conflict" && result.error.details?.current) setConflict(result.error.details.current as S);
        else setMessage({ kind: "error", text: result.error.message });
        return;
      }
      load(result.data);
      setMessage({ kind: "saved", text: `Saved: version ${result.data.version}` });
      router.refresh();
    });
  const loadTheirs = (theirs: S) => {
    load(theirs);
    setConflict(null);
  };
  const keepMine = (theirs: S) => {
    setBase(theirs);
    setVersion(theirs.version);
    setConflict(null);
  };

  return { base, version, form, setForm, conflict, message, isPending, isDirty, submit, discard: () => load(base), loadTheirs, keepMine };
}
