"use client";
// The save cycle both settings editors share: a working copy of settings read at a version, saved as a
// Server Action carrying that version. A stale save comes back as a conflict to resolve (load theirs, or
// keep mine on top of their version); discard goes back to what was last read or saved.
// A save, a discard or "load theirs" may be scoped to some fields (a section of the Work's settings page):
// the other fields keep what the person typed, on top of the version now saved.
import { useEffect, useMemo, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/actions/safe-action";

// `warnings`: what the save answered beside the saved settings (the Work is saved, but Merge will fail).
export type SaveMessage = { kind: "saved" | "error"; text: string; warnings?: string[] };

// A save's answer may carry warnings (field path and message) beside the settings; they are not settings.
function splitWarnings<S>(answer: S): { saved: S; warnings: string[] } {
  const { warnings, ...saved } = answer as S & { warnings?: unknown };
  const list = Array.isArray(warnings) ? warnings : [];
  return {
    saved: saved as S,
    warnings: list.flatMap((w) => (typeof w?.message === "string" ? [w.message as string] : [])),
  };
}

type Options<S, F> = {
  initial: S;
  save: (input: unknown) => Promise<ActionResult<S>>;
  formFrom: (settings: S) => F;
  // With keys: the patch of those fields only.
  patchFrom: (form: F, keys?: readonly (keyof F & string)[]) => Record<string, unknown>;
};

// A click handler passes its event: only a list of field names scopes an action.
const scopeOf = <K>(keys: unknown): readonly K[] | undefined => (Array.isArray(keys) ? keys : undefined);

export function useVersionedSettings<S extends { version: number }, F extends object>({
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
  // A newer version read by the page (after a save elsewhere: the Work's General section raises the version
  // without touching these settings) is taken up when its settings are the ones this copy was read at, so
  // the next save here is not refused as stale against one's own change. Settings someone else changed stay
  // a conflict, shown on save.
  useEffect(() => {
    setBase((b) =>
      initial.version > b.version &&
      JSON.stringify(patchFrom(formFrom(initial))) === JSON.stringify(patchFrom(formFrom(b)))
        ? { ...b, version: initial.version }
        : b,
    );
  }, [initial, formFrom, patchFrom]);
  const savedPatch = useMemo(() => patchFrom(formFrom(base)), [base, formFrom, patchFrom]);
  const currentPatch = patchFrom(form);
  // The fields whose value differs from the saved one.
  const dirtyKeys = Object.keys(currentPatch).filter(
    (k) => JSON.stringify(currentPatch[k]) !== JSON.stringify(savedPatch[k]),
  );
  const isDirty = dirtyKeys.length > 0;

  // Takes `s` as the saved settings; the form follows it in the scoped fields (all when unscoped).
  const load = (s: S, keys?: readonly (keyof F & string)[]) => {
    setBase(s);
    const fresh = formFrom(s);
    setForm((f) => (keys ? { ...f, ...Object.fromEntries(keys.map((k) => [k, fresh[k]])) } : fresh));
  };
  const submit = (scope?: unknown) =>
    startTransition(async () => {
      const keys = scopeOf<keyof F & string>(scope);
      setMessage(null);
      const result = await save({ ...patchFrom(form, keys), version });
      if (result.error) {
        if (result.error.code === "conflict" && result.error.details?.current)
          setConflict(result.error.details.current as S);
        else setMessage({ kind: "error", text: result.error.message });
        return;
      }
      const { saved, warnings } = splitWarnings(result.data);
      load(saved, keys);
      setMessage({ kind: "saved", text: `Saved: version ${saved.version}`, warnings });
      router.refresh();
    });
  const loadTheirs = (theirs: S, scope?: unknown) => {
    load(theirs, scopeOf<keyof F & string>(scope));
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
    dirtyKeys,
    submit,
    discard: (scope?: unknown) => load(base, scopeOf<keyof F & string>(scope)),
    loadTheirs,
    keepMine,
  };
}
