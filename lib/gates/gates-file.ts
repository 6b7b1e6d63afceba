// Gates as files: a YAML list (`gates: - run: …`) or a Markdown runbook (`## Code Checks`, then
// `### id — name` and one fenced shell block per check). Import lists every entry that cannot become a
// check with its reason (nothing is dropped silently); export writes either shape.
import YAML from "yaml";
import { ZCheck, type Check } from "./check-schema";
import { formatDurationSec, parseDurationSec } from "./duration";
import { ZGlobList } from "./globs";
import { ZProfile, ZProofPolicy, type Profile, type ProofSettings } from "./work-schema";

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
};

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

// A template blank such as {TODO: the test command} (not ${TODO} or a regex like \{TODO[^}]*\}).
const TODO_BLANK = /(?<![$\\])\{\s*TODO\s*:[^}]*\}/i;
const SHELL_FENCES = new Set(["bash", "sh", "shell", "zsh", "console", "shell-session"]);
const FIELD_NAMES: Record<string, string> = {
  command: "run",
  timeoutSec: "timeout",
  expectExit: "expect_exit",
  expectStdout: "expect_stdout",
  envPassthrough: "env",
  provesChange: "proves_change",
};

type Raw = { label: string; fields: Record<string, unknown>; problems: string[] };

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

function toCheck(raw: Raw, ids: Ids): ImportEntry {
  const problems = [...raw.problems];
  const f = raw.fields;
  const isTodoMap = !!f.run && typeof f.run === "object" && Object.keys(f.run).some((k) => /^TODO\b/i.test(k));
  if (isTodoMap) problems.push("a {TODO: …} blank is left in the command: fill it in first");
  const run = typeof f.run === "string" ? f.run.replace(/\s+$/, "") : f.run === undefined ? "" : isTodoMap ? "" : null;
  const isFenceMissing = problems.some((p) => p.includes("fenced"));
  if (run === null) problems.push("run: must be text (the shell command)");
  else if (run.trim() === "" && !isFenceMissing && !isTodoMap)
    problems.push("empty command: write the shell command to run");
  else if (TODO_BLANK.test(run)) problems.push("a {TODO: …} blank is left in the command: fill it in first");
  const command = run ?? "";
  const name =
    typeof f.name === "string" && f.name.trim()
      ? f.name.trim()
      : command.split("\n")[0].trim().slice(0, 120) || raw.label;
  if (f.id !== undefined && typeof f.id !== "string") problems.push("id: must be text");
  const isExplicit = typeof f.id === "string" && f.id.trim() !== "";
  let id = isExplicit ? (f.id as string).trim() : slugifyId(name);
  // A derived id steps around every id the file names and every id already taken.
  if (!isExplicit)
    for (let n = 2; ids.used.has(id) || ids.reserved.has(id); n++) id = `${slugifyId(name).slice(0, 38)}-${n}`;
  const candidate: Record<string, unknown> = { id, name, kind: f.kind ?? inferKind(command), command, required: true };
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
  if (f.proves_change !== undefined) {
    const proves = asBoolean(f.proves_change);
    if (proves === null) problems.push("proves_change: write yes or no");
    else candidate.provesChange = proves;
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
        const field = String(issue.path[0] ?? "");
        problems.push(`${FIELD_NAMES[field] ?? field}: ${issue.message}`);
      }
    }
  }
  return { label: raw.label, check: null, problems };
}

function toChecks(raws: Raw[]): ImportEntry[] {
  const ids: Ids = {
    used: new Set(),
    reserved: new Set(raws.flatMap((r) => (typeof r.fields.id === "string" ? [r.fields.id.trim()] : []))),
  };
  return raws.map((raw) => toCheck(raw, ids));
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
  "env",
  "env_passthrough",
  "proves_change",
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
          `unknown field: ${key} (known: run, id, name, kind, required, timeout, expect_exit, expect_stdout, cwd, env, proves_change)`,
        );
      else fields[key === "env_passthrough" ? "env" : key] = value;
    }
    const title =
      typeof fields.name === "string"
        ? fields.name
        : typeof fields.run === "string"
          ? fields.run.split("\n")[0].slice(0, 60)
          : "";
    return { label: title ? `${label}: ${title}` : label, fields, problems };
  });
  return {
    format: "yaml",
    entries: toChecks(raws),
    fileProblem: list.length === 0 && !proofRead.proof ? "the list under `gates:` is empty" : null,
    ...proofRead,
  };
}

