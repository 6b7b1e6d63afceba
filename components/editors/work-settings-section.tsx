"use client";
// One section of a Work's settings: its fields, editing the shared working copy (so switching sections
// keeps what was typed in the others).
import { useMemo, type ComponentType } from "react";
import { ZCheckList, type Check } from "@/lib/gates/check-schema";
import { ZCheckSourceList } from "@/lib/gates/check-sources";
import { ZMergePolicy } from "@/lib/gates/merge-policy";
import { ZLanes } from "@/lib/gates/lanes";
import { lanesFromForms } from "@/lib/editors/lane-form";
import type { SettingsSection } from "@/lib/gates/work-settings";
import { checkFromForm, errorsByField, formFromCheck, freeId } from "@/lib/editors/check-form";
import {
  checkSourcesFrom,
  formValuesFrom,
  proofPatchFrom,
  sandboxPatchFrom,
  ZProofOfWork,
  ZSandboxOfWork,
  type WorkForm,
} from "@/lib/editors/work-form";
import { Section } from "../ui/page-parts";
import { AgentFields } from "./agent-fields";
import { CheckListEditor } from "./check-list-editor";
import { CheckSourcesFields } from "./check-sources-fields";
import { GatesFilePanel } from "./gates-file-panel";
import { MergeFields } from "./merge-fields";
import { PolicyFields } from "./policy-fields";
import { ProfileFields } from "./profile-fields";
import { ProofFields } from "./proof-fields";
import { ResultsDirField } from "./results-dir-field";
import { SandboxFields } from "./sandbox-fields";
import { WebhooksFields } from "./webhooks-fields";
import { LaneEditor } from "./lane-editor";

type Props = {
  workId: string;
  section: SettingsSection;
  form: WorkForm;
  setForm: (update: (f: WorkForm) => WorkForm) => void;
  errors: Map<string, string>;
  secretNames: readonly string[];
};

const GATES_FILE_DESCRIPTION =
  "A YAML list (gates: - run: … or use: + with:; proof:, check_sources:, merge: and sandbox: for those " +
  "settings) or a Markdown runbook (## Code Checks, ### id — name, the first fence of each: ```bash " +
  "[executor=agent], ```agent, or ```yaml with use:; ## Proof, ## Merge, ## Sandbox). Settings it imports " +
  "show as unsaved in their sections.";

const LANES_DESCRIPTION =
  "A task on a lane moves through its stages in order: each stage has its own checks, and a task stuck " +
  "after a stage's attempts waits for a decision.";

const WEBHOOKS_DESCRIPTION =
  "Where Gatehouse tells other systems about this Work's runs: a signed JSON POST when a run starts, ends, " +
  "or needs a decision.";

type FieldsProps = { form: WorkForm; errors: Map<string, string>; onChange: (patch: Partial<WorkForm>) => void };

// The sections that are one fields component editing the working copy, under a title and a description.
// Every other section is drawn by the switch below: a new section must be added to one or the other.
type OwnSection = "checks" | "sources" | "merge" | "webhooks" | "lanes";
const FIELD_SECTIONS: Record<
  Exclude<SettingsSection, OwnSection>,
  { id: string; title: string; description: string; Fields: ComponentType<FieldsProps> }
> = {
  policy: {
    id: "policy",
    title: "Policy and attempts",
    description: "How runs are judged, and how often the agent may try.",
    Fields: PolicyFields,
  },
  agent: {
    id: "agent",
    title: "Agent",
    description: "The command that does the work and the repairs.",
    Fields: AgentFields,
  },
  proof: {
    id: "proof",
    title: "Proof",
    description:
      "What makes a green gate mean something: tests added, the gate's own files left alone, " +
      "checks that fail without the change.",
    Fields: ProofFields,
  },
  verification: {
    id: "verification-profile",
    title: "Verification profile",
    description: "Which layers run after the checks: evidence, an independent review, a red team, the mutation floor.",
    Fields: ProfileFields,
  },
  sandbox: {
    id: "sandbox",
    title: "Sandbox",
    description:
      "What the agent step and the checks may reach on the machine: the network, extra paths, " +
      "and the repository's other refs.",
    Fields: SandboxFields,
  },
};

