// The registry of a Work's settings: each setting once, with its rule, its default, how the settings form
// edits it, where it lives in a gates file, which section of the settings page shows it, and what a run
// freezes of it. The create and patch schemas, the form, the presenter, the settings page, the run's frozen
// columns and the gates-file keys are derived from it; lib/db/models.ts makes a drifted list a compile error.
// A new setting is one entry here, its column (prisma/models/work.prisma, and run.prisma when frozen) and
// its migration.
import { z } from "zod";
import { ZCheckCwd, ZCheckList, type Check } from "./check-schema";
import { ZCheckSourceList, type CheckSource } from "./check-sources";
import { ZEnvNameList } from "./env-names";
import { ZLanes, type Lane } from "./lanes";
import { ZGlobList } from "./globs";
import { DEFAULT_MERGE_POLICY, ZMergePolicy, type MergePolicy } from "./merge-policy";
import { profilesWith } from "./profiles";
import { ZNetworkMode, ZSandboxMounts, ZVisibleRefs, type SandboxMount } from "./sandbox-settings";
import { ZWebhookList, type Webhook } from "./webhooks";
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_PROFILE,
  DEFAULT_PROTECTED_PATHS,
  DEFAULT_REQUIRE_TESTS,
  DEFAULT_TEST_PATTERNS,
  DEFAULT_VACUOUS_POLICY,
  ZAgentCommand,
  ZBudgetSec,
  ZBudgetUsd,
  ZChecksPolicy,
  ZMaxGateAttempts,
  ZMutationReport,
  ZProfile,
  layerCommand,
  type Profile,
} from "./work-fields";

// How the settings form holds a value (lib/editors/work-form.ts converts each kind), and the values each
// kind can hold: a setting whose value does not fit its kind does not compile.
export type FormKindValues = {
  checks: Check[];
  choice: string;
  count: number;
  "optional-count": number | null;
  // A decimal number (US dollars), empty for none.
  "optional-amount": number | null;
  // Empty text is null; "optional-path" also trims what is kept.
  "optional-text": string | null;
  "optional-path": string | null;
  // Names separated by commas or spaces.
  names: string[];
  flag: boolean;
  // One entry per line.
  lines: string[];
  sources: CheckSource[];
  "merge-policy": MergePolicy;
  mounts: SandboxMount[];
  webhooks: Webhook[];
  lanes: Lane[];
};
export type FormKind = keyof FormKindValues;

