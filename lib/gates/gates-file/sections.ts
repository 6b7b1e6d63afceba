// What the sections of a gates file mean, in either format: the Work's proof settings (`proof:` in YAML, a
// `## Proof` section in Markdown), its check sources (`check_sources:`, `## Check sources`) and its merge
// policy (`merge:`, `## Merge`). Import keeps what the schema accepts and lists the rest; export writes what
// the Work has. Markdown sections come as their lines outside fenced blocks (markdown.ts reads them).
import { ZCheckSourceList, type CheckSource } from "../check-sources";
import { ZMergePolicy, type MergePolicy } from "../merge-policy";
import type { Profile, ProofSettings } from "../work-schema";
import { fileKeys, schemaOf } from "../work-settings";
import type { ImportEntry } from "./entries";
import type { SandboxFileRead, SandboxFileSettings } from "./sandbox";
import type { Lane } from "../lanes";
import type { LanesFileRead } from "./lanes";

// The Work's proof settings a file names (`proof:` in YAML, a `## Proof` section in Markdown).
// `profile` (the verification profile) travels in the same block.
export type ProofFileSettings = Partial<ProofSettings & { profile: Profile }>;
export type ImportResult = {
  format: "yaml" | "markdown" | "unknown";
  entries: ImportEntry[];
  fileProblem: string | null;
  // null when the file names none; only the settings that passed the schema.
  proof?: ProofFileSettings | null;
  proofProblems?: string[];
  // The Work's check sources (`check_sources:` in YAML, a `## Check sources` section in Markdown): null when
  // the file names none; otherwise the entries that passed the schema, replacing the Work's on import.
  checkSources?: CheckSource[] | null;
  checkSourceProblems?: string[];
  // Problems of the file's frontmatter (a Markdown runbook's `code_checks.timeout_sec`).
  fileNotes?: string[];
} & Partial<MergeFileRead> &
  Partial<SandboxFileRead> &
  // The Work's lanes (`lanes:` in YAML, `## Lanes` in Markdown): null when the file has none or one is wrong.
  Partial<LanesFileRead>;

// The Work settings a gates file carries besides its checks (each left out of the file when absent).
export type GatesFileSettings = {
  proof?: ProofFileSettings;
  checkSources?: readonly CheckSource[];
  merge?: MergePolicy;
  sandbox?: SandboxFileSettings;
  lanes?: readonly Lane[];
};

// ---- check sources

export type CheckSourcesRead = { checkSources: CheckSource[] | null; checkSourceProblems: string[] };
export const NO_CHECK_SOURCES: CheckSourcesRead = { checkSources: null, checkSourceProblems: [] };

// Keeps the entries the schema accepts, and says what is wrong with each of the others (by its position).
export function readCheckSources(list: unknown): CheckSourcesRead {
  if (!Array.isArray(list))
    return { checkSources: null, checkSourceProblems: ["check_sources: must be a list of {name, url, ref, secret?}"] };
  const parsed = ZCheckSourceList.safeParse(list);
  if (parsed.success) return { checkSources: parsed.data, checkSourceProblems: [] };
  const bad = new Set<number>();
  const checkSourceProblems = parsed.error.issues.map((issue) => {
    const [index, ...rest] = issue.path;
    if (typeof index === "number") bad.add(index);
    const where = typeof index === "number" ? `source ${index + 1}${rest.length ? ` ${rest.join(".")}` : ""}` : "";
    return `check_sources${where ? ` ${where}` : ""}: ${issue.message}`;
  });
  const kept = ZCheckSourceList.safeParse(list.filter((_, i) => !bad.has(i)));
  return { checkSources: kept.success ? kept.data : null, checkSourceProblems };
}

// ---- proof

// File key → setting (test_patterns → testPatterns, …), from the registry of Work settings.
const PROOF_FILE_KEYS = fileKeys("proof");
export const PROOF_KEYS_TEXT = Object.keys(PROOF_FILE_KEYS).join(", ");

// Reads a proof block's fields (file names → values), keeping what the schema accepts.
export function readProof(fields: Record<string, unknown>): {
  proof: ProofFileSettings | null;
  proofProblems: string[];
} {
  const proof: ProofFileSettings = {};
  const proofProblems: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const field = PROOF_FILE_KEYS[key];
    if (!field) {
      proofProblems.push(`proof: unknown field: ${key} (known: ${Object.keys(PROOF_FILE_KEYS).join(", ")})`);
      continue;
    }
    const parsed = schemaOf(field).safeParse(value);
    if (parsed.success) (proof as Record<string, unknown>)[field] = parsed.data;
    else
      for (const issue of parsed.error.issues)
        proofProblems.push(
          `proof: ${[key, ...issue.path.map((p) => (typeof p === "number" ? p + 1 : String(p)))].join(" ")}: ` +
            issue.message,
        );
  }
  return { proof: Object.keys(proof).length ? proof : null, proofProblems };
}

export function proofFileFields(proof: ProofFileSettings): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(PROOF_FILE_KEYS).flatMap(([key, field]) =>
      proof[field] === undefined ? [] : [[key, proof[field]]],
    ),
  );
}

