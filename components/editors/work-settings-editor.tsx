"use client";
// A Work's checks and policy, edited inline and validated as you type with the schema the server uses.
// Save is a Server Action carrying the version the editing started from: a stale save is refused and
// shows what the other person changed.
import { useEffect, useMemo } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { ZCheckList, type Check } from "@/lib/gates/check-schema";
import { ZMergePolicy } from "@/lib/gates/merge-policy";
import { checkFromForm, errorsByField, formFromCheck, freeId } from "@/lib/editors/check-form";
import { ZCheckSourceList } from "@/lib/gates/check-sources";
import {
  checkSourcesFrom,
  proofPatchFrom,
  validateWorkForm,
  workFormFrom,
  workPatchFrom,
  ZProofOfWork,
  type WorkSettings,
} from "@/lib/editors/work-form";
import { pickSettings } from "@/lib/gates/work-settings";
import { Section } from "../ui/page-parts";
import { CheckListEditor } from "./check-list-editor";
import { CheckSourcesFields } from "./check-sources-fields";
import { ConflictPanel } from "./conflict-panel";
import { GatesFilePanel } from "./gates-file-panel";
import { PolicyFields } from "./policy-fields";
import { MergeFields } from "./merge-fields";
import { ProfileFields } from "./profile-fields";
import { ProofFields } from "./proof-fields";
import { ResultsDirField } from "./results-dir-field";
import { SaveBar } from "./save-bar";
import { useVersionedSettings } from "./use-versioned-settings";

type Props = {
  initial: WorkSettings;
  // The Work's secrets' names (a check source's credential is one of them).
  secretNames: readonly string[];
  save: (input: unknown) => Promise<ActionResult<WorkSettings>>;
};

const settingsOf = (s: WorkSettings) => pickSettings(s);

export function WorkSettingsEditor({ initial, secretNames, save }: Props) {
  const editor = useVersionedSettings({ initial, save, formFrom: workFormFrom, patchFrom: workPatchFrom });
  const { form, setForm, version, conflict, isDirty } = editor;
  const errors = useMemo(() => validateWorkForm(form, version, secretNames), [form, version, secretNames]);
  const listErrors = errorsByField(errors, "checkDefaults");
  // For the gates-file export: only re-validated when the checks changed, not on every keystroke elsewhere.
  const current = useMemo(() => ZCheckList.safeParse(form.checkDefaults.map(checkFromForm)), [form.checkDefaults]);
  const proofNow = useMemo(() => ZProofOfWork.safeParse(proofPatchFrom(form)), [form]);
  const sourcesNow = useMemo(
    () => ZCheckSourceList.safeParse(checkSourcesFrom(form.checkSources)),
    [form.checkSources],
  );
  const mergeNow = useMemo(() => ZMergePolicy.safeParse(form.mergePolicy), [form.mergePolicy]);

  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => isDirty && e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [isDirty]);

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
      <Section
        id="proof"
        title="Proof"
        description="What makes a green gate mean something: tests added, the gate's own files left alone, checks that fail without the change."
      >
        <ProofFields form={form} errors={errors} onChange={(patch) => setForm({ ...form, ...patch })} />
      </Section>
      <Section id="merge" title="Merge" description="How an accepted task lands on the base branch.">
        <MergeFields
          value={form.mergePolicy}
          errors={errors}
          onChange={(mergePolicy) => setForm({ ...form, mergePolicy })}
        />
      </Section>
      <Section
        id="check-sources"
        title={`Check sources (${form.checkSources.length})`}
        description="Repositories of check code the agent never sees: cloned after its step, read-only to checks."
      >
        <CheckSourcesFields
          forms={form.checkSources}
          secretNames={secretNames}
          errors={errors}
          onChange={(checkSources) => setForm({ ...form, checkSources })}
        />
      </Section>
      <Section
        id="verification-profile"
        title="Verification profile"
        description="Which layers run after the checks: evidence, an independent review, a red team, the mutation floor."
      >
        <ProfileFields form={form} errors={errors} onChange={(patch) => setForm({ ...form, ...patch })} />
      </Section>
      <Section
        id="defaults"
        title={`Check defaults (${form.checkDefaults.length})`}
        description="Every task inherits these, in this order, unless it overrides or suppresses them."
      >
        <ResultsDirField
          value={form.resultsDir}
          error={errors.get("resultsDir")}
          onChange={(resultsDir) => setForm({ ...form, resultsDir })}
        />
        <CheckListEditor
          forms={form.checkDefaults}
          errors={listErrors}
          listError={errors.get("checkDefaults")}
          onChange={(checkDefaults) => setForm({ ...form, checkDefaults })}
        />
      </Section>
      <Section
        id="gates-file"
        title="Import or export a gates file"
        description="A YAML list (gates: - run: … or use: + with:, and proof: for the proof settings) or a Markdown runbook (## Code Checks, ### id — name, the first fence of each: ```bash [executor=agent], ```agent, or ```yaml with use:; ## Proof)."
      >
        <GatesFilePanel
          current={current.success ? current.data : null}
          onImport={importChecks}
          currentProof={proofNow.success ? proofNow.data : null}
          onImportProof={(proof) =>
            setForm((f) => ({
              ...f,
              ...(proof.testPatterns ? { testPatterns: proof.testPatterns.join("\n") } : {}),
              ...(proof.requireTests ? { requireTests: proof.requireTests } : {}),
              ...(proof.protectedPaths ? { protectedPaths: proof.protectedPaths.join("\n") } : {}),
              ...(proof.vacuousPolicy ? { vacuousPolicy: proof.vacuousPolicy } : {}),
              ...(proof.profile ? { profile: proof.profile } : {}),
            }))
          }
          currentCheckSources={sourcesNow.success ? sourcesNow.data : null}
          onImportCheckSources={(sources) =>
            setForm((f) => ({
              ...f,
              checkSources: sources.map((c, i) => ({
                key: `imported-${Date.now()}-${i}`,
                ...c,
                secret: c.secret ?? "",
              })),
            }))
          }
          currentMerge={mergeNow.success ? mergeNow.data : undefined}
          onImportMerge={(mergePolicy) => setForm((f) => ({ ...f, mergePolicy }))}
        />
      </Section>
      {conflict ? (
        <ConflictPanel
          what="Work"
          theirVersion={conflict.version}
          before={settingsOf(editor.base)}
          theirs={settingsOf(conflict)}
          onLoadTheirs={() => editor.loadTheirs(conflict)}
          onKeepMine={() => editor.keepMine(conflict)}
        />
      ) : null}
      <SaveBar
        problems={errors.size}
        isDirty={isDirty}
        isPending={editor.isPending}
        version={version}
        message={editor.message}
        onSave={editor.submit}
        onDiscard={editor.discard}
      />
    </div>
  );
}
