// Gates as files: a YAML list (`gates: - run: …`) or a Markdown runbook (`## Code Checks`, then
// `### id — name` and one fenced shell block per check). Import lists every entry that cannot become a
// check with its reason (nothing is dropped silently); export writes either shape.
import YAML from "yaml";
import { describeBuiltin } from "./builtins";
import { ZCheck, type Check } from "./check-schema";
import { formatDurationSec, parseDurationSec } from "./duration";
import { ZGlobList } from "./globs";
import { TODO_BLANK } from "./placeholders";
import { readFence, readFrontmatter } from "./runbook-fences";
import { ZProfile, ZProofPolicy, type Profile, type ProofSettings } from "./work-schema";
import { ZCheckSourceList, type CheckSource } from "./check-sources";
import type { MergePolicy } from "./merge-policy";
import {
  mergeMarkdownSection,
  mergeYamlBlock,
  readMarkdownMerge,
  readMergeBlock,
  type MergeFileRead,
} from "./gates-file-merge";

type ImportEntry = { label: string; check: Check | null; problems: string[] };
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
} & Partial<MergeFileRead>;

type CheckSourcesRead = { checkSources: CheckSource[] | null; checkSourceProblems: string[] };
const NO_CHECK_SOURCES: CheckSourcesRead = { checkSources: null, checkSourceProblems: [] };

// Keeps the entries the schema accepts, and says what is wrong with each of the others (by its position).
function readCheckSources(list: unknown): CheckSourcesRead {
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

const PROOF_FILE_KEYS = {
  test_patterns: "testPatterns",
  require_tests: "requireTests",
  protected_paths: "protectedPaths",
  vacuous_policy: "vacuousPolicy",
  profile: "profile",
} as const;

// Reads a proof block's fields (file names → values), keeping what the schema accepts.
function readProof(fields: Record<string, unknown>): { proof: ProofFileSettings | null; proofProblems: string[] } {
  const proof: ProofFileSettings = {};
  const proofProblems: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const field = PROOF_FILE_KEYS[key as keyof typeof PROOF_FILE_KEYS];
    if (!field) {
      proofProblems.push(`proof: unknown field: ${key} (known: ${Object.keys(PROOF_FILE_KEYS).join(", ")})`);
      continue;
    }
    const schema =
      field === "testPatterns" || field === "protectedPaths"
        ? ZGlobList
        : field === "profile"
          ? ZProfile
          : ZProofPolicy;
    const parsed = schema.safeParse(value);
    if (parsed.success) (proof as Record<string, unknown>)[field] = parsed.data;
    else
      for (const issue of parsed.error.issues)
        proofProblems.push(
          `proof: ${[key, ...issue.path.map((p) => (typeof p === "number" ? p + 1 : String(p)))].join(" ")}: ${issue.message}`,
        );
  }
  return { proof: Object.keys(proof).length ? proof : null, proofProblems };
}

const FIELD_NAMES: Record<string, string> = {
  command: "run",
  timeoutSec: "timeout",
  expectExit: "expect_exit",
  expectStdout: "expect_stdout",
  envPassthrough: "env",
  provesChange: "proves_change",
};

type Raw = { label: string; fields: Record<string, unknown>; problems: string[] };
// Settings of the whole file that its entries inherit (a runbook's frontmatter default timeout).
type FileDefaults = { timeoutSec: number | null };

export function slugifyId(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "")
    .slice(0, 41)
    .replace(/[-_]+$/, "");
  return slug || "check";
}

function inferKind(command: string): Check["kind"] {
  if (/\b(test|jest|vitest|pytest|mocha|rspec|go test|cargo test)\b/.test(command)) return "test";
  if (/\b(lint|eslint|ruff|flake8|clippy|rubocop|shellcheck)\b/.test(command)) return "lint";
  if (/\b(tsc|typecheck|mypy|pyright)\b/.test(command)) return "typecheck";
  if (/\b(build|compile|make)\b/.test(command)) return "build";
  return "custom";
}

function asBoolean(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(yes|true|y|on)$/i.test(value.trim())) return true;
  if (typeof value === "string" && /^(no|false|n|off)$/i.test(value.trim())) return false;
  return null;
}