type MdBlock = {
  heading: string | null;
  body: { text: string; inFence: boolean }[];
  fences: { lang: string; code: string[] }[];
  isOpen: boolean;
};

// Reads the "## Code Checks" section line by line: headings count only outside fenced blocks, and a
// fence closes only with the same character, at least as long, and nothing after it (CommonMark).
function parseMarkdown(text: string): ImportResult {
  const lines = text.split(/\r?\n/);
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
      const opening =
        /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)\s*$/.exec(line) ?? /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
      if (opening) {
        if (blocks.length === 0) blocks.push({ heading: null, body: [], fences: [], isOpen: false });
        fence = { char: opening[1][0], length: opening[1].length };
        blocks.at(-1)!.fences.push({ lang: opening[2].toLowerCase(), code: [] });
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
  if (!hasSection) return { format: "markdown", entries: [], fileProblem: "no “## Code Checks” section" };
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
    if (block.isOpen) problems.push("a fenced block is not closed");
    if (block.fences.length === 0) problems.push("no fenced command block: put the command in ```bash … ```");
    else if (block.fences.length > 1) problems.push("more than one fenced block: keep one command per check");
    else if (!SHELL_FENCES.has(block.fences[0].lang))
      problems.push(
        `the fenced block is marked “${block.fences[0].lang || "nothing"}”: mark it bash or sh to say it is a shell command`,
      );
    if (block.fences.length >= 1) fields.run = block.fences[0].code.join("\n");
    return { label: block.heading ?? "(no heading)", fields, problems };
  });
  return { format: "markdown", entries: toChecks(raws), fileProblem: null, ...readMarkdownProof(lines) };
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

export function toGatesYaml(checks: readonly Check[], proof?: ProofFileSettings): string {
  const gates = checks.map((c) => ({
    id: c.id,
    name: c.name,
    kind: c.kind,
    required: c.required,
    run: c.command,
    ...(c.timeoutSec !== undefined ? { timeout: formatDurationSec(c.timeoutSec) } : {}),
    ...(c.expectExit !== undefined ? { expect_exit: c.expectExit } : {}),
    ...(c.expectStdout !== undefined ? { expect_stdout: c.expectStdout } : {}),
    ...(c.cwd !== undefined ? { cwd: c.cwd } : {}),
    ...(c.envPassthrough?.length ? { env: c.envPassthrough } : {}),
    ...(c.provesChange !== undefined ? { proves_change: c.provesChange } : {}),
  }));
  return YAML.stringify({ gates, ...(proof && Object.keys(proof).length ? { proof: proofFileFields(proof) } : {}) });
}

function proofFileFields(proof: ProofFileSettings): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(PROOF_FILE_KEYS).flatMap(([key, field]) =>
      proof[field] === undefined ? [] : [[key, proof[field]]],
    ),
  );
}

export function toGatesMarkdown(checks: readonly Check[], proof?: ProofFileSettings): string {
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
    if (c.envPassthrough?.length) parts.push(`- env: ${c.envPassthrough.join(", ")}`);
    if (c.provesChange !== undefined) parts.push(`- proves_change: ${c.provesChange ? "yes" : "no"}`);
    const longest = Math.max(2, ...Array.from(c.command.matchAll(/`+/g), (m) => m[0].length));
    const fence = "`".repeat(longest + 1);
    parts.push("", `${fence}bash`, c.command, fence, "");
  }
  if (proof && Object.keys(proof).length) {
    parts.push("## Proof", "");
    for (const [key, value] of Object.entries(proofFileFields(proof)))
      parts.push(`- ${key}: ${Array.isArray(value) ? value.map((g) => `\`${g}\``).join(", ") : value}`);
    parts.push("");
  }
  return parts.join("\n");
}
