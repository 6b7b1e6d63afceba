// Built-in checks (SPEC Part 2): `use` + `with` instead of `command`. Gatehouse runs them itself, without a
// shell, so no parameter can inject a command. Here: their names, each parameter's rule (checked when
// saved, each by name, e.g. checkDefaults.2.with.path), and the messages their results carry. Running them
// is in lib/runner/builtins.
import { z } from "zod";
import { ZGlob } from "./globs";
import { placeholderProblem } from "./placeholders";

export const BUILTIN_NAMES = [
  "json_valid",
  "file_exists",
  "file_contains",
  "min_words",
  "no_match",
  "http_ok",
  "file_has",
  "research",
  "tasks_done",
  "verify",
] as const;
export type BuiltinName = (typeof BUILTIN_NAMES)[number];

export function isBuiltinName(name: unknown): name is BuiltinName {
  return typeof name === "string" && (BUILTIN_NAMES as readonly string[]).includes(name);
}

// A path relative to {{results_dir}} (or starting with {{assets_dir}} / {{checks_dir}}). Symlinks are
// resolved and checked when the check runs.
const ZResultPath = z
  .string({
    error: (i) => (i.input === undefined ? "required: a file path relative to the results directory" : "must be text"),
  })
  .min(1, "required: a file path relative to the results directory")
  .max(500, "at most 500 characters")
  .superRefine((value, ctx) => {
    const rest = value.replace(/^\{\{\s*(results_dir|assets_dir|checks_dir)\s*\}\}\/?/, "");
    const problem = /[\0\n\r]/.test(value)
      ? "must not contain NUL or line breaks"
      : rest.startsWith("/") || rest.startsWith("~")
        ? "must be relative to the results directory, not absolute"
        : rest.split("/").includes("..")
          ? "must stay inside the results directory: '..' is not allowed"
          : placeholderProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

// Nested unbounded quantifiers ((a+)+, (\w*)*, (x+){2,}) can take exponential time on a line that almost
// matches. Refused when saved; anything that gets past this is still bounded by the check's timeout.
export function catastrophicRegexProblem(pattern: string): string | null {
  const groups: { hasUnbounded: boolean }[] = [{ hasUnbounded: false }];
  let lastGroup: { hasUnbounded: boolean } | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      lastGroup = null;
      continue;
    }
    if (c === "[") {
      for (i++; i < pattern.length && pattern[i] !== "]"; i++) if (pattern[i] === "\\") i++;
      lastGroup = null;
      continue;
    }
    if (c === "(") {
      groups.push({ hasUnbounded: false });
      lastGroup = null;
      continue;
    }
    if (c === ")") {
      lastGroup = groups.length > 1 ? groups.pop()! : null;
      continue;
    }
    const quantifier = /^(?:[*+]|\{(\d+)(,(\d*))?\})/.exec(pattern.slice(i));
    if (!quantifier) {
      if (c !== "?") lastGroup = null;
      continue;
    }
    const isUnbounded =
      quantifier[0] === "*" || quantifier[0] === "+" || (quantifier[2] !== undefined && quantifier[3] === "");
    const repeats = isUnbounded || Number(quantifier[3] ?? quantifier[1]) > 1;
    if (lastGroup?.hasUnbounded && repeats)
      return (
        "a repeated group holds a repeated part (like (a+)+): it can take exponential time; " +
        "write it without the nesting"
      );
    if (isUnbounded) groups.at(-1)!.hasUnbounded = true;
    if (lastGroup?.hasUnbounded) groups.at(-1)!.hasUnbounded = true;
    i += quantifier[0].length - 1;
    lastGroup = null;
  }
  return null;
}

const ZPattern = z
  .string({ error: (i) => (i.input === undefined ? "required: a regular expression" : "must be text") })
  .min(1, "required: a regular expression")
  .max(500, "at most 500 characters")
  .superRefine((pattern, ctx) => {
    try {
      new RegExp(pattern);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: `not a regular expression: ${(error as Error).message}` });
      return;
    }
    const problem = catastrophicRegexProblem(pattern);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const LOOPBACK_NAMES = new Set(["localhost", "localhost.", "[::1]"]);

