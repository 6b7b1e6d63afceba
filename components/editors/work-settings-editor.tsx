"use client";
// A Work's checks and policy, edited inline and validated as you type with the schema the server uses.
// Save is a Server Action carrying the version the editing started from: a stale save is refused and
// shows what the other person changed.
import { useEffect, useMemo, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/actions/safe-action";
import { ZCheckList, type Check } from "@/lib/gates/check-schema";
import { formFromCheck, freeId } from "@/lib/editors/check-form";
import { validateWorkForm, workFormFrom, workPatchFrom, type WorkForm, type WorkSettings } from "@/lib/editors/work-form";
import { Button } from "../ui/button";
import { InlineError } from "../ui/inline-error";
import { Section } from "../ui/page-parts";
import { CheckListEditor } from "./check-list-editor";
import { ConflictPanel } from "./conflict-panel";
import { GatesFilePanel } from "./gates-file-panel";
import { PolicyFields } from "./policy-fields";

type Props = { initial: WorkSettings; save: (input: unknown) => Promise<ActionResult<WorkSettings>> };

const settingsOf = (s: WorkSettings) => ({ checkDefaults: s.checkDefaults, checksPolicy: s.checksPolicy, maxGateAttempts: s.maxGateAttempts, agentCommand: s.agentCommand, agentEnvPassthrough: s.agentEnvPassthrough, budgetSec: s.budgetSec, failFast: s.failFast });

export function WorkSettingsEditor({ initial, save }: Props) {
  const router = useRouter();
  const [base, setBase] = useState(initial);
  const [version, setVersion] = useState(initial.version);
  const [form, setForm] = useState<WorkForm>(() => workFormFrom(initial));
  const [conflict, setConflict] = useState<WorkSettings | null>(null);
  const [message, setMessage] = useState<{ kind: "saved" | "error"; text: string } | null>(null);
  const [isPending, startTransition] = useTransition();
  const errors = useMemo(() => validateWorkForm(form, version), [form, version]);
  const isDirty = JSON.stringify(workPatchFrom(form)) !== JSON.stringify(workPatchFrom(workFormFrom(base))) || version !== base.version;
  const listErrors = new Map([...errors].filter(([k]) => k.startsWith("checkDefaults.")).map(([k, v]) => [k.slice("checkDefaults.".length), v]));
  const current = ZCheckList.safeParse(workPatchFrom(form).checkDefaults);

  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => isDirty && e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [isDirty]);

  const load = (s: WorkSettings) => {
    setBase(s);
    setVersion(s.version);
    setForm(workFormFrom(s));
  };
  const submit = () =>
    startTransition(async () => {
      setMessage(null);
      const result = await save({ ...workPatchFrom(form), version });
      if (result.data) {
        load(result.data);
        setMessage({ kind: "saved", text: `Saved: version ${result.data.version}` });
        router.refresh();
      } else if (result.error.code === "conflict" && result.error.details?.current) setConflict(result.error.details.current as WorkSettings);
      else setMessage({ kind: "error", text: result.error.message });
    });
  const importChecks = (checks: Check[], mode: "replace" | "append") => {
    const kept = mode === "append" ? form.checkDefaults : [];
    const taken = kept.map((f) => f.id);
    const added = checks.map((c) => {
      const id = taken.includes(c.id) ? freeId(c.id, taken) : c.id;
      taken.push(id);
      return formFromCheck({ ...c, id });
    });
    setForm({ ...form, checkDefaults: [...kept, ...added] });
  };

  return (
    <div className="space-y-8">
      <Section id="policy" title="How runs are judged">
        <PolicyFields form={form} errors={errors} onChange={(patch) => setForm({ ...form, ...patch })} />
      </Section>
      <Section id="defaults" title={`Check defaults (${form.checkDefaults.length})`} description="Every task inherits these, in this order, unless it overrides or suppresses them.">
        <CheckListEditor forms={form.checkDefaults} errors={listErrors} listError={errors.get("checkDefaults")} onChange={(checkDefaults) => setForm({ ...form, checkDefaults })} />
      </Section>
      <Section id="gates-file" title="Import or export a gates file" description="A YAML list (gates: - run: …) or a Markdown runbook (## Code Checks, ### id — name, one ```bash block each).">
        <GatesFilePanel current={current.success ? current.data : null} onImport={importChecks} />
      </Section>
      {conflict ? (
        <ConflictPanel what="Work" theirVersion={conflict.version} before={settingsOf(base)} theirs={settingsOf(conflict)} onLoadTheirs={() => { load(conflict); setConflict(null); }} onKeepMine={() => { setBase(conflict); setVersion(conflict.version); setConflict(null); }} />
      ) : null}
      <div className="sticky bottom-0 z-20 -mx-4 flex flex-wrap items-center gap-3 border-t border-zinc-200 bg-white/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:px-6 dark:border-zinc-800 dark:bg-zinc-950/95">
        <Button variant="primary" disabled={isPending || errors.size > 0 || !isDirty} onClick={submit}>{isPending ? "Saving…" : "Save changes"}</Button>
        <Button variant="ghost" disabled={isPending || !isDirty} onClick={() => load(base)}>Discard</Button>
        <span className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite" data-testid="editor-status">
          {errors.size > 0 ? `${errors.size} problem${errors.size === 1 ? "" : "s"} to fix before saving` : isDirty ? "Unsaved changes" : `Version ${version}, saved`}
        </span>
        {message?.kind === "saved" ? <span role="status" className="text-sm font-medium text-emerald-700 dark:text-emerald-400">{message.text}</span> : null}
        {message?.kind === "error" ? <InlineError message={message.text} /> : null}
      </div>
    </div>
  );
}