// Turns one entry's fields into a check, or says why it cannot be one.
type Ids = { used: Set<string>; reserved: Set<string> };

function toCheck(raw: Raw, ids: Ids, defaults: FileDefaults): ImportEntry {
  const problems = [...raw.problems];
  const f = raw.fields;
  const isBuiltin = f.use !== undefined;
  const isTodoMap = !!f.run && typeof f.run === "object" && Object.keys(f.run).some((k) => /^TODO\b/i.test(k));
  if (isTodoMap) problems.push("a {TODO: …} blank is left in the command: fill it in first");
  const run = typeof f.run === "string" ? f.run.replace(/\s+$/, "") : f.run === undefined ? "" : isTodoMap ? "" : null;
  const isFenceMissing = problems.some((p) => p.includes("fenced") || p.includes("yaml block"));
  if (isBuiltin) {
    if (f.run !== undefined) problems.push("run and use: a check runs a command or a built-in, not both");
  } else if (run === null) problems.push("run: must be text (the shell command)");
  else if (run.trim() === "" && !isFenceMissing && !isTodoMap)
    problems.push("empty command: write the shell command to run");
  else if (TODO_BLANK.test(run)) problems.push("a {TODO: …} blank is left in the command: fill it in first");
  const command = run ?? "";
  const shown = isBuiltin ? describeBuiltin(String(f.use), asParams(f.with)) : command;
  const name =
    typeof f.name === "string" && f.name.trim()
      ? f.name.trim()
      : shown.split("\n")[0].trim().slice(0, 120) || raw.label;
  if (f.id !== undefined && typeof f.id !== "string") problems.push("id: must be text");
  const isExplicit = typeof f.id === "string" && f.id.trim() !== "";
  let id = isExplicit ? (f.id as string).trim() : slugifyId(name);
  // A derived id steps around every id the file names and every id already taken.
  if (!isExplicit)
    for (let n = 2; ids.used.has(id) || ids.reserved.has(id); n++) id = `${slugifyId(name).slice(0, 38)}-${n}`;
  const candidate: Record<string, unknown> = isBuiltin
    ? { id, name, kind: f.kind ?? "custom", use: f.use, with: f.with, required: true }
    : { id, name, kind: f.kind ?? inferKind(command), command, required: true };
  if (f.timeout === undefined && defaults.timeoutSec !== null) candidate.timeoutSec = defaults.timeoutSec;
  if (f.required !== undefined) {
    const required = asBoolean(f.required);
    if (required === null) problems.push("required: write yes or no");
    else candidate.required = required;
  }
  if (f.timeout !== undefined) {
    const sec = parseDurationSec(f.timeout);
    if (sec === null) problems.push("timeout: not a duration (write 90, 90s, 15m or 1h)");
    else candidate.timeoutSec = sec;
  }
  if (f.expect_exit !== undefined)
    candidate.expectExit =
      typeof f.expect_exit === "string" && /^\d+$/.test(f.expect_exit) ? Number(f.expect_exit) : f.expect_exit;
  if (f.expect_stdout !== undefined) candidate.expectStdout = f.expect_stdout;
  if (f.cwd !== undefined) candidate.cwd = f.cwd;
  // A Markdown runbook writes the glob in backticks (a bare * reads as emphasis there).
  if (f.junit !== undefined)
    candidate.junit = typeof f.junit === "string" ? f.junit.replace(/^`([^`]*)`$/, "$1") : f.junit;
  if (f.proves_change !== undefined) {
    const proves = asBoolean(f.proves_change);
    if (proves === null) problems.push("proves_change: write yes or no");
    else candidate.provesChange = proves;
  }
  if (f.executor !== undefined)
    candidate.executor = typeof f.executor === "string" ? f.executor.trim().toLowerCase() : f.executor;
  if (f.hidden !== undefined) {
    const hidden = asBoolean(f.hidden);
    if (hidden === null) problems.push("hidden: write yes or no");
    else candidate.hidden = hidden;
  }
  if (f.env !== undefined)
    candidate.envPassthrough = typeof f.env === "string" ? f.env.split(/[,\s]+/).filter(Boolean) : f.env;
  if (problems.length === 0) {
    const parsed = ZCheck.safeParse(candidate);
    if (parsed.success) {
      if (ids.used.has(parsed.data.id)) problems.push(`id: "${parsed.data.id}" is used by another entry of this file`);
      else {
        ids.used.add(parsed.data.id);
        return { label: raw.label, check: parsed.data, problems: [] };
      }
    } else {
      for (const issue of parsed.error.issues) {
        const [field = "", ...rest] = issue.path.map(String);
        problems.push(
          `${[FIELD_NAMES[field] ?? field, ...(field === "with" ? rest : [])].join(".")}: ${issue.message}`,
        );
      }
    }
  }
  return { label: raw.label, check: null, problems };
}

function asParams(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function toChecks(raws: Raw[], defaults: FileDefaults = { timeoutSec: null }): ImportEntry[] {
  const ids: Ids = {
    used: new Set(),
    reserved: new Set(raws.flatMap((r) => (typeof r.fields.id === "string" ? [r.fields.id.trim()] : []))),
  };
  return raws.map((raw) => toCheck(raw, ids, defaults));
}

const YAML_KEYS = new Set([
  "run",
  "id",
  "name",
  "kind",
  "required",
  "timeout",
  "expect_exit",
  "expect_stdout",
  "cwd",
  "junit",
  "env",
  "env_passthrough",
  "proves_change",
  "use",
  "with",
  "executor",
  "hidden",
]);

// In YAML a leading "!" is a tag; in a gates file "! cmd" is a shell negation: keep it, quoted.
function quoteNegations(text: string): string {
  return text.replace(
    /^(\s*(?:-\s+)?(?:run:\s*)?)(!\s.*)$/gm,
    (_m, lead: string, value: string) => `${lead}'${value.replace(/'/g, "''")}'`,
  );
}