// Whether an address (as DNS or a URL gives it) is loopback: 127.0.0.0/8 or ::1 (also IPv4-mapped).
export function isLoopbackAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, "").toLowerCase();
  if (a === "::1" || a === "0:0:0:0:0:0:0:1") return true;
  const v4 = a.startsWith("::ffff:") ? a.slice(7) : a;
  const parts = v4.split(".");
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255) && parts[0] === "127";
}

const ZLoopbackUrl = z
  .string({
    error: (i) =>
      i.input === undefined ? "required: a URL on this machine, e.g. http://127.0.0.1:3000/health" : "must be text",
  })
  .max(2000, "at most 2000 characters")
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "not a URL: write it whole, e.g. http://127.0.0.1:3000/health" });
      return;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      ctx.addIssue({ code: "custom", message: "must be an http:// or https:// URL" });
    else if (url.username || url.password)
      ctx.addIssue({ code: "custom", message: "must not carry a user name or password" });
    else if (!LOOPBACK_NAMES.has(url.hostname.toLowerCase()) && !isLoopbackAddress(url.hostname))
      ctx.addIssue({
        code: "custom",
        message: `must be on this machine (localhost, 127.0.0.0/8 or [::1]); ${url.hostname} is refused`,
      });
  });

const ZFileParams = z.strictObject({ path: ZResultPath }, { error: unknownParam });

const ZTexts = z
  .array(z.string({ error: "must be text" }).min(1, "must not be empty").max(500, "at most 500 characters"), {
    error: "must be a list of texts",
  })
  .max(50, "at most 50 texts");

// A yes/no parameter: true or false (the editor types it as text: yes, no, true, false).
const ZYesNo = z
  .union([z.boolean(), z.enum(["yes", "no", "true", "false"])], { error: "must be yes or no" })
  .transform((v) => v === true || v === "yes" || v === "true");

// A use case folder's name (usecases/<id>/): a slug, so it can never leave the folder.
const ZUseCaseSet = z
  .string({
    error: (i) => (i.input === undefined ? "required: the use cases' folder under usecases/" : "must be text"),
  })
  .regex(/^[a-z0-9][a-z0-9-_]{0,40}$/, "lowercase letters, digits, - and _ only (a folder under usecases/)");

// Each built-in's parameters; the messages name the parameter and the rule.
export const BUILTIN_PARAMS = {
  json_valid: ZFileParams,
  file_exists: ZFileParams,
  file_contains: z.strictObject(
    {
      path: ZResultPath,
      strings: z
        .array(z.string({ error: "must be text" }).min(1, "must not be empty").max(500, "at most 500 characters"), {
          error: (i) =>
            i.input === undefined ? "required: the texts the file must contain" : "must be a list of texts",
        })
        .min(1, "required: at least one text the file must contain")
        .max(50, "at most 50 texts"),
    },
    { error: unknownParam },
  ),
  min_words: z.strictObject(
    {
      path: ZResultPath,
      count: z
        .number({
          error: (i) => (i.input === undefined ? "required: how many words at least" : "must be a whole number"),
        })
        .int("must be a whole number")
        .min(1, "at least 1")
        .max(10_000_000, "at most 10000000"),
    },
    { error: unknownParam },
  ),
  no_match: z.strictObject(
    {
      glob: z
        .string({
          error: (i) => (i.input === undefined ? "required: which files to search, e.g. src/**/*.ts" : "must be text"),
        })
        .pipe(ZGlob),
      pattern: ZPattern,
    },
    { error: unknownParam },
  ),
  http_ok: z.strictObject(
    {
      url: ZLoopbackUrl,
      status: z
        .number({ error: "must be an HTTP status code (100–599)" })
        .int("must be an HTTP status code (100–599)")
        .min(100, "must be an HTTP status code (100–599)")
        .max(599, "must be an HTTP status code (100–599)")
        .optional(),
    },
    { error: unknownParam },
  ),
  // Stage checks (issue 26), after the seed's helpers.
  file_has: z.strictObject({ path: ZResultPath, strings: ZTexts.optional() }, { error: unknownParam }),
  research: z.strictObject(
    {
      path: ZResultPath,
      sources: z
        .number({ error: "must be a whole number" })
        .int("must be a whole number")
        .min(1, "at least 1")
        .max(50, "at most 50")
        .optional(),
      online: ZYesNo.optional(),
    },
    { error: unknownParam },
  ),
  tasks_done: ZFileParams,
  verify: z.strictObject({ id: ZUseCaseSet, base_url: ZLoopbackUrl.optional() }, { error: unknownParam }),
} satisfies Record<BuiltinName, z.ZodType>;

