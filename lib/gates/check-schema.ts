// The Check object and its lists, exactly as the SPEC's table says. One schema serves the API,
// the Server Actions and the editors' live validation; every message names the rule it enforces.
import { z } from "zod";
import { BUILTIN_NAMES, BUILTIN_PARAMS, isBuiltinName } from "./builtins";
import { refuseDuplicateIds } from "./duplicate-ids";
import { ZEnvNameList } from "./env-names";
import { DISABLED_IN_DEFAULTS } from "./field-issues";
import { CHECK_KINDS } from "./check-kinds";
import { ZGlob } from "./globs";
import { placeholderProblem } from "./placeholders";

// Who runs a check: Gatehouse after the agent (platform, the default) or the agent, which reports it.
export const CHECK_EXECUTORS = ["platform", "agent"] as const;
export type CheckExecutor = (typeof CHECK_EXECUTORS)[number];
export const MAX_CHECKS = 20;
export const DEFAULT_TIMEOUT_SEC = 600;
export const CHECK_ID_PATTERN = /^[a-z0-9][a-z0-9-_]{0,40}$/;

// "required" when the field is missing, otherwise what type it must be.
const requiredOr = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "required" : what);

export const ZCheckId = z
  .string({ error: requiredOr("must be text") })
  .regex(
    CHECK_ID_PATTERN,
    "lowercase letters, digits, - and _ only, starting with a letter or digit, at most 41 characters",
  );

// A directory relative to the checkout root that cannot leave it (symlinks are checked when the check runs).
export const ZCheckCwd = z
  .string({ error: "must be text" })
  .min(1, "must not be empty (leave it out to run in the checkout root)")
  .max(500, "at most 500 characters")
  .refine((v) => !v.includes("\0"), "must not contain NUL characters")
  .refine((v) => !v.startsWith("/") && !v.startsWith("~"), "must be relative to the checkout root, not absolute")
  .refine((v) => !v.split("/").includes(".."), "must stay inside the checkout: '..' is not allowed");

function unknownFieldMessage(issue: { code?: string; keys?: string[] }): string {
  if (issue.code !== "unrecognized_keys") return "must be a check object";
  const keys = issue.keys ?? [];
  const others = keys.filter((k) => k !== "disabled");
  const parts = [];
  if (others.length > 0) parts.push(`unknown field: ${others.join(", ")}`);
  if (keys.includes("disabled")) parts.push(`disabled: ${DISABLED_IN_DEFAULTS}`);
  return parts.join("; ");
}

// Duplicate ids are reported together with the other errors of a list, not only once those are fixed.
const EVEN_WITH_OTHER_ERRORS = { when: (payload: { value: unknown }) => Array.isArray(payload.value) };

