"use client";
// The save cycle both settings editors share: a working copy of settings read at a version, saved as a
// Server Action carrying that version. A stale save comes back as a conflict to resolve (load theirs, or
// keep mine on top of their version); discard goes back to what was last read or saved.
import { useMemo, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/actions/safe-action";

export type SaveMessage = { kind: "saved" | "error"; text: string };

type Options<S, F> = {
  initial: S;
  save: (input: unknown) => Promise<ActionResult<S>>;
  formFrom: (settings: S) => F;
  patchFrom: (form: F) => Record<string, unknown>;
};

export function useVersionedSettings<S extends { version: number }, F>({
  initial,
  save,
  formFrom,
  patchFrom,
}: Options<S, F>) {
  const router = useRouter();
  // The settings last read or saved; a save carries their version (after "keep mine", theirs).
  const [base, setBase] = useState(initial);
  const version = base.version;
  const [form, setForm] = useState<F>(() => formFrom(initial));
  const [conflict, setConflict] = useState<S | null>(null);
  const [message, setMessage] = useState<SaveMessage | null>(null);
  const [isPending, startTransition] = useTransition();
  const savedPatch = useMemo(() => JSON.stringify(patchFrom(formFrom(base))), [base, formFrom, patchFrom]);
  const isDirty = JSON.stringify(patchFrom(form)) !== savedPatch;

  const load = (s: S) => {
    setBase(s);
    setForm(formFrom(s));
  };
  const submit = () =>
    startTransition(async () => {
      setMessage(null);
      const result = await save({ ...patchFrom(form), version });
      if (result.error) {
        if (result.error.code === "conflict" && result.error.details?.current)
          setConflict(result.error.details.current as S);
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
    setConflict(null);
  };

  return {
    base,
    version,
    form,
    setForm,
    conflict,
    message,
    isPending,
    isDirty,
    submit,
    discard: () => load(base),
    loadTheirs,
    keepMine,
  };
}