export const DEFAULT_RESEARCH_SOURCES = 2;

export type BuiltinParams = { [K in BuiltinName]: z.infer<(typeof BUILTIN_PARAMS)[K]> };

function unknownParam(issue: { code?: string; keys?: string[] }): string {
  return issue.code === "unrecognized_keys"
    ? `unknown parameter: ${(issue.keys ?? []).join(", ")}`
    : "must be an object of parameters, e.g. { path: output.json }";
}

// What a built-in needs, in words (editor hints, the brief, error messages).
export const BUILTIN_SUMMARY: Record<BuiltinName, string> = {
  json_valid: "the file at path is valid JSON",
  file_exists: "the file at path exists and is not empty",
  file_contains: "the file at path contains every one of strings",
  min_words: "the file at path has at least count words",
  no_match: "no line of the files matching glob matches pattern (a regular expression)",
  http_ok: "a GET of url (on this machine) answers status (any 2xx when unset)",
  file_has: "the file at path exists, is not empty and contains every one of strings",
  research:
    "the file at path has a verdict: line and at least sources (2 unless set) - source: <url> — <note> lines; " +
    "with online, each url answers 2xx or 3xx",
  tasks_done: "the file at path has no unchecked - [ ] box left",
  verify:
    "every use case in usecases/<id>/*.yaml passes its cli layer (and its api layer against base_url); " +
    "writes evidence/<id>/verify.md",
};

// The parameters of each built-in and how the editor shows them.
export const BUILTIN_PARAM_FIELDS: Record<
  BuiltinName,
  { name: string; type: "text" | "lines" | "number"; optional?: boolean }[]
> = {
  json_valid: [{ name: "path", type: "text" }],
  file_exists: [{ name: "path", type: "text" }],
  file_contains: [
    { name: "path", type: "text" },
    { name: "strings", type: "lines" },
  ],
  min_words: [
    { name: "path", type: "text" },
    { name: "count", type: "number" },
  ],
  no_match: [
    { name: "glob", type: "text" },
    { name: "pattern", type: "text" },
  ],
  http_ok: [
    { name: "url", type: "text" },
    { name: "status", type: "number", optional: true },
  ],
  file_has: [
    { name: "path", type: "text" },
    { name: "strings", type: "lines", optional: true },
  ],
  research: [
    { name: "path", type: "text" },
    { name: "sources", type: "number", optional: true },
    { name: "online", type: "text", optional: true },
  ],
  tasks_done: [{ name: "path", type: "text" }],
  verify: [
    { name: "id", type: "text" },
    { name: "base_url", type: "text", optional: true },
  ],
};

// A one-line description of a built-in check (rows, the brief, exports' names): `json_valid output.json`.
export function describeBuiltin(use: string, params: Record<string, unknown> | undefined): string {
  const args = Object.entries(params ?? {}).map(
    ([k, v]) =>
      `${k}=${
        Array.isArray(v)
          ? v.map((s) => JSON.stringify(s)).join(",")
          : typeof v === "string"
            ? JSON.stringify(v)
            : String(v)
      }`,
  );
  return [use, ...args].join(" ");
}

// What a check runs, as one text: its command, or its built-in with parameters (rows, the brief, masking).
export function whatCheckRuns(check: { command?: string; use?: string; with?: Record<string, unknown> }): string {
  return check.use !== undefined ? describeBuiltin(check.use, check.with) : (check.command ?? "");
}
