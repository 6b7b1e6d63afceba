// The Work settings editor's working copy, and the patch (validated by ZWorkPatch) it saves. Both are
// derived from the registry of Work settings: each setting's form kind says how it is typed.
import { z } from "zod";
import { ZWorkPatch, type ChecksPolicy } from "../gates/work-schema";
import {
  SETTING_KEYS,
  WORK_SETTINGS,
  fileKeys,
  schemaOf,
  type FormKind,
  type FormKindValues,
  type SettingKey,
  type WorkSettingValues,
} from "../gates/work-settings";
import { toFieldIssues } from "../gates/field-issues";
import { unknownSecretIssues } from "../gates/check-sources";
import { platformMountIssues } from "../gates/sandbox-settings";

// Where the server keeps its data and code: a mount of either is refused (lib/gates/sandbox-settings.ts).
export type PlatformDirs = { dataDir: string; installDir: string };
import { checkFromForm, formFromCheck, splitNames, wholeNumberOrText, type CheckForm } from "./check-form";
import { laneFormsFrom, lanesFromForms, type LaneForm } from "./lane-form";

// The part of a Work its settings editor shows and saves: every setting, and the version it was read at.
export type WorkSettings = WorkSettingValues & { version: number };

// One check source as typed (secret "" for none).
export type CheckSourceForm = { key: string; name: string; url: string; ref: string; secret: string };
// One sandbox mount as typed.
export type MountForm = { key: string; path: string; mode: string };
// One webhook as typed: secret "" keeps the one set (secretSet), if any.
export type WebhookForm = {
  key: string;
  id: string | null;
  url: string;
  events: string[];
  secret: string;
  secretSet: boolean;
};

// How each form kind is typed: numbers as text (the schema's own message refuses "abc"), lists one per line.
type FormValues = {
  checks: CheckForm[];
  choice: string;
  count: string;
  "optional-count": string;
  "optional-amount": string;
  "optional-text": string;
  "optional-path": string;
  names: string;
  flag: boolean;
  lines: string;
  sources: CheckSourceForm[];
  "merge-policy": { requireGreenGate: boolean; autoMerge: boolean; method: string };
  mounts: MountForm[];
  webhooks: WebhookForm[];
  lanes: LaneForm[];
};

type Settings = typeof WORK_SETTINGS;
export type WorkForm = { [K in SettingKey]: FormValues[Settings[K]["form"]] };

// A list as typed: one entry per line, blank lines left out (spaces inside a line are kept for the
// schema to judge).
function splitLines(text: string): string[] {
  return text.split("\n").filter((line) => line.trim() !== "");
}

export function checkSourcesFrom(forms: readonly CheckSourceForm[]) {
  return forms.map(({ name, url, ref, secret }) => ({ name, url, ref, ...(secret ? { secret } : {}) }));
}

type Codec<K extends FormKind> = {
  from: (value: FormKindValues[K]) => FormValues[K];
  to: (form: FormValues[K]) => unknown;
};
const CODECS: { [K in FormKind]: Codec<K> } = {
  checks: { from: (v) => v.map((c) => formFromCheck(c)), to: (f) => f.map(checkFromForm) },
  choice: { from: (v) => v, to: (f) => f },
  count: { from: (v) => String(v), to: (f) => wholeNumberOrText(f) },
  "optional-count": { from: (v) => (v === null ? "" : String(v)), to: (f) => (f.trim() ? wholeNumberOrText(f) : null) },
  "optional-amount": { from: (v) => (v === null ? "" : String(v)), to: (f) => (f.trim() ? decimalOrText(f) : null) },
  "optional-text": { from: (v) => v ?? "", to: (f) => (f.trim() ? f : null) },
  "optional-path": { from: (v) => v ?? "", to: (f) => (f.trim() ? f.trim() : null) },
  names: { from: (v) => v.join(", "), to: (f) => splitNames(f) },
  flag: { from: (v) => v, to: (f) => f },
  lines: { from: (v) => v.join("\n"), to: (f) => splitLines(f) },
  sources: {
    from: (v) => v.map((c, i) => ({ key: `source-${i}`, ...c, secret: c.secret ?? "" })),
    to: (f) => checkSourcesFrom(f),
  },
  "merge-policy": { from: (v) => ({ ...v }), to: (f) => f },
  mounts: {
    from: (v) => v.map((m, i) => ({ key: `mount-${i}`, ...m })),
    to: (f) => f.map(({ path, mode }) => ({ path, mode })),
  },
  webhooks: {
    from: (v) =>
      v.map((w, i) => ({
        key: w.id ?? `webhook-${i}`,
        id: w.id ?? null,
        url: w.url,
        events: [...w.events],
        secret: "",
        secretSet: w.secretSet ?? !!w.secret,
      })),
    to: (f) => f.map(({ id, url, events, secret }) => ({ ...(id ? { id } : {}), url, events, secret: secret || null })),
  },
  lanes: { from: (v) => laneFormsFrom(v), to: (f) => lanesFromForms(f) },
};
// "1.50" as 1.5; anything else as typed, for the schema's own message ("must be a number of US dollars").
function decimalOrText(text: string): number | string {
  const t = text.trim();
  return /^-?(\d+(\.\d*)?|\.\d+)$/.test(t) ? Number(t) : t;
}