// The settings page's sections, in the order of its side navigation (secrets and access are pages of their
// own, not settings of this registry).
export const SETTINGS_SECTIONS = [
  "checks",
  "policy",
  "agent",
  "proof",
  "verification",
  "sources",
  "merge",
  "sandbox",
  "webhooks",
  "lanes",
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

// What a run does with a setting at dispatch:
// - copy: frozen as it is, into `column` (default: the setting's name); `onlyIn` the profiles that use it
//   (null in the others, so a run never shows a command its profile does not run);
// - group: frozen together with the others of the same group, as one JSON column (`proof`, `sandbox`);
// - task: the task may override it; dispatch resolves the two into `column`;
// - live: not frozen: read from the Work when it is used (merging, the results dir).
export type Freeze =
  | { run: "copy"; column?: string; onlyIn?: readonly Profile[]; unresolved?: "commit" }
  | { run: "group"; column: "proof" | "sandbox" }
  | { run: "task"; column: string }
  | { run: "live" };

// Where a gates file carries it: a section (`proof:`, `check_sources:`, `merge:`, `sandbox:` in YAML; the
// same-named `##` section in Markdown) and, in a section of several settings, its key there.
export type FileKey = {
  section: "checks" | "proof" | "check_sources" | "merge" | "sandbox" | "lanes";
  key?: string;
};

type Entry<
  S extends z.ZodType,
  K extends FormKind,
  F extends Freeze = Freeze,
  L extends FileKey | null = FileKey | null,
> = {
  schema: S;
  // A function, so a list default is a fresh copy each time.
  default: () => z.output<S>;
  form: K;
  section: SettingsSection;
  file: L;
  freeze: F;
};

// Keeps each entry's literal types (what the derived types read), and the kind must hold the setting's value.
function setting<S extends z.ZodType, K extends FormKind, const F extends Freeze, const L extends FileKey | null>(
  entry: Entry<S, K, F, L> & (z.output<S> extends FormKindValues[K] ? unknown : { kindDoesNotFit: never }),
): Entry<S, K, F, L> {
  return entry;
}

const copy = { run: "copy" } as const;
const ZBool = z.boolean({ error: "must be true or false" });

// The parts entries of one form kind share (spread into `setting`): a flag is false until set.
const flag = { schema: ZBool, default: () => false, form: "flag" } as const;

// A proof setting: frozen in the run's `proof` group, carried as `key` in a gates file's proof block.
const proofSetting = <const Key extends string>(key: Key) =>
  ({
    section: "proof",
    file: { section: "proof", key },
    freeze: { run: "group", column: "proof" },
  }) as const;

// A verification layer's command (none by default), frozen only by runs whose profile runs that layer.
const layerSetting = (noneMeans: string, layer: Parameters<typeof profilesWith>[0]) =>
  ({
    schema: layerCommand(noneMeans).nullable(),
    default: () => null,
    form: "optional-text",
    section: "verification",
    file: null,
    freeze: { run: "copy", onlyIn: profilesWith(layer) },
  }) as const;

export const WORK_SETTINGS = {
  checkDefaults: setting({
    schema: ZCheckList,
    default: () => [],
    form: "checks",
    section: "checks",
    file: { section: "checks" },
    freeze: { run: "task", column: "checks" },
  }),
  checksPolicy: setting({
    schema: ZChecksPolicy,
    default: () => "required" as const,
    form: "choice",
    section: "policy",
    file: null,
    freeze: { run: "copy", column: "policy" },
  }),
  maxGateAttempts: setting({
    schema: ZMaxGateAttempts,
    default: () => DEFAULT_ATTEMPTS,
    form: "count",
    section: "policy",
    file: null,
    freeze: { run: "task", column: "maxAttempts" },
  }),
  agentCommand: setting({
    schema: ZAgentCommand.nullable(),
    default: () => null,
    form: "optional-text",
    section: "agent",
    file: null,
    freeze: { run: "task", column: "agentCommand" },
  }),
  agentEnvPassthrough: setting({
    schema: ZEnvNameList,
    default: () => [],
    form: "names",
    section: "agent",
    file: null,
    freeze: copy,
  }),
  budgetSec: setting({
    schema: ZBudgetSec.nullable(),
    default: () => null,
    form: "optional-count",
    section: "policy",
    file: null,
    freeze: { run: "task", column: "budgetSec" },
  }),
  // The spend guardrail in USD: what the agent CLI reports it cost (lib/gates/usd-budget.ts), per run.
  budgetUsd: setting({
    schema: ZBudgetUsd.nullable(),
    default: () => null,
    form: "optional-amount",
    section: "policy",
    file: null,
    freeze: { run: "task", column: "budgetUsd" },
  }),
  failFast: setting({ ...flag, section: "policy", file: null, freeze: copy }),
  strictEvaluation: setting({ ...flag, section: "policy", file: null, freeze: copy }),
  testPatterns: setting({
    schema: ZGlobList,
    default: () => [...DEFAULT_TEST_PATTERNS],
    form: "lines",
    ...proofSetting("test_patterns"),
  }),
  requireTests: setting({
    schema: ZChecksPolicy,
    default: () => DEFAULT_REQUIRE_TESTS,
    form: "choice",
    ...proofSetting("require_tests"),
  }),
  protectedPaths: setting({
    schema: ZGlobList,
    default: () => [...DEFAULT_PROTECTED_PATHS],
    form: "lines",
    ...proofSetting("protected_paths"),
  }),
  vacuousPolicy: setting({
    schema: ZChecksPolicy,
    default: () => DEFAULT_VACUOUS_POLICY,
    form: "choice",
    ...proofSetting("vacuous_policy"),
  }),
  // A `test` check that passes with no sign a test ran (no summary, no JUnit report) is hollow, not a warning.
  requireTestSummary: setting({ ...flag, ...proofSetting("require_test_summary") }),
  checkSources: setting({
    schema: ZCheckSourceList,
    default: () => [],
    form: "sources",
    section: "sources",
    file: { section: "check_sources" },
    // Each ref is resolved to a commit when the run starts, before the agent (lib/runner/check-sources.ts).
    freeze: { run: "copy", unresolved: "commit" },
  }),
  mergePolicy: setting({
    schema: ZMergePolicy,
    default: () => ({ ...DEFAULT_MERGE_POLICY }),
    form: "merge-policy",
    section: "merge",
    file: { section: "merge" },
    freeze: { run: "live" },
  }),
  // {{results_dir}}: a directory relative to the checkout (null: its root), where built-ins read outputs.
  resultsDir: setting({
    schema: ZCheckCwd.nullable(),
    default: () => null,
    form: "optional-path",
    section: "checks",
    file: null,
    freeze: { run: "live" },
  }),
  // The profile travels in the gates file's proof block.
  profile: setting({
    schema: ZProfile,
    default: () => DEFAULT_PROFILE,
    form: "choice",
    section: "verification",
    file: { section: "proof", key: "profile" },
    freeze: copy,
  }),
  reviewCommand: setting(layerSetting("use null for no review", "review")),
  mutationCommand: setting(layerSetting("use null for the repository's Stryker configuration", "mutation")),
  mutationReport: setting({
    schema: ZMutationReport.nullable(),
    default: () => null,
    form: "optional-text",
    section: "verification",
    file: null,
    freeze: { run: "copy", onlyIn: profilesWith("mutation") },
  }),
  redTeamCommand: setting(layerSetting("use null for no red team", "red-team")),
  redTeamTestCommand: setting(layerSetting("use null for no red team", "red-team")),
  // The sandbox (issue 20): network for the agent step and for checks, extra mounts, refs the checkout shows.
  agentNetwork: setting({
    schema: ZNetworkMode,
    default: () => "on" as const,
    form: "choice",
    section: "sandbox",
    file: { section: "sandbox", key: "agent_network" },
    freeze: { run: "group", column: "sandbox" },
  }),
  checkNetwork: setting({
    schema: ZNetworkMode,
    default: () => "on" as const,
    form: "choice",
    section: "sandbox",
    file: { section: "sandbox", key: "check_network" },
    freeze: { run: "group", column: "sandbox" },
  }),
  sandboxMounts: setting({
    schema: ZSandboxMounts,
    default: () => [],
    form: "mounts",
    section: "sandbox",
    file: { section: "sandbox", key: "mounts" },
    freeze: { run: "group", column: "sandbox" },
  }),
  visibleRefs: setting({
    schema: ZVisibleRefs,
    default: () => [],
    form: "lines",
    section: "sandbox",
    file: { section: "sandbox", key: "visible_refs" },
    freeze: { run: "group", column: "sandbox" },
  }),
  // Where the runs' events are POSTed (lib/gates/webhooks.ts); read when an event happens, never frozen, and
  // never in a gates file (the secrets are write-only: stored sealed, shown as `secretSet`).
  webhooks: setting({
    schema: ZWebhookList,
    default: () => [],
    form: "webhooks",
    section: "webhooks",
    file: null,
    freeze: { run: "live" },
  }),
  // Lanes of stages (issue 26): a dispatch freezes the task's lane (its stages and their checks) into the run.
  lanes: setting({
    schema: ZLanes,
    default: () => [],
    form: "lanes",
    section: "lanes",
    file: { section: "lanes" },
    freeze: { run: "task", column: "lane" },
  }),
  // A green stage dispatches the next one at once (off: the task waits at the next stage). Read when a stage
  // goes green.
  autoAdvance: setting({
    schema: ZBool,
    default: () => false,
    form: "flag",
    section: "lanes",
    file: null,
    freeze: { run: "live" },
  }),
};

// ---- derived ------------------------------------------------------------------------------------------

type Settings = typeof WORK_SETTINGS;
export type SettingKey = keyof Settings;
export const SETTING_KEYS = Object.keys(WORK_SETTINGS) as SettingKey[];

// How people read each setting where a change to it is said (the audit trail's summaries, the Work's
// History); the before and after keep the API's names. A new setting needs its words here (the type says so).
export const SETTING_WORDS: Record<SettingKey, string> = {
  checkDefaults: "checks",
  checksPolicy: "gate policy",
  maxGateAttempts: "attempts",
  agentCommand: "agent command",
  agentEnvPassthrough: "agent environment",
  budgetSec: "time budget",
  budgetUsd: "cost budget",
  failFast: "fail fast",
  strictEvaluation: "strict evaluation",
  testPatterns: "test patterns",
  requireTests: "tests required",
  protectedPaths: "protected paths",
  vacuousPolicy: "vacuous checks",
  requireTestSummary: "test summary required",
  checkSources: "check sources",
  mergePolicy: "merge policy",
  resultsDir: "results folder",
  profile: "verification profile",
  reviewCommand: "review command",
  mutationCommand: "mutation command",
  mutationReport: "mutation report",
  redTeamCommand: "red-team command",
  redTeamTestCommand: "red-team test command",
  agentNetwork: "agent network",
  checkNetwork: "check network",
  sandboxMounts: "sandbox mounts",
  visibleRefs: "visible refs",
  webhooks: "webhooks",
  lanes: "lanes",
  autoAdvance: "auto-advance",
};
const entries = Object.entries(WORK_SETTINGS) as [SettingKey, Settings[SettingKey]][];

// Each setting's value, as validated.
export type WorkSettingValues = { [K in SettingKey]: z.output<Settings[K]["schema"]> };

// The shapes of the create and patch schemas (work-schema.ts adds the Work's identity and the version).
export function settingsCreateShape() {
  return Object.fromEntries(
    entries.map(([k, e]) => [k, (e.schema as z.ZodType).default(e.default as () => never)]),
  ) as {
    [K in SettingKey]: z.ZodDefault<Settings[K]["schema"]>;
  };
}
export function settingsPatchShape() {
  return Object.fromEntries(entries.map(([k, e]) => [k, e.schema.optional()])) as {
    [K in SettingKey]: z.ZodOptional<Settings[K]["schema"]>;
  };
}

// Every setting of a Work (or anything that carries them), and nothing else.
export function pickSettings<T extends WorkSettingValues>(work: T): WorkSettingValues {
  return Object.fromEntries(SETTING_KEYS.map((k) => [k, work[k]])) as WorkSettingValues;
}

export function settingsInSection(section: SettingsSection): SettingKey[] {
  return entries.filter(([, e]) => e.section === section).map(([k]) => k);
}

// ---- what a run freezes -------------------------------------------------------------------------------

type FreezeOf<K extends SettingKey> = Settings[K]["freeze"];
type KeysWhere<F> = { [K in SettingKey]: FreezeOf<K> extends F ? K : never }[SettingKey];
type ColumnOf<K extends SettingKey> = FreezeOf<K> extends { column: infer C extends string } ? C : K;

// The settings a run freezes into a JSON group, by group.
export type GroupKeys<G extends "proof" | "sandbox"> = KeysWhere<{ run: "group"; column: G }>;
export type ProofSettings = Pick<WorkSettingValues, GroupKeys<"proof">>;
export type SandboxSettings = Pick<WorkSettingValues, GroupKeys<"sandbox">>;

// The run's columns each kind of freeze fills (lib/db/models.ts checks them against the Run model).
export type CopiedColumns = { [K in KeysWhere<{ run: "copy" }>]: ColumnOf<K> }[KeysWhere<{ run: "copy" }>];
export type GroupColumns = { [K in KeysWhere<{ run: "group" }>]: ColumnOf<K> }[KeysWhere<{ run: "group" }>];
export type TaskResolvedColumns = { [K in KeysWhere<{ run: "task" }>]: ColumnOf<K> }[KeysWhere<{ run: "task" }>];

export function groupOf<G extends "proof" | "sandbox">(
  group: G,
  work: WorkSettingValues,
): Pick<WorkSettingValues, GroupKeys<G>> {
  return Object.fromEntries(
    entries.filter(([, e]) => e.freeze.run === "group" && e.freeze.column === group).map(([k]) => [k, work[k]]),
  ) as Pick<WorkSettingValues, GroupKeys<G>>;
}

// What a dispatch freezes of the Work alone (copies and groups); the settings a task overrides are resolved
// by the dispatch itself. Typed by the caller (lib/db knows the run's column types).
export function freezeWorkSettings(work: WorkSettingValues): Record<CopiedColumns | GroupColumns, unknown> {
  const frozen: Record<string, unknown> = {};
  for (const [k, e] of entries) {
    const f: Freeze = e.freeze;
    if (f.run === "group") frozen[f.column] = { ...(frozen[f.column] as object | undefined), [k]: work[k] };
    if (f.run !== "copy") continue;
    const value = f.onlyIn && !f.onlyIn.includes(work.profile) ? null : work[k];
    frozen[f.column ?? k] =
      f.unresolved === "commit" ? (value as CheckSource[]).map((source) => ({ ...source, commit: null })) : value;
  }
  return frozen as Record<CopiedColumns | GroupColumns, unknown>;
}

// The run's frozen copy of the Work's settings, as the run's JSON shows it (task-resolved ones are shown by
// the run's own fields).
export const FROZEN_RUN_COLUMNS = [
  ...new Set(
    entries.flatMap(([k, e]) => {
      const f: Freeze = e.freeze;
      return f.run === "copy" ? [f.column ?? k] : f.run === "group" ? [f.column] : [];
    }),
  ),
] as (CopiedColumns | GroupColumns)[];

// A run dispatched before the sandbox settings existed ran with these (the defaults).
export function sandboxSettingsOf(frozen: SandboxSettings | null): SandboxSettings {
  return frozen ?? (groupOf("sandbox", defaultSettings()) as SandboxSettings);
}

export function defaultSettings(): WorkSettingValues {
  return Object.fromEntries(entries.map(([k, e]) => [k, e.default()])) as WorkSettingValues;
}

// ---- gates files --------------------------------------------------------------------------------------

type FileKeyOf<K extends SettingKey> = Settings[K]["file"];
type SectionKeys<S extends string> = {
  [K in SettingKey]: FileKeyOf<K> extends { section: S; key: string } ? K : never;
}[SettingKey];

// A gates-file section's keys (file key → setting), e.g. fileKeys("proof").test_patterns === "testPatterns".
export function fileKeys<S extends "proof" | "sandbox">(section: S): Record<string, SectionKeys<S>> {
  return Object.fromEntries(
    entries.flatMap(([k, e]) => {
      const file: FileKey | null = e.file;
      return file?.section === section && file.key ? [[file.key, k]] : [];
    }),
  ) as Record<string, SectionKeys<S>>;
}

export function schemaOf<K extends SettingKey>(key: K): Settings[K]["schema"] {
  return WORK_SETTINGS[key].schema;
}