const checkFields = {
  id: ZCheckId,
  name: z
    .string({ error: requiredOr("must be text") })
    .trim()
    .min(1, "required: 1–120 characters saying what passing means")
    .max(120, "at most 120 characters"),
  kind: z.enum(CHECK_KINDS, {
    error: (issue) =>
      issue.input === undefined
        ? "required: one of build, test, lint, typecheck, custom"
        : "must be one of build, test, lint, typecheck, custom",
  }),
  command: z
    .string({ error: requiredOr("must be text") })
    .max(2000, "at most 2000 characters")
    .refine((v) => v.trim().length > 0, "required: the shell command to run (1–2000 characters)")
    .refine((v) => !v.includes("\0"), "must not contain NUL characters")
    .superRefine((v, ctx) => {
      const problem = placeholderProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional(),
  // A built-in check instead of a command (lib/gates/builtins.ts): `use` names it, `with` holds its parameters.
  use: z
    .string({ error: "must be text: the name of a built-in check" })
    .superRefine((v, ctx) => {
      if (!isBuiltinName(v))
        ctx.addIssue({ code: "custom", message: `unknown built-in "${v}": use one of ${BUILTIN_NAMES.join(", ")}` });
    })
    .optional(),
  with: z
    .record(
      z.string(),
      z.union([z.string(), z.number(), z.boolean(), z.array(z.string())], {
        error: "must be text, a number, true/false or a list of texts",
      }),
      { error: "must be an object of parameters, e.g. { path: output.json }" },
    )
    .optional(),
  required: z.boolean({
    error: (issue) => (issue.input === undefined ? "required: true or false" : "must be true or false"),
  }),
  cwd: ZCheckCwd.optional(),
  timeoutSec: z
    .number({ error: "must be a whole number of seconds" })
    .int("must be a whole number of seconds")
    .min(1, "at least 1 second")
    .max(3600, "at most 3600 seconds (1 hour)")
    .optional(),
  envPassthrough: ZEnvNameList.optional(),
  expectExit: z
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "an exit code is 0–255")
    .max(255, "an exit code is 0–255")
    .optional(),
  expectStdout: z
    .string({ error: "must be text" })
    .min(1, "must not be empty (leave it out to not require any output)")
    .max(2000, "at most 2000 characters")
    .optional(),
  // Whether the check must fail without the change (the _fails-without-change proof row); unset: true for
  // checks a task added, false for the others.
  provesChange: z.boolean({ error: "must be true or false" }).optional(),
  // Unset: platform. An agent check's command may be an instruction in prose; the agent reports its verdict.
  executor: z.enum(CHECK_EXECUTORS, { error: "must be platform or agent" }).optional(),
  // A held-out check: kept out of the agent's brief, failures and environment. Unset: false.
  hidden: z.boolean({ error: "must be true or false" }).optional(),
  // JUnit XML reports the command writes (a glob relative to the checkout): per-test results, which win
  // over the summary read from the output (lib/gates/junit.ts).
  junit: ZGlob.optional(),
};

// A check runs either a command or a built-in (`use` + `with`), never both; a built-in's parameters are
// checked each by name (with.path). Runs beside the field errors, so every mistake shows at once.
function refineRunsOne(value: unknown, ctx: z.RefinementCtx): void {
  if (!value || typeof value !== "object" || Array.isArray(value)) return;
  const check = value as { command?: unknown; use?: unknown; with?: unknown; disabled?: unknown };
  if (check.disabled === true) return;
  if (check.command !== undefined && check.use !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["use"],
      message: "a check runs a command or a built-in, not both: remove one",
    });
  else if (check.command === undefined && check.use === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["command"],
      message: "required: the shell command to run (1–2000 characters), or a built-in with use",
    });
  if (check.use === undefined) {
    if (check.with !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["with"],
        message: "parameters are for a built-in: set use too, or remove with",
      });
    return;
  }
  for (const field of ["cwd", "expectExit", "expectStdout", "envPassthrough", "junit"] as const)
    if ((check as Record<string, unknown>)[field] !== undefined)
      ctx.addIssue({ code: "custom", path: [field], message: `not used by a built-in (${BUILT_IN_IGNORES[field]})` });
  if ((check as { executor?: unknown }).executor === "agent")
    ctx.addIssue({
      code: "custom",
      path: ["executor"],
      message: "a built-in is run by Gatehouse: it cannot be an agent check",
    });
  if (!isBuiltinName(check.use)) return;
  const parsed = BUILTIN_PARAMS[check.use].safeParse(check.with ?? {});
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    if (issue.code === "unrecognized_keys")
      for (const key of issue.keys)
        ctx.addIssue({ code: "custom", path: ["with", key], message: `unknown parameter of ${check.use}: ${key}` });
    else ctx.addIssue({ code: "custom", path: ["with", ...issue.path], message: issue.message });
  }
}
const BUILT_IN_IGNORES = {
  cwd: "its paths are relative to the results directory",
  expectExit: "it has no exit code",
  expectStdout: "its verdict is its own",
  envPassthrough: "it runs no process",
  junit: "it writes no test report",
};
const EVEN_WITH_FIELD_ERRORS = {
  when: (payload: { value: unknown }) =>
    !!payload.value && typeof payload.value === "object" && !Array.isArray(payload.value),
};