function parseYaml(text: string): ImportResult {
  let doc: unknown;
  try {
    doc = YAML.parse(quoteNegations(text));
  } catch (error) {
    const hint = /\{\s*TODO\b/i.test(text)
      ? " (an unquoted {TODO: …} blank is read as YAML: fill it in, or quote the command)"
      : "";
    return {
      format: "yaml",
      entries: [],
      fileProblem: `not valid YAML: ${(error as Error).message.split("\n")[0]}${hint}`,
    };
  }
  const proofBlock =
    doc && typeof doc === "object" && !Array.isArray(doc) ? (doc as { proof?: unknown }).proof : undefined;
  const proofRead =
    proofBlock === undefined
      ? { proof: null, proofProblems: [] }
      : proofBlock && typeof proofBlock === "object" && !Array.isArray(proofBlock)
        ? readProof(proofBlock as Record<string, unknown>)
        : {
            proof: null,
            proofProblems: [
              "proof: must be a map (test_patterns, require_tests, protected_paths, vacuous_policy, profile)",
            ],
          };
  const sourcesBlock =
    doc && typeof doc === "object" && !Array.isArray(doc)
      ? (doc as { check_sources?: unknown }).check_sources
      : undefined;
  const sourcesRead = sourcesBlock === undefined ? NO_CHECK_SOURCES : readCheckSources(sourcesBlock);
  const list = Array.isArray(doc)
    ? doc
    : doc && typeof doc === "object" && Array.isArray((doc as { gates?: unknown }).gates)
      ? (doc as { gates: unknown[] }).gates
      : null;
  if (!list)
    return {
      format: "yaml",
      entries: [],
      fileProblem: "expected a list under `gates:` (each entry a command, or a map with run:)",
    };
  const raws: Raw[] = list.map((item, i) => {
    const label = `entry ${i + 1}`;
    if (typeof item === "string")
      return { label: `${label}: ${item.split("\n")[0].slice(0, 60)}`, fields: { run: item }, problems: [] };
    if (!item || typeof item !== "object" || Array.isArray(item))
      return { label, fields: {}, problems: ["must be a command or a map with run:"] };
    if (Object.keys(item).length === 1 && /^TODO\b/i.test(Object.keys(item)[0]))
      return { label, fields: { run: item }, problems: [] };
    const fields: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const [key, value] of Object.entries(item)) {
      if (!YAML_KEYS.has(key))
        problems.push(
          `unknown field: ${key} (known: run, id, name, kind, required, timeout, expect_exit, expect_stdout, cwd, junit, env, proves_change, use, with, executor, hidden)`,
        );
      else fields[key === "env_passthrough" ? "env" : key] = value;
    }
    const title =
      typeof fields.name === "string"
        ? fields.name
        : typeof fields.run === "string"
          ? fields.run.split("\n")[0].slice(0, 60)
          : typeof fields.use === "string"
            ? fields.use
            : "";
    return { label: title ? `${label}: ${title}` : label, fields, problems };
  });
  const mergeRead = readMergeBlock(doc);
  const settingsOnly = Boolean(proofRead.proof || sourcesRead.checkSources || mergeRead.merge);
  return {
    format: "yaml",
    entries: toChecks(raws),
    fileProblem: list.length === 0 && !settingsOnly ? "the list under `gates:` is empty" : null,
    ...proofRead,
    ...sourcesRead,
    ...mergeRead,
  };
}

