// The editors' working copy of a check: every field as the person typed it (numbers as text), turned
// back into the object the shared schema validates. Nothing here guesses: "abc" in a number field stays
// "abc", so the schema's own message ("must be a whole number of seconds") is what the person sees.
import { BUILTIN_PARAM_FIELDS, isBuiltinName } from "../gates/builtins";
import type { Check, CheckExecutor } from "../gates/check-schema";

export type CheckForm = {
  key: string;
  id: string;
  name: string;
  kind: string;
  required: boolean;
  command: string;
  // "" runs the command; otherwise the built-in's name, with each parameter as typed (a list one per line).
  use: string;
  params: Record<string, string>;
  cwd: string;
  timeoutSec: string;
  expectExit: string;
  expectStdout: string;
  envPassthrough: string;
  // The JUnit reports' glob ("" declares none).
  junit: string;
  // "" leaves provesChange unset (the default: true for checks a task added); "yes" / "no" set it.
  provesChange: "" | "yes" | "no";
  // Who runs it (a check left unset is platform's), and whether the agent may see it.
  executor: CheckExecutor;
  hidden: boolean;
  disabled: boolean;
  // Typed as a new check in a task's editor: it stays a new check whatever its id reads, never turning
  // into an override of a default whose id it passes through ("unit" on the way to "unit-discount").
  isAdded?: boolean;
  // Just added with "+ Add a check" and not typed in yet: its fields' problems wait until it is (the save bar
  // still counts them, and saving stays off), so a blank new check does not open in red.
  isUntouched?: boolean;
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
    use: check.use ?? "",
    params: Object.fromEntries(
      Object.entries(check.with ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("\n") : String(v)]),
    ),
    cwd: check.cwd ?? "",
    timeoutSec: check.timeoutSec === undefined ? "" : String(check.timeoutSec),
    expectExit: check.expectExit === undefined ? "" : String(check.expectExit),
    expectStdout: check.expectStdout ?? "",
    envPassthrough: (check.envPassthrough ?? []).join(", "),
    junit: check.junit ?? "",
    provesChange: check.provesChange === undefined ? "" : check.provesChange ? "yes" : "no",
    executor: check.executor ?? "platform",
    hidden: check.hidden === true,
    disabled: check.disabled === true,
  };
}

export function emptyForm(id: string): CheckForm {
  return { ...formFromCheck({ id, name: "", kind: "test", command: "", required: true }), isUntouched: true };
}

// A task's new check: see `isAdded`.
export function addedForm(id: string): CheckForm {
  return { ...emptyForm(id), isAdded: true };
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
    ...(form.use ? { use: form.use, with: paramsFromForm(form) } : { command: form.command }),
    required: form.required,
  };
  const timeout = numberOrText(form.timeoutSec);
  if (timeout !== undefined) out.timeoutSec = timeout;
  // The fields only a command has (a built-in's editor hides them; what was typed there is kept in the form).
  if (!form.use) {
    if (form.cwd.trim()) out.cwd = form.cwd.trim();
    const exit = numberOrText(form.expectExit);
    if (exit !== undefined) out.expectExit = exit;
    if (form.expectStdout !== "") out.expectStdout = form.expectStdout;
    const names = splitNames(form.envPassthrough);
    if (names.length) out.envPassthrough = names;
    // As typed (spaces included): the schema says what is wrong with it.
    if (form.junit !== "") out.junit = form.junit;
  }
  if (form.provesChange) out.provesChange = form.provesChange === "yes";
  if (form.executor === "agent") out.executor = "agent";
  if (form.hidden) out.hidden = true;
  return out;
}

// A built-in's parameters as typed: numbers as whole numbers (or text for the schema to refuse), lists one
// entry per non-blank line, empty fields left out (a required one is then named by the schema).
function paramsFromForm(form: CheckForm): Record<string, unknown> {
  const fields = isBuiltinName(form.use) ? BUILTIN_PARAM_FIELDS[form.use] : [];
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const text = form.params[field.name] ?? "";
    if (text.trim() === "") continue;
    out[field.name] =
      field.type === "number"
        ? wholeNumberOrText(text)
        : field.type === "lines"
          ? text.split("\n").filter((line) => line.trim() !== "")
          : text;
  }
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
    // A built-in's parameters are fields of their own ("with.path").
    const key = field === "with" && rest.length ? `with.${rest.shift()}` : (field ?? "");
    if (!map.has(key)) map.set(key, rest.length ? `${message} (entry ${Number(rest[0]) + 1})` : message);
  }
  return map;
}

// The error paths that belong to a check just added and not typed in yet (`listKey.N.…` where entry N is
// untouched): its fields keep them to themselves, so the save bar counts them apart, as "to fill in".
export function isUntouchedCheckError(path: string, listKey: string, list: readonly CheckForm[]): boolean {
  const [key, index, field] = path.split(".");
  return key === listKey && field !== undefined && !!list[Number(index)]?.isUntouched;
}