export const HIDDEN_AGENT_CHECK =
  "an agent check cannot be hidden: the agent runs it, so it sees it (make it a platform check or not hidden)";

// A held-out check is a platform check: the agent cannot run what it must never see.
function refuseHiddenAgent(
  check: { executor?: CheckExecutor; hidden?: boolean; junit?: string },
  ctx: z.RefinementCtx,
): void {
  if (check.hidden && check.executor === "agent")
    ctx.addIssue({ code: "custom", message: HIDDEN_AGENT_CHECK, path: ["hidden"] });
  if (check.junit !== undefined && check.executor === "agent")
    ctx.addIssue({
      code: "custom",
      message: "an agent check is run by the agent, not by Gatehouse, so no report of it is read: remove junit",
      path: ["junit"],
    });
}

export function executorOf(check: { executor?: CheckExecutor }): CheckExecutor {
  return check.executor ?? "platform";
}

// A check in a Work's defaults (or a full entry in a task's list).
export const ZCheck = z
  .strictObject(checkFields, { error: unknownFieldMessage })
  .superRefine(refuseHiddenAgent)
  .superRefine(refineRunsOne, EVEN_WITH_FIELD_ERRORS);
export type Check = z.infer<typeof ZCheck>;

// A task entry: a full check (replacing or adding), or `{ id, disabled: true }` suppressing a default.
// A disabled entry may keep the other fields (so un-suppressing in the editor loses nothing).
const ZDisabledEntry = z.strictObject(
  {
    id: ZCheckId,
    disabled: z.literal(true),
    name: checkFields.name.optional(),
    kind: checkFields.kind.optional(),
    command: checkFields.command,
    use: checkFields.use,
    with: checkFields.with,
    required: checkFields.required.optional(),
    cwd: checkFields.cwd,
    timeoutSec: checkFields.timeoutSec,
    envPassthrough: checkFields.envPassthrough,
    expectExit: checkFields.expectExit,
    expectStdout: checkFields.expectStdout,
    provesChange: checkFields.provesChange,
    executor: checkFields.executor,
    hidden: checkFields.hidden,
    junit: checkFields.junit,
  },
  { error: unknownFieldMessage },
);
const ZActiveEntry = z
  .strictObject(
    { ...checkFields, disabled: z.literal(false, { error: "must be true or false" }).optional() },
    { error: unknownFieldMessage },
  )
  .superRefine(refuseHiddenAgent)
  .superRefine(refineRunsOne, EVEN_WITH_FIELD_ERRORS);

export type DisabledEntry = z.infer<typeof ZDisabledEntry>;
export type TaskCheckEntry = DisabledEntry | z.infer<typeof ZActiveEntry>;

export function isDisabledEntry(entry: TaskCheckEntry): entry is DisabledEntry {
  return entry.disabled === true;
}

// Picks the entry's shape by its `disabled` flag first, so errors point at the fields that matter.
export const ZTaskCheckEntry = z.unknown().transform((value, ctx): TaskCheckEntry => {
  const isDisabled = !!value && typeof value === "object" && (value as { disabled?: unknown }).disabled === true;
  const parsed = (isDisabled ? ZDisabledEntry : ZActiveEntry).safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    if (issue.code === "unrecognized_keys")
      for (const key of issue.keys)
        ctx.addIssue({ code: "custom", message: `unknown field: ${key}`, path: [...issue.path, key] });
    else ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  }
  return z.NEVER;
});

export const ZCheckList = z
  .array(ZCheck, { error: "must be a list of checks" })
  .max(MAX_CHECKS, `at most ${MAX_CHECKS} checks`)
  .superRefine(refuseDuplicateIds, EVEN_WITH_OTHER_ERRORS);

export const ZTaskCheckList = z
  .array(ZTaskCheckEntry, { error: "must be a list of checks" })
  .max(MAX_CHECKS, `at most ${MAX_CHECKS} checks`)
  .superRefine(refuseDuplicateIds, EVEN_WITH_OTHER_ERRORS);