type MdBlock = {
  heading: string | null;
  body: { text: string; inFence: boolean }[];
  fences: { info: string; code: string[] }[];
  isOpen: boolean;
};

// Reads the "## Code Checks" section line by line: headings count only outside fenced blocks, and a
// fence closes only with the same character, at least as long, and nothing after it (CommonMark).
function parseMarkdown(text: string): ImportResult {
  const front = readFrontmatter(text.split(/\r?\n/));
  const lines = front.rest;
  let inSection = false;
  let fence: { char: string; length: number } | null = null;
  const blocks: MdBlock[] = [];
  let hasSection = false;
  for (const line of lines) {
    if (!fence) {
      const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
      if (heading && heading[1].length <= 2) {
        inSection = heading[1].length === 2 && /^code\s+checks$/i.test(heading[2]);
        hasSection ||= inSection;
        continue;
      }
      if (!inSection) continue;
      if (heading && heading[1].length === 3) {
        blocks.push({ heading: heading[2], body: [], fences: [], isOpen: false });
        continue;
      }
      const opening = /^\s{0,3}(`{3,}|~{3,})(.*)$/.exec(line);
      if (opening) {
        if (blocks.length === 0) blocks.push({ heading: null, body: [], fences: [], isOpen: false });
        fence = { char: opening[1][0], length: opening[1].length };
        blocks.at(-1)!.fences.push({ info: opening[2].trim(), code: [] });
        blocks.at(-1)!.isOpen = true;
        continue;
      }
      blocks.at(-1)?.body.push({ text: line, inFence: false });
    } else {
      const closing = new RegExp(`^\\s{0,3}\\${fence.char}{${fence.length},}\\s*$`).exec(line);
      const block = blocks.at(-1)!;
      if (closing) {
        fence = null;
        block.isOpen = false;
      } else block.fences.at(-1)!.code.push(line);
    }
  }
  const fileNotes = front.problems.length ? { fileNotes: front.problems } : {};
  if (!hasSection) return { format: "markdown", entries: [], fileProblem: "no “## Code Checks” section", ...fileNotes };
  if (blocks.length === 0)
    return {
      format: "markdown",
      entries: [],
      fileProblem: "the “## Code Checks” section has no “### id — name” headings",
    };
  const raws = blocks.map((block): Raw => {
    const problems: string[] = [];
    const fields: Record<string, unknown> = {};
    if (block.heading === null) problems.push("a command before the first “### id — name” heading: give it a heading");
    else {
      // "id — name" (an em or en dash), or "id - name" when what precedes the hyphen is an id.
      const dashed = /^(.+?)\s+[—–]\s+(.+)$/.exec(block.heading);
      const hyphened = /^(\S+)\s+-\s+(.+)$/.exec(block.heading);
      const split = dashed ?? (hyphened && CHECK_ID_LIKE.test(hyphened[1]) ? hyphened : null);
      if (split) {
        fields.id = split[1].trim();
        fields.name = split[2].trim();
      } else fields.name = block.heading;
    }
    for (const { text: line } of block.body) {
      const meta = /^\s*[-*]\s*([\w ]+?)\s*:\s*(.+?)\s*$/.exec(line);
      if (!meta) continue;
      const key = meta[1].trim().toLowerCase().replace(/\s+/g, "_");
      if (!YAML_KEYS.has(key) || key === "run" || key === "id" || key === "name")
        problems.push(`unknown field: ${meta[1].trim()}`);
      else fields[key === "env_passthrough" ? "env" : key] = meta[2].startsWith('"') ? safeJson(meta[2]) : meta[2];
    }
    if (block.isOpen && block.fences.length === 1) problems.push("a fenced block is not closed");
    // Only the first fence under a heading counts: later ones (an example output, a note) are not checks.
    if (block.fences.length === 0)
      problems.push(
        "no fenced command block: put the command in ```bash … ``` (```agent for an instruction, ```yaml with use: for a built-in)",
      );
    else {
      const read = readFence(block.fences[0].info, block.fences[0].code);
      if (
        typeof fields.executor === "string" &&
        read.fields.executor &&
        fields.executor.trim().toLowerCase() !== read.fields.executor
      )
        problems.push(`executor: the fence says ${read.fields.executor}, the list says ${fields.executor}`);
      problems.push(...read.problems);
      Object.assign(fields, read.fields);
    }
    return { label: block.heading ?? "(no heading)", fields, problems };
  });
  return {
    format: "markdown",
    entries: toChecks(raws, { timeoutSec: front.defaultTimeoutSec }),
    fileProblem: null,
    ...readMarkdownProof(lines),
    ...readMarkdownCheckSources(lines),
    ...readMarkdownMerge(lines),
    ...fileNotes,
  };
}

const CHECK_ID_LIKE = /^[a-z0-9][a-z0-9-_]{0,40}$/;

// A `## Proof` section: `- require_tests: required`, `- test_patterns: \`**/*.test.*\`, \`tests/**\`` (globs in
// backticks, or separated by spaces or ", ").
function readMarkdownProof(lines: string[]): { proof: ProofFileSettings | null; proofProblems: string[] } {
  let inProof = false;
  let fence: string | null = null;
  const fields: Record<string, unknown> = {};
  for (const line of lines) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) fence = fence === null ? f[1][0] : line.trim().startsWith(fence) ? null : fence;
    if (fence !== null || f) continue;
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading && heading[1].length <= 2) {
      inProof = heading[1].length === 2 && /^proof$/i.test(heading[2]);
      continue;
    }
    if (!inProof) continue;
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

function readMarkdownCheckSources(lines: string[]): CheckSourcesRead {
  let inSection = false;
  let isPresent = false;
  let fence: string | null = null;
  const list: Record<string, string>[] = [];
  const problems: string[] = [];
  for (const line of lines) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) fence = fence === null ? f[1][0] : line.trim().startsWith(fence) ? null : fence;
    if (fence !== null || f) continue;
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading && heading[1].length <= 2) {
      inSection = heading[1].length === 2 && /^check\s+sources$/i.test(heading[2]);
      isPresent ||= inSection;
      continue;
    }
    if (!inSection || !line.trim()) continue;
    const m = SOURCE_LINE.exec(line);
    if (m) list.push({ name: m[1], url: m[2], ref: m[3], ...(m[4] ? { secret: m[4] } : {}) });
    else if (/^\s*[-*]\s/.test(line))
      problems.push(`check_sources: "${line.trim()}" is not - NAME: \`URL\` at \`REF\` (secret \`NAME\`)`);
  }
  if (!isPresent) return NO_CHECK_SOURCES;
  const read = readCheckSources(list);
  return { ...read, checkSourceProblems: [...problems, ...read.checkSourceProblems] };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function parseGatesFile(text: string): ImportResult {
  if (!text.trim()) return { format: "unknown", entries: [], fileProblem: "the file is empty" };
  if (/^##\s+code\s+checks\s*$/im.test(text) || /^\s*(```|~~~)/m.test(text)) return parseMarkdown(text);
  return parseYaml(text);
}

// The Work settings a gates file carries besides its checks (each left out of the file when absent).
export type GatesFileSettings = {
  proof?: ProofFileSettings;
  checkSources?: readonly CheckSource[];
  merge?: MergePolicy;
};

export function toGatesYaml(checks: readonly Check[], settings: GatesFileSettings = {}): string {
  const { proof, checkSources, merge } = settings;
  const gates = checks.map((c) => ({
    id: c.id,
    name: c.name,
    kind: c.kind,
    required: c.required,
    ...(c.use !== undefined ? { use: c.use, with: c.with ?? {} } : { run: c.command }),
    ...(c.timeoutSec !== undefined ? { timeout: formatDurationSec(c.timeoutSec) } : {}),
    ...(c.expectExit !== undefined ? { expect_exit: c.expectExit } : {}),
    ...(c.expectStdout !== undefined ? { expect_stdout: c.expectStdout } : {}),
    ...(c.cwd !== undefined ? { cwd: c.cwd } : {}),
    ...(c.junit !== undefined ? { junit: c.junit } : {}),
    ...(c.envPassthrough?.length ? { env: c.envPassthrough } : {}),
    ...(c.provesChange !== undefined ? { proves_change: c.provesChange } : {}),
    ...(c.executor !== undefined ? { executor: c.executor } : {}),
    ...(c.hidden !== undefined ? { hidden: c.hidden } : {}),
  }));
  return YAML.stringify({
    gates,
    ...(proof && Object.keys(proof).length ? { proof: proofFileFields(proof) } : {}),
    ...(checkSources?.length ? { check_sources: checkSources } : {}),
    ...mergeYamlBlock(merge),
  });
}

function proofFileFields(proof: ProofFileSettings): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(PROOF_FILE_KEYS).flatMap(([key, field]) =>
      proof[field] === undefined ? [] : [[key, proof[field]]],
    ),
  );
}