// A `## Proof` section: `- require_tests: required`, `- test_patterns: \`**/*.test.*\`, \`tests/**\`` (globs in
// backticks, or separated by spaces or ", ").
export function readMarkdownProof(section: readonly string[] | undefined): {
  proof: ProofFileSettings | null;
  proofProblems: string[];
} {
  const fields: Record<string, unknown> = {};
  for (const line of section ?? []) {
    const meta = /^\s*[-*]\s*([\w ]+?)\s*:\s*(.*?)\s*$/.exec(line);
    if (!meta) continue;
    const key = meta[1].trim().toLowerCase().replace(/\s+/g, "_");
    const isList = key === "test_patterns" || key === "protected_paths";
    const ticked = Array.from(meta[2].matchAll(/`([^`]*)`/g), (m) => m[1]);
    fields[key] = isList ? (ticked.length ? ticked : meta[2].split(/,\s+|\s+/).filter(Boolean)) : meta[2];
  }
  return Object.keys(fields).length ? readProof(fields) : { proof: null, proofProblems: [] };
}

// A `## Check sources` section: one line per source, `- NAME: \`URL\` at \`REF\``, optionally followed by
// `(secret \`NAME\`)`.
const SOURCE_LINE = /^\s*[-*]\s*([^:\s]+)\s*:\s*`([^`]*)`\s+at\s+`([^`]*)`(?:\s*\(secret\s+`([^`]*)`\))?\s*$/;

export function readMarkdownCheckSources(section: readonly string[] | undefined): CheckSourcesRead {
  if (!section) return NO_CHECK_SOURCES;
  const list: Record<string, string>[] = [];
  const problems: string[] = [];
  for (const line of section) {
    if (!line.trim()) continue;
    const m = SOURCE_LINE.exec(line);
    if (m) list.push({ name: m[1], url: m[2], ref: m[3], ...(m[4] ? { secret: m[4] } : {}) });
    else if (/^\s*[-*]\s/.test(line))
      problems.push(`check_sources: "${line.trim()}" is not - NAME: \`URL\` at \`REF\` (secret \`NAME\`)`);
  }
  const read = readCheckSources(list);
  return { ...read, checkSourceProblems: [...problems, ...read.checkSourceProblems] };
}

// ---- merge

const KEYS = { require_green_gate: "requireGreenGate", auto_merge: "autoMerge", method: "method" } as const;
export type MergeFileRead = { merge: MergePolicy | null; mergeProblems: string[] };

function yesNo(value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (/^(yes|true|on)$/i.test(value.trim())) return true;
  if (/^(no|false|off)$/i.test(value.trim())) return false;
  return value.trim();
}

function readMerge(fields: Record<string, unknown>): MergeFileRead {
  const mergeProblems: string[] = [];
  const policy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const field = KEYS[key as keyof typeof KEYS];
    if (field) policy[field] = yesNo(value);
    else mergeProblems.push(`merge: unknown field: ${key} (known: ${Object.keys(KEYS).join(", ")})`);
  }
  const parsed = ZMergePolicy.safeParse(policy);
  if (parsed.success) return { merge: parsed.data, mergeProblems };
  const names = Object.fromEntries(Object.entries(KEYS).map(([k, f]) => [f, k]));
  for (const issue of parsed.error.issues)
    mergeProblems.push(`merge: ${issue.path.map((p) => names[String(p)] ?? String(p)).join(" ")}: ${issue.message}`);
  return { merge: null, mergeProblems };
}

export function readMergeBlock(doc: unknown): MergeFileRead | Record<string, never> {
  const block = doc && typeof doc === "object" && !Array.isArray(doc) ? (doc as { merge?: unknown }).merge : undefined;
  if (block === undefined) return {};
  if (!block || typeof block !== "object" || Array.isArray(block))
    return { merge: null, mergeProblems: ["merge: must be a map (require_green_gate, auto_merge, method)"] };
  return readMerge(block as Record<string, unknown>);
}

// A `## Merge` section: `- key: value` lines (a value may be in backticks).
export function readMarkdownMerge(section: readonly string[] | undefined): MergeFileRead | Record<string, never> {
  const fields: Record<string, unknown> = {};
  for (const line of section ?? []) {
    const meta = /^\s*[-*]\s*([\w ]+?)\s*:\s*`?(.*?)`?\s*$/.exec(line);
    if (meta) fields[meta[1].trim().toLowerCase().replace(/\s+/g, "_")] = meta[2];
  }
  return Object.keys(fields).length ? readMerge(fields) : {};
}

export function mergeYamlBlock(merge: MergePolicy | undefined): { merge?: Record<string, unknown> } {
  if (!merge) return {};
  return { merge: { require_green_gate: merge.requireGreenGate, auto_merge: merge.autoMerge, method: merge.method } };
}

export function mergeMarkdownSection(merge: MergePolicy | undefined): string[] {
  if (!merge) return [];
  const yes = (v: boolean) => (v ? "yes" : "no");
  return [
    "## Merge",
    "",
    `- require_green_gate: ${yes(merge.requireGreenGate)}`,
    `- auto_merge: ${yes(merge.autoMerge)}`,
    `- method: ${merge.method}`,
    "",
  ];
}
