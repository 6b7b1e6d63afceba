// The editors' working copy of a check: every field as the person typed it (numbers as text), turned
// back into the object the shared schema validates. Nothing here guesses: "abc" in a number field stays
// "abc", so the schema's own message ("must be a whole number of seconds") is what the person sees.
import type { Check, CheckExecutor } from "../gates/check-schema";

export type CheckForm = {
  key: string;
  id: string;
  name: string;
  kind: string;
  required: boolean;
  command: string;
  cwd: string;
  timeoutSec: string;
  expectExit: string;
  expectStdout: string;
  envPassthrough: string;
  // "" leaves provesChange unset (the default: true for checks a task added); "yes" / "no" set it.
  provesChange: "" | "yes" | "no";
  // Who runs it (a check left unset is platform's), and whether the agent may see it.
  executor: CheckExecutor;
  hidden: boolean;
  disabled: boolean;
};

let counter = 0;
export const newKey = () => `k${Date.now().toString(36)}${(counter++).toString(36)}`;

export function formFromCheck(check: Partial<Check> & { id: string; disabled?: boolean }): CheckForm {
  return {
    key: newKey(),
    id: check.id,
    name: check.name ?? "",
    kind: check.kind ?? "custom",
    required: check.required ?? true,
    command: check.command ?? "",
    cwd: check.cwd ?? "",
    timeoutSec: check.timeoutSec === undefined ? "" : String(check.timeoutSec),
    expectExit: check.expectExit === undefined ? "" : String(check.expectExit),
    expectStdout: check.expectStdout ?? "",
    envPassthrough: (check.envPassthrough ?? []).join(", "),
    provesChange: check.provesChange === undefined ? "" : check.provesChange ? "yes" : "no",
    executor: check.executor ?? "platform",
    hidden: check.hidden === true,
    disabled: check.disabled === true,
  };
}

export function emptyForm(id: string): CheckForm {
  return formFromCheck({ id, name: "", kind: "test", command: "", required: true });
}

// A number field as typed: a whole number becomes a number, anything else stays text (trimmed) for the
// schema to refuse with its own message.
export function wholeNumberOrText(text: string): number | string {
  const t = text.trim();
  return /^-?\d+$/.test(t) ? Number(t) : t;
}

// The same, but an empty field is left out.
function numberOrText(text: string): number | string | undefined {
  return text.trim() === "" ? undefined : wholeNumberOrText(text);
}

// A list of environment variable names as typed: separated by commas and/or whitespace.
export function splitNames(text: string): string[] {
  return text.split(/[,\s]+/).filter(Boolean);
}

export function checkFromForm(form: CheckForm): Record<string, unknown> {
  if (form.disabled) return { id: form.id, disabled: true };
  const out: Record<string, unknown> = {
    id: form.id,
    name: form.name,
    kind: form.kind,
    command: form.command,
    required: form.required,
  };
  if (form.cwd.trim()) out.cwd = form.cwd.trim();
  const timeout = numberOrText(form.timeoutSec);
  if (timeout !== undefined) out.timeoutSec = timeout;
  const exit = numberOrText(form.expectExit);
  if (exit !== undefined) out.expectExit = exit;
  if (form.expectStdout !== "") out.expectStdout = form.expectStdout;
  const names = splitNames(form.envPassthrough);
  if (names.length) out.envPassthrough = names;
  if (form.provesChange) out.provesChange = form.provesChange === "yes";
  if (form.executor === "agent") out.executor = "agent";
  if (form.hidden) out.hidden = true;
  return out;
}

// A check with a fresh id no other entry uses (for "add" and "duplicate").
export function freeId(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const stem = (base.replace(/-\d+$/, "") || "check").slice(0, 37);
  if (!used.has(stem)) return stem;
  for (let n = 2; ; n++) if (!used.has(`${stem}-${n}`)) return `${stem}-${n}`;
}

// The errors under `prefix.` with that prefix taken off ("checkDefaults.2.command" → "2.command" for
// "checkDefaults"): a list editor's errors as "index.field" → message.
export function errorsByField(errors: Map<string, string>, prefix: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const [path, message] of errors)
    if (path.startsWith(`${prefix}.`)) map.set(path.slice(prefix.length + 1), message);
  return map;
}

export type { Check };

// The errors of list entry `index`, by field ("envPassthrough.1" counts as envPassthrough).
export function errorsOfEntry(errors: Map<string, string>, index: number): Map<string, string> {
  const map = new Map<string, string>();
  for (const [path, message] of errors) {
    const [at, field, ...rest] = path.split(".");
    if (at !== String(index)) continue;
    const key = field ?? "";
    if (!map.has(key)) map.set(key, rest.length ? `${message} (entry ${Number(rest[0]) + 1})` : message);
  }
  return map;
}