export function toGatesMarkdown(checks: readonly Check[], settings: GatesFileSettings = {}): string {
  const { proof, checkSources, merge } = settings;
  const parts = ["## Code Checks", ""];
  for (const c of checks) {
    parts.push(`### ${c.id} — ${c.name}`, "");
    parts.push(`- kind: ${c.kind}`, `- required: ${c.required ? "yes" : "no"}`);
    if (c.timeoutSec !== undefined) parts.push(`- timeout: ${formatDurationSec(c.timeoutSec)}`);
    if (c.expectExit !== undefined) parts.push(`- expect_exit: ${c.expectExit}`);
    if (c.expectStdout !== undefined)
      parts.push(
        `- expect_stdout: ${/^\S(.*\S)?$/.test(c.expectStdout) && !c.expectStdout.includes("\n") && !c.expectStdout.startsWith('"') ? c.expectStdout : JSON.stringify(c.expectStdout)}`,
      );
    if (c.cwd !== undefined) parts.push(`- cwd: ${c.cwd}`);
    if (c.junit !== undefined) parts.push(`- junit: \`${c.junit}\``);
    if (c.envPassthrough?.length) parts.push(`- env: ${c.envPassthrough.join(", ")}`);
    if (c.provesChange !== undefined) parts.push(`- proves_change: ${c.provesChange ? "yes" : "no"}`);
    if (c.hidden !== undefined) parts.push(`- hidden: ${c.hidden ? "yes" : "no"}`);
    // The fence says what runs it: yaml for a built-in, agent for an agent check, bash for a command.
    const body = c.use !== undefined ? YAML.stringify({ use: c.use, with: c.with ?? {} }).trimEnd() : (c.command ?? "");
    const lang =
      c.use !== undefined
        ? "yaml"
        : c.executor === "agent"
          ? "agent"
          : c.executor === "platform"
            ? "bash executor=platform"
            : "bash";
    const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
    const fence = "`".repeat(longest + 1);
    parts.push("", `${fence}${lang}`, body, fence, "");
  }
  if (proof && Object.keys(proof).length) {
    parts.push("## Proof", "");
    for (const [key, value] of Object.entries(proofFileFields(proof)))
      parts.push(`- ${key}: ${Array.isArray(value) ? value.map((g) => `\`${g}\``).join(", ") : value}`);
    parts.push("");
  }
  if (checkSources?.length) {
    parts.push("## Check sources", "");
    for (const c of checkSources)
      parts.push(`- ${c.name}: \`${c.url}\` at \`${c.ref}\`${c.secret ? ` (secret \`${c.secret}\`)` : ""}`);
    parts.push("");
  }
  parts.push(...mergeMarkdownSection(merge));
  return parts.join("\n");
}