const codecOf = (key: SettingKey) => CODECS[WORK_SETTINGS[key].form] as Codec<FormKind>;

export function workFormFrom(s: WorkSettingValues): WorkForm {
  return Object.fromEntries(SETTING_KEYS.map((k) => [k, codecOf(k).from(s[k] as never)])) as WorkForm;
}

// The patch of every setting, or (with keys) of those only: a section saves its own settings.
export function workPatchFrom(form: WorkForm, keys: readonly SettingKey[] = SETTING_KEYS): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, codecOf(k).to(form[k] as never)]));
}

// Field errors as the server would give them (same schema), keyed by path ("checkDefaults.2.timeoutSec").
// With the Work's secret names, a check source naming another secret is refused as the server would; with
// the server's data dir and install folder, so is a mount of them.
export function validateWorkForm(
  form: WorkForm,
  version: number,
  secretNames?: readonly string[],
  platform?: PlatformDirs,
): Map<string, string> {
  const parsed = ZWorkPatch.safeParse({ ...workPatchFrom(form), version });
  const map = new Map<string, string>();
  if (!parsed.success)
    for (const issue of toFieldIssues(parsed.error)) if (!map.has(issue.path)) map.set(issue.path, issue.message);
  if (secretNames)
    for (const issue of unknownSecretIssues(checkSourcesFrom(form.checkSources), secretNames)) {
      const path = ["checkSources", ...issue.path].join(".");
      if (!map.has(path)) map.set(path, issue.message);
    }
  const mounts = parsed.success ? parsed.data.sandboxMounts : undefined;
  if (platform && mounts)
    for (const issue of platformMountIssues(mounts, platform))
      if (!map.has(issue.path)) map.set(issue.path, issue.message);
  return map;
}

// Settings read elsewhere (a gates file) as the form holds them.
export function formValuesFrom(values: Partial<WorkSettingValues>): Partial<WorkForm> {
  return Object.fromEntries(
    (Object.keys(values) as SettingKey[]).map((k) => [k, codecOf(k).from(values[k] as never)]),
  ) as Partial<WorkForm>;
}

export const POLICY_EXPLAINED: Record<ChecksPolicy, string> = {
  required: "A red gate blocks: the agent works on until the gate is green, or the attempts or budget run out.",
  warn: "Checks run and report, but red does not block: one attempt, accepted with the red shown as a warning.",
  off: "Checks never run: the agent step runs once and the run is accepted.",
};

export const REQUIRE_TESTS_EXPLAINED: Record<ChecksPolicy, string> = {
  required: "A change without a test is red: the gate stays red until a test file is touched.",
  warn: "A change without a test is reported on the run, but does not decide the gate.",
  off: "Nobody asks whether tests were added.",
};

export const VACUOUS_POLICY_EXPLAINED: Record<ChecksPolicy, string> = {
  required: "A check that passes without the change too turns the gate red: it proves nothing.",
  warn: "A check that passes without the change too is reported, but does not decide the gate.",
  off: "Checks are not run again without the change.",
};

export const PROFILE_EXPLAINED: Record<string, string> = {
  lite: "The checks and the proof rows only.",
  standard:
    "Also evidence (each criterion shown working in .gatehouse/evidence.md) and, with a review " +
    "command, an independent review after a green gate.",
  full:
    "Everything in standard, the red team (with its two commands below), and the mutation floor: the " +
    "changed files are mutated (Stryker, when the repository commits a configuration with " +
    "thresholds.break, or the mutation command below) and the tests must notice.",
};

// The proof settings as the form holds them (the gates file's proof block: its keys from the registry), for
// the gates-file export (valid ones only).
const PROOF_FILE_SETTINGS = Object.values(fileKeys("proof"));
export const ZProofOfWork = z.object(
  Object.fromEntries(PROOF_FILE_SETTINGS.map((k) => [k, schemaOf(k)])) as {
    [K in (typeof PROOF_FILE_SETTINGS)[number]]: Settings[K]["schema"];
  },
);

export function proofPatchFrom(form: WorkForm) {
  return workPatchFrom(form, PROOF_FILE_SETTINGS);
}

// The sandbox settings as the form holds them, for the gates-file export (valid ones only).
const SANDBOX_FILE_SETTINGS = Object.values(fileKeys("sandbox"));
export const ZSandboxOfWork = z.object(
  Object.fromEntries(SANDBOX_FILE_SETTINGS.map((k) => [k, schemaOf(k)])) as {
    [K in (typeof SANDBOX_FILE_SETTINGS)[number]]: Settings[K]["schema"];
  },
);

export function sandboxPatchFrom(form: WorkForm) {
  return workPatchFrom(form, SANDBOX_FILE_SETTINGS);
}
