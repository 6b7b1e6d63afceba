// A gates file's entries, whatever its format: the fields of one entry (a YAML map, a runbook's `### id —
// name` block and its fence) become a check, or the reasons it cannot be one (nothing is dropped silently).
import { describeBuiltin } from "../builtins";
import { ZCheck, ZCheckId, type Check } from "../check-schema";
import { formatDurationSec, parseDurationSec } from "../duration";
import { TODO_BLANK } from "../placeholders";

export type ImportEntry = { label: string; check: Check | null; problems: string[] };

const FIELD_NAMES: Record<string, string> = {
  command: "run",
  timeoutSec: "timeout",
  expectExit: "expect_exit",
  expectStdout: "expect_stdout",
  envPassthrough: "env",
  provesChange: "proves_change",
};

export type Raw = { label: string; fields: Record<string, unknown>; problems: string[] };
// Settings of the whole file that its entries inherit (a runbook's frontmatter default timeout).
export type FileDefaults = { timeoutSec: number | null };

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
  const before = problems.length;
  if (isBuiltin) {
    if (f.run !== undefined) problems.push("run and use: a check runs a command or a built-in, not both");
  } else if (run === null) problems.push("run: must be text (the shell command)");
  else if (run.trim() === "" && !isFenceMissing && !isTodoMap)
    problems.push("empty command: write the shell command to run");
  else if (TODO_BLANK.test(run)) problems.push("a {TODO: …} blank is left in the command: fill it in first");
  // The command's problem is said above in the file's own words; the schema would only say it again.
  const isCommandJudged = isTodoMap || isFenceMissing || problems.length > before;
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
  // The schema judges the entry even when the file's own rules have refused something, and a refused
  // entry's id still takes its place, so one reading lists every problem: fixing one never reveals the next.
  const parsed = ZCheck.safeParse(candidate);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const [field = "", ...rest] = issue.path.map(String);
      if (field === "command" && isCommandJudged) continue;
      problems.push(`${[FIELD_NAMES[field] ?? field, ...(field === "with" ? rest : [])].join(".")}: ${issue.message}`);
    }
  if (ZCheckId.safeParse(id).success) {
    if (ids.used.has(id)) problems.push(`id: "${id}" is used by another entry of this file`);
    ids.used.add(id);
  }
  if (parsed.success && problems.length === 0) return { label: raw.label, check: parsed.data, problems: [] };
  return { label: raw.label, check: null, problems };
}

function asParams(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function toChecks(raws: Raw[], defaults: FileDefaults = { timeoutSec: null }): ImportEntry[] {
  const ids: Ids = {
    used: new Set(),
    reserved: new Set(raws.flatMap((r) => (typeof r.fields.id === "string" ? [r.fields.id.trim()] : []))),
  };
  return raws.map((raw) => toCheck(raw, ids, defaults));
}

// The fields an entry may have (a runbook's `- key: value` lines use the same names).
export const YAML_KEYS = new Set([
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

// A YAML list's entries (commands, or maps with run: or use:) as a gates file's raw entries.
export function yamlRaws(list: readonly unknown[]): Raw[] {
  return list.map((item, i) => {
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
          `unknown field: ${key} (known: run, id, name, kind, required, timeout, expect_exit, expect_stdout, ` +
            "cwd, junit, env, proves_change, use, with, executor, hidden)",
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
}

// One check as a YAML entry (the names a gates file uses).
export function yamlEntryOf(c: Check): Record<string, unknown> {
  return {
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
  };
}