export function WorkSettingsSection({ workId, section, form, setForm, errors, secretNames }: Props) {
  const patch = (p: Partial<WorkForm>) => setForm((f) => ({ ...f, ...p }));
  if (!isOwnSection(section)) {
    const fields = FIELD_SECTIONS[section];
    return (
      <Section id={fields.id} title={fields.title} description={fields.description}>
        <fields.Fields form={form} errors={errors} onChange={patch} />
      </Section>
    );
  }
  switch (section) {
    case "checks":
      return <ChecksSection form={form} setForm={setForm} errors={errors} />;
    case "sources":
      return (
        <Section
          id="check-sources"
          title={`Check sources (${form.checkSources.length})`}
          description="Repositories of check code the agent never sees: cloned after its step, read-only to checks."
        >
          <CheckSourcesFields
            forms={form.checkSources}
            secretNames={secretNames}
            errors={errors}
            onChange={(checkSources) => patch({ checkSources })}
          />
        </Section>
      );
    case "merge":
      return (
        <Section id="merge" title="Merge" description="How an accepted task lands on the base branch.">
          <MergeFields value={form.mergePolicy} errors={errors} onChange={(mergePolicy) => patch({ mergePolicy })} />
        </Section>
      );
    case "webhooks":
      return (
        <Section id="webhooks" title={`Webhooks (${form.webhooks.length})`} description={WEBHOOKS_DESCRIPTION}>
          <WebhooksFields workId={workId} form={form} errors={errors} onChange={patch} />
        </Section>
      );
    case "lanes":
      return (
        <Section id="lanes" title={`Lanes (${form.lanes.length})`} description={LANES_DESCRIPTION}>
          <label className="mb-4 flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={form.autoAdvance}
              onChange={(e) => patch({ autoAdvance: e.target.checked })}
            />
            Dispatch the next stage at once when a stage goes green (autoAdvance)
          </label>
          <LaneEditor lanes={form.lanes} errors={errors} onChange={(lanes) => patch({ lanes })} />
        </Section>
      );
  }
}

const isOwnSection = (section: SettingsSection): section is OwnSection =>
  section === "checks" || section === "sources" || section === "merge" || section === "webhooks" || section === "lanes";

// The check defaults, the results dir, and gates files (whose proof, sources, merge and sandbox settings,
// when imported, show as unsaved in their own sections).
function ChecksSection({ form, setForm, errors }: Omit<Props, "section" | "secretNames" | "workId">) {
  const listErrors = errorsByField(errors, "checkDefaults");
  // For the gates-file export: only re-validated when the checks changed, not on every keystroke elsewhere.
  const current = useMemo(() => ZCheckList.safeParse(form.checkDefaults.map(checkFromForm)), [form.checkDefaults]);
  const proofNow = ZProofOfWork.safeParse(proofPatchFrom(form));
  const sandboxNow = ZSandboxOfWork.safeParse(sandboxPatchFrom(form));
  const sourcesNow = ZCheckSourceList.safeParse(checkSourcesFrom(form.checkSources));
  const mergeNow = ZMergePolicy.safeParse(form.mergePolicy);
  const lanesNow = useMemo(() => ZLanes.safeParse(lanesFromForms(form.lanes)), [form.lanes]);
  const importChecks = (checks: Check[], mode: "replace" | "append") =>
    setForm((f) => {
      const kept = mode === "append" ? f.checkDefaults : [];
      const taken = kept.map((c) => c.id);
      const added = checks.map((c) => {
        const id = taken.includes(c.id) ? freeId(c.id, taken) : c.id;
        taken.push(id);
        return formFromCheck({ ...c, id });
      });
      return { ...f, checkDefaults: [...kept, ...added] };
    });
  const importValues = (values: Parameters<typeof formValuesFrom>[0]) =>
    setForm((f) => ({ ...f, ...formValuesFrom(values) }));
  return (
    <>
      <Section
        id="defaults"
        title={`Check defaults (${form.checkDefaults.length})`}
        description="Every task inherits these, in this order, unless it overrides or suppresses them."
      >
        <ResultsDirField
          value={form.resultsDir}
          error={errors.get("resultsDir")}
          onChange={(resultsDir) => setForm((f) => ({ ...f, resultsDir }))}
        />
        <CheckListEditor
          forms={form.checkDefaults}
          errors={listErrors}
          listError={errors.get("checkDefaults")}
          onChange={(checkDefaults) => setForm((f) => ({ ...f, checkDefaults }))}
        />
      </Section>
      <Section id="gates-file" title="Import or export a gates file" description={GATES_FILE_DESCRIPTION}>
        <GatesFilePanel
          current={current.success ? current.data : null}
          onImport={importChecks}
          currentProof={proofNow.success ? proofNow.data : null}
          onImportProof={importValues}
          currentCheckSources={sourcesNow.success ? sourcesNow.data : null}
          onImportCheckSources={(checkSources) => importValues({ checkSources })}
          currentMerge={mergeNow.success ? mergeNow.data : undefined}
          onImportMerge={(mergePolicy) => importValues({ mergePolicy })}
          currentSandbox={sandboxNow.success ? sandboxNow.data : undefined}
          onImportSandbox={importValues}
          currentLanes={lanesNow.success ? lanesNow.data : undefined}
          onImportLanes={(lanes) => importValues({ lanes })}
        />
      </Section>
    </>
  );
}
