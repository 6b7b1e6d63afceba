import { DISABLED_IN_DEFAULTS } from "./field-issues";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { CHECK_KINDS } from "./check-kinds";
import {
  CHECK_ID_PATTERN,
  DEFAULT_TIMEOUT_SEC,
  MAX_CHECKS,
  ZCheck,
  ZCheckCwd,
  ZCheckId,
  ZCheckList,
  ZTaskCheckEntry,
  ZTaskCheckList,
  executorOf,
  HIDDEN_AGENT_CHECK,
  isDisabledEntry,
} from "./check-schema";
import { toFieldIssues, type FieldIssue } from "./field-issues";

// The issues a value raises (dotted path + message), or null when it is accepted.
function issuesOf(schema: z.ZodType, value: unknown): FieldIssue[] | null {
  const result = schema.safeParse(value);
  return result.success ? null : toFieldIssues(result.error);
}

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`expected success, got ${JSON.stringify(toFieldIssues(result.error))}`);
  return result.data;
}

const base = { id: "unit", name: "Unit tests pass", kind: "test", command: "npm test", required: true } as const;
const withField = (field: string, value: unknown) => ({ ...base, [field]: value });
const withoutField = (field: string) => {
  const copy: Record<string, unknown> = { ...base };
  delete copy[field];
  return copy;
};
const check = (id: string, extra: Record<string, unknown> = {}) => ({ ...base, id, ...extra });

describe("constants", () => {
  it("match the SPEC", () => {
    expect(CHECK_KINDS).toEqual(["build", "test", "lint", "typecheck", "custom"]);
    expect(MAX_CHECKS).toBe(20);
    expect(DEFAULT_TIMEOUT_SEC).toBe(600);
    expect(CHECK_ID_PATTERN.source).toBe("^[a-z0-9][a-z0-9-_]{0,40}$");
  });
});

describe("ZCheck: a complete check", () => {
  it("accepts the minimal check and returns it unchanged", () => {
    expect(parsed(ZCheck, base)).toEqual(base);
  });

  it("accepts every optional field at once", () => {
    const full = {
      ...base,
      cwd: "packages/web",
      timeoutSec: 120,
      envPassthrough: ["NPM_TOKEN", "API_KEY"],
      expectExit: 1,
      expectStdout: "0 TODO",
    };
    expect(parsed(ZCheck, full)).toEqual(full);
  });

  it.each(["id", "name", "kind", "command", "required"])("refuses a check without %s, naming the field", (field) => {
    const issues = issuesOf(ZCheck, withoutField(field));
    expect(issues).not.toBeNull();
    expect(issues!.map((i) => i.path)).toEqual([field]);
  });

  it.each([
    ["a string", "npm test"],
    ["null", null],
    ["a number", 42],
    ["a list", [base]],
  ])("refuses %s in place of a check", (_label, value) => {
    expect(issuesOf(ZCheck, value)).toEqual([{ path: "", message: "must be a check object" }]);
  });
});

describe("Check.id", () => {
  const rule = "lowercase letters, digits, - and _ only, starting with a letter or digit, at most 41 characters";
  it.each([
    ["a single letter", "a"],
    ["a single digit", "0"],
    ["letters, digits, - and _", "build-web_2"],
    ["a trailing dash", "lint-"],
    ["41 characters (the maximum)", "a".repeat(41)],
    ["41 characters starting with a digit", `9${"-".repeat(40)}`],
  ])("accepts %s", (_label, id) => {
    expect(parsed(ZCheckId, id)).toBe(id);
    expect(issuesOf(ZCheck, withField("id", id))).toBeNull();
  });

  it.each([
    ["42 characters", "a".repeat(42)],
    ["the empty string", ""],
    ["an uppercase letter", "Unit"],
    ["all uppercase", "UNIT"],
    ["a leading '-'", "-unit"],
    ["a leading '_'", "_unit"],
    ["a space", "unit tests"],
    ["a dot", "unit.tests"],
    ["a slash", "unit/tests"],
    ["a trailing newline", "unit\n"],
    ["a non-ASCII letter", "tést"],
  ])("refuses %s, naming the id and the rule", (_label, id) => {
    expect(issuesOf(ZCheck, withField("id", id))).toEqual([{ path: "id", message: rule }]);
  });

  it("refuses a non-text id", () => {
    expect(issuesOf(ZCheck, withField("id", 12))).toEqual([{ path: "id", message: "must be text" }]);
  });
});

describe("Check.name", () => {
  it.each([
    ["1 character", "x"],
    ["120 characters", "n".repeat(120)],
  ])("accepts %s", (_label, name) => {
    expect(parsed(ZCheck, withField("name", name)).name).toBe(name);
  });

  it("trims surrounding whitespace", () => {
    expect(parsed(ZCheck, withField("name", "  Lint is clean \n")).name).toBe("Lint is clean");
  });

  it("refuses 121 characters", () => {
    expect(issuesOf(ZCheck, withField("name", "n".repeat(121)))).toEqual([
      { path: "name", message: "at most 120 characters" },
    ]);
  });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["only a newline and a tab", "\n\t"],
  ])("refuses a name that is %s", (_label, name) => {
    const issues = issuesOf(ZCheck, withField("name", name));
    expect(issues).toHaveLength(1);
    expect(issues![0].path).toBe("name");
    expect(issues![0].message).toMatch(/1–120 characters/);
  });

  it("refuses a non-text name", () => {
    expect(issuesOf(ZCheck, withField("name", 5))).toEqual([{ path: "name", message: "must be text" }]);
  });
});

describe("Check.kind", () => {
  it.each(CHECK_KINDS)("accepts %s", (kind) => {
    expect(parsed(ZCheck, withField("kind", kind)).kind).toBe(kind);
  });

  it.each(["Test", "unit", "e2e", "", "BUILD", null, 1])("refuses %j", (kind) => {
    expect(issuesOf(ZCheck, withField("kind", kind))).toEqual([
      { path: "kind", message: "must be one of build, test, lint, typecheck, custom" },
    ]);
  });
});

describe("Check.command", () => {
  it.each([
    ["1 character", "x"],
    ["2000 characters", "c".repeat(2000)],
    ["several lines", "npm ci\nnpm test -- --ci"],
  ])("accepts %s", (_label, command) => {
    expect(parsed(ZCheck, withField("command", command)).command).toBe(command);
  });

  it("keeps the command as written (no trimming)", () => {
    expect(parsed(ZCheck, withField("command", "  make test  ")).command).toBe("  make test  ");
  });

  it("refuses 2001 characters", () => {
    expect(issuesOf(ZCheck, withField("command", "c".repeat(2001)))).toEqual([
      { path: "command", message: "at most 2000 characters" },
    ]);
  });

  it.each([
    ["empty", ""],
    ["spaces only", "    "],
    ["whitespace and newlines only", " \n\t \n"],
  ])("refuses a command that is %s", (_label, command) => {
    expect(issuesOf(ZCheck, withField("command", command))).toEqual([
      { path: "command", message: "required: the shell command to run (1–2000 characters)" },
    ]);
  });

  it("refuses a non-text command", () => {
    expect(issuesOf(ZCheck, withField("command", ["npm", "test"]))).toEqual([
      { path: "command", message: "must be text" },
    ]);
  });
});

describe("Check.required", () => {
  it.each([true, false])("accepts %s", (required) => {
    expect(parsed(ZCheck, withField("required", required)).required).toBe(required);
  });

  it.each(["true", 1, 0, null, "yes"])("refuses %j", (required) => {
    expect(issuesOf(ZCheck, withField("required", required))).toEqual([
      { path: "required", message: "must be true or false" },
    ]);
  });
});

describe("Check.cwd", () => {
  it.each(["src", "packages/web", "./packages/web", "a/b/c/", ".", "..foo", "foo..", "dir/..hidden", "x".repeat(500)])(
    "accepts the relative directory %j",
    (cwd) => {
      expect(parsed(ZCheckCwd, cwd)).toBe(cwd);
      expect(parsed(ZCheck, withField("cwd", cwd)).cwd).toBe(cwd);
    },
  );

  it("is optional", () => {
    expect(parsed(ZCheck, base)).not.toHaveProperty("cwd");
  });

  it.each([
    ["an absolute path", "/etc", "absolute"],
    ["the root", "/", "absolute"],
    ["a home path", "~/src", "absolute"],
    ["another user's home", "~root", "absolute"],
    ["'..'", "..", "'..'"],
    ["a leading '..'", "../other-repo", "'..'"],
    ["a '..' in the middle", "packages/../../etc", "'..'"],
    ["a trailing '..'", "packages/..", "'..'"],
    ["a NUL character", "src\0/evil", "NUL"],
    ["the empty string", "", "must not be empty"],
    ["501 characters", "x".repeat(501), "at most 500 characters"],
  ])("refuses %s", (_label, cwd, rule) => {
    const issues = issuesOf(ZCheck, withField("cwd", cwd));
    expect(issues).not.toBeNull();
    expect(issues!.every((i) => i.path === "cwd")).toBe(true);
    expect(issues!.map((i) => i.message).join(" | ")).toContain(rule);
  });

  it("says why an absolute cwd is refused", () => {
    expect(issuesOf(ZCheck, withField("cwd", "/tmp"))).toEqual([
      { path: "cwd", message: "must be relative to the checkout root, not absolute" },
    ]);
  });

  it("says why a '..' cwd is refused", () => {
    expect(issuesOf(ZCheck, withField("cwd", "a/../.."))).toEqual([
      { path: "cwd", message: "must stay inside the checkout: '..' is not allowed" },
    ]);
  });
});

describe("Check.timeoutSec", () => {
  it.each([1, 2, 600, 3599, 3600])("accepts %d", (timeoutSec) => {
    expect(parsed(ZCheck, withField("timeoutSec", timeoutSec)).timeoutSec).toBe(timeoutSec);
  });

  it("is optional (the runner applies the 600 s default)", () => {
    expect(parsed(ZCheck, base).timeoutSec).toBeUndefined();
  });

  it.each([
    [0, "at least 1 second"],
    [-1, "at least 1 second"],
    [3601, "at most 3600 seconds (1 hour)"],
    [86_400, "at most 3600 seconds (1 hour)"],
    [1.5, "must be a whole number of seconds"],
    [599.999, "must be a whole number of seconds"],
    ["60", "must be a whole number of seconds"],
    [null, "must be a whole number of seconds"],
    [Number.NaN, "must be a whole number of seconds"],
  ])("refuses %j: %s", (timeoutSec, message) => {
    expect(issuesOf(ZCheck, withField("timeoutSec", timeoutSec))).toEqual([{ path: "timeoutSec", message }]);
  });

  it("refuses an infinite timeout", () => {
    const issues = issuesOf(ZCheck, withField("timeoutSec", Number.POSITIVE_INFINITY));
    expect(issues).not.toBeNull();
    expect(issues!.map((i) => i.path)).toContain("timeoutSec");
  });
});

describe("Check.expectExit", () => {
  it.each([0, 1, 2, 254, 255])("accepts %d", (expectExit) => {
    expect(parsed(ZCheck, withField("expectExit", expectExit)).expectExit).toBe(expectExit);
  });

  it.each([
    [-1, "an exit code is 0–255"],
    [256, "an exit code is 0–255"],
    [1000, "an exit code is 0–255"],
    [0.5, "must be a whole number"],
    ["0", "must be a whole number"],
    [true, "must be a whole number"],
  ])("refuses %j: %s", (expectExit, message) => {
    expect(issuesOf(ZCheck, withField("expectExit", expectExit))).toEqual([{ path: "expectExit", message }]);
  });
});

describe("Check.expectStdout", () => {
  it.each([
    ["one character", "x"],
    ["a phrase", "All tests passed"],
    ["2000 characters", "o".repeat(2000)],
  ])("accepts %s", (_label, expectStdout) => {
    expect(parsed(ZCheck, withField("expectStdout", expectStdout)).expectStdout).toBe(expectStdout);
  });

  it("refuses the empty string (leave the field out instead)", () => {
    expect(issuesOf(ZCheck, withField("expectStdout", ""))).toEqual([
      { path: "expectStdout", message: "must not be empty (leave it out to not require any output)" },
    ]);
  });

  it("refuses 2001 characters", () => {
    expect(issuesOf(ZCheck, withField("expectStdout", "o".repeat(2001)))).toEqual([
      { path: "expectStdout", message: "at most 2000 characters" },
    ]);
  });

  it("refuses non-text", () => {
    expect(issuesOf(ZCheck, withField("expectStdout", 0))).toEqual([{ path: "expectStdout", message: "must be text" }]);
  });
});

describe("Check.executor and Check.hidden", () => {
  it("unset means a visible check run by Gatehouse", () => {
    const out = parsed(ZCheck, base);
    expect(executorOf(out)).toBe("platform");
    expect(out.hidden).toBeUndefined();
  });

  it("accepts agent checks, whose command may be an instruction in prose", () => {
    const prose = "Start the dev server, open /health in a browser and confirm it says OK.";
    const out = parsed(ZCheck, { ...base, executor: "agent", command: prose });
    expect(executorOf(out)).toBe("agent");
    expect(out.command).toBe(prose);
  });

  it("accepts hidden platform checks", () => {
    expect(parsed(ZCheck, { ...base, executor: "platform", hidden: true }).hidden).toBe(true);
  });

  it("refuses other executors and non-boolean hidden", () => {
    expect(issuesOf(ZCheck, withField("executor", "jetty"))).toEqual([
      { path: "executor", message: "must be platform or agent" },
    ]);
    expect(issuesOf(ZCheck, withField("hidden", "yes"))).toEqual([
      { path: "hidden", message: "must be true or false" },
    ]);
  });

  it("refuses a hidden agent check, in the defaults and in a task's list", () => {
    const bad = { ...base, executor: "agent", hidden: true };
    expect(issuesOf(ZCheck, bad)).toEqual([{ path: "hidden", message: HIDDEN_AGENT_CHECK }]);
    expect(issuesOf(ZCheckList, [bad])).toEqual([{ path: "0.hidden", message: HIDDEN_AGENT_CHECK }]);
    expect(issuesOf(ZTaskCheckList, [bad])).toEqual([{ path: "0.hidden", message: HIDDEN_AGENT_CHECK }]);
  });
});

describe("Check.envPassthrough", () => {
  it.each([[[]], [["NPM_TOKEN"]], [["API_KEY", "_PRIVATE", "lower_case"]]])("accepts %j", (names) => {
    expect(parsed(ZCheck, withField("envPassthrough", names)).envPassthrough).toEqual(names);
  });

  it("refuses NAME=value, saying names only", () => {
    const issues = issuesOf(ZCheck, withField("envPassthrough", ["OK_NAME", "API_KEY=sk-123"]));
    expect(issues).toHaveLength(1);
    expect(issues![0].path).toBe("envPassthrough.1");
    expect(issues![0].message).toMatch(/names only, never values/);
    // The value itself is never echoed back.
    expect(issues![0].message).not.toContain("sk-123");
  });

  it.each([
    "DATABASE_URL",
    "database_url",
    "GATEHOUSE_BOOTSTRAP_TOKEN",
    "GATEHOUSE_ADMIN_PASSWORD",
    "GATEHOUSE_DATA_DIR",
    "LD_PRELOAD",
  ])("refuses the platform-owned name %s", (name) => {
    const issues = issuesOf(ZCheck, withField("envPassthrough", [name]));
    expect(issues).toHaveLength(1);
    expect(issues![0].path).toBe("envPassthrough.0");
    expect(issues![0].message).toContain(name);
    expect(issues![0].message).toMatch(/never passed to checks/);
  });

  it("refuses a name listed twice, at the second occurrence", () => {
    expect(issuesOf(ZCheck, withField("envPassthrough", ["A", "B", "A"]))).toEqual([
      { path: "envPassthrough.2", message: "A is listed twice" },
    ]);
  });

  it.each(["1ABC", "MY-VAR", "MY VAR", ""])("refuses the malformed name %j", (name) => {
    const issues = issuesOf(ZCheck, withField("envPassthrough", [name]));
    expect(issues).toEqual([
      {
        path: "envPassthrough.0",
        message:
          "an environment variable name: letters, digits and _, not starting with a digit, at most 128 characters",
      },
    ]);
  });

  it("refuses a single string in place of a list", () => {
    expect(issuesOf(ZCheck, withField("envPassthrough", "NPM_TOKEN"))).toEqual([
      { path: "envPassthrough", message: "must be a list of variable names" },
    ]);
  });
});

describe("unknown fields", () => {
  it("refuses an unknown field, naming it", () => {
    expect(issuesOf(ZCheck, withField("timeout", 60))).toEqual([
      { path: "timeout", message: "unknown field: timeout" },
    ]);
  });

  it("names every unknown field, each at its own path", () => {
    const issues = issuesOf(ZCheck, { ...base, colour: "red", retries: 2 });
    expect(issues).toEqual([
      { path: "colour", message: "unknown field: colour" },
      { path: "retries", message: "unknown field: retries" },
    ]);
  });

  it("refuses `source` (an output of merging, not an input)", () => {
    expect(issuesOf(ZCheck, withField("source", "inherited"))).toEqual([
      { path: "source", message: "unknown field: source" },
    ]);
  });

  it.each([true, false])(
    "refuses `disabled: %s` in a Work's defaults, explaining that only task entries suppress",
    (disabled) => {
      const issues = issuesOf(ZCheck, withField("disabled", disabled));
      expect(issues).toEqual([{ path: "disabled", message: DISABLED_IN_DEFAULTS }]);
    },
  );
});

describe("ZTaskCheckEntry: a task's entries", () => {
  it("accepts `{ id, disabled: true }` with no other field", () => {
    const entry = parsed(ZTaskCheckEntry, { id: "lint", disabled: true });
    expect(entry).toEqual({ id: "lint", disabled: true });
    expect(isDisabledEntry(entry)).toBe(true);
  });

  it("accepts a disabled entry that keeps its other fields (so un-suppressing loses nothing)", () => {
    const entry = parsed(ZTaskCheckEntry, { ...base, disabled: true, timeoutSec: 30 });
    expect(entry).toEqual({ ...base, disabled: true, timeoutSec: 30 });
    expect(isDisabledEntry(entry)).toBe(true);
  });

  it("still validates the fields a disabled entry keeps", () => {
    expect(issuesOf(ZTaskCheckEntry, { id: "lint", disabled: true, timeoutSec: 0 })).toEqual([
      { path: "timeoutSec", message: "at least 1 second" },
    ]);
    expect(issuesOf(ZTaskCheckEntry, { id: "lint", disabled: true, name: "   " })![0].path).toBe("name");
  });

  it("validates a disabled entry's id", () => {
    expect(issuesOf(ZTaskCheckEntry, { id: "Lint", disabled: true })!.map((i) => i.path)).toEqual(["id"]);
    expect(issuesOf(ZTaskCheckEntry, { disabled: true })!.map((i) => i.path)).toEqual(["id"]);
  });

  it("refuses unknown fields on a disabled entry, naming them", () => {
    expect(issuesOf(ZTaskCheckEntry, { id: "lint", disabled: true, because: "flaky" })).toEqual([
      { path: "because", message: "unknown field: because" },
    ]);
  });

  it("accepts a full entry without `disabled`", () => {
    const entry = parsed(ZTaskCheckEntry, base);
    expect(entry).toEqual(base);
    expect(isDisabledEntry(entry)).toBe(false);
  });

  it("accepts a full entry with `disabled: false`", () => {
    const entry = parsed(ZTaskCheckEntry, { ...base, disabled: false });
    expect(isDisabledEntry(entry)).toBe(false);
  });

  it("refuses `{ id }` alone: an active entry needs every required field", () => {
    const paths = issuesOf(ZTaskCheckEntry, { id: "lint" })!
      .map((i) => i.path)
      .sort();
    expect(paths).toEqual(["command", "kind", "name", "required"]);
  });

  it("refuses `{ id, disabled: false }` alone", () => {
    const paths = issuesOf(ZTaskCheckEntry, { id: "lint", disabled: false })!
      .map((i) => i.path)
      .sort();
    expect(paths).toEqual(["command", "kind", "name", "required"]);
  });

  it.each(["yes", "true", 1, null])("refuses `disabled: %j`", (disabled) => {
    expect(issuesOf(ZTaskCheckEntry, { ...base, disabled })).toEqual([
      { path: "disabled", message: "must be true or false" },
    ]);
  });

  it("validates a full entry with the same rules as a default", () => {
    expect(issuesOf(ZTaskCheckEntry, { ...base, timeoutSec: 3601 })).toEqual([
      { path: "timeoutSec", message: "at most 3600 seconds (1 hour)" },
    ]);
    expect(issuesOf(ZTaskCheckEntry, { ...base, extra: 1 })).toEqual([
      { path: "extra", message: "unknown field: extra" },
    ]);
  });

  it.each([null, "lint", 3, []])("refuses %j in place of an entry", (value) => {
    expect(issuesOf(ZTaskCheckEntry, value)).toEqual([{ path: "", message: "must be a check object" }]);
  });
});

describe.each([
  ["ZCheckList (a Work's defaults)", ZCheckList, (id: string) => check(id)],
  ["ZTaskCheckList (a task's entries)", ZTaskCheckList, (id: string) => ({ id, disabled: true })],
] as const)("%s", (_label, schema, entryFor) => {
  const listOf = (n: number) => Array.from({ length: n }, (_, i) => entryFor(`check-${i + 1}`));

  it.each([0, 1, 19, 20])("accepts %d checks", (n) => {
    expect(issuesOf(schema, listOf(n))).toBeNull();
  });

  it.each([21, 40])("refuses %d checks", (n) => {
    expect(issuesOf(schema, listOf(n))).toEqual([{ path: "", message: "at most 20 checks" }]);
  });

  it.each([null, "checks", { id: "a" }])("refuses %j in place of a list", (value) => {
    expect(issuesOf(schema, value)).toEqual([{ path: "", message: "must be a list of checks" }]);
  });

  it("refuses a duplicate id at `<index>.id`, pointing at the first use", () => {
    const issues = issuesOf(schema, [entryFor("lint"), entryFor("test"), entryFor("lint")]);
    expect(issues).toHaveLength(1);
    expect(issues![0].path).toBe("2.id");
    expect(issues![0].message).toContain('duplicate id "lint"');
    expect(issues![0].message).toContain("check 1");
  });

  it("reports every repeat of an id", () => {
    const issues = issuesOf(schema, [entryFor("a"), entryFor("a"), entryFor("b"), entryFor("a")]);
    expect(issues!.map((i) => i.path)).toEqual(["1.id", "3.id"]);
  });

  it("does not confuse ids that differ only by - or _", () => {
    // Distinct ids are fine; nothing is reported for them.
    expect(issuesOf(schema, [entryFor("a-1"), entryFor("a_1"), entryFor("a1")])).toBeNull();
  });

  it("reports duplicates together with the other errors of the list", () => {
    const bad = { ...entryFor("broken"), timeoutSec: 0 };
    const issues = issuesOf(schema, [entryFor("x"), bad, entryFor("x")]);
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: "1.timeoutSec", message: "at least 1 second" },
        expect.objectContaining({ path: "2.id" }),
      ]),
    );
    expect(issues).toHaveLength(2);
  });

  it("refuses an oversized list at the list itself, whatever its entries", () => {
    const list = [...listOf(20), { ...entryFor("check-1"), timeoutSec: 0 }];
    const issues = issuesOf(schema, list)!;
    expect(issues).toContainEqual({ path: "", message: "at most 20 checks" });
  });

  it("prefixes element errors with their index", () => {
    const issues = issuesOf(schema, [entryFor("ok"), entryFor("ok-2"), { ...entryFor("bad"), expectExit: 256 }]);
    expect(issues).toEqual([{ path: "2.expectExit", message: "an exit code is 0–255" }]);
  });
});

describe("ZCheckList specifics", () => {
  it("refuses a disabled entry in the defaults at its index", () => {
    const issues = issuesOf(ZCheckList, [check("a"), { id: "b", disabled: true }])!;
    const disabledIssue = issues.find((i) => i.path === "1.disabled");
    expect(disabledIssue).toEqual({ path: "1.disabled", message: DISABLED_IN_DEFAULTS });
    // The fields a default needs are still reported, each at its own path.
    expect(issues.map((i) => i.path).sort()).toEqual(["1.command", "1.disabled", "1.kind", "1.name", "1.required"]);
  });
});

describe("ZTaskCheckList specifics", () => {
  it("accepts a mix of replacing, suppressing and adding entries", () => {
    const list = [check("lint", { required: false }), { id: "test", disabled: true }, check("e2e", { kind: "custom" })];
    const out = parsed(ZTaskCheckList, list);
    expect(out).toEqual(list);
    expect(out.map(isDisabledEntry)).toEqual([false, true, false]);
  });

  it("refuses a suppression and a replacement of the same id in one list", () => {
    const issues = issuesOf(ZTaskCheckList, [{ id: "lint", disabled: true }, check("lint")]);
    expect(issues).toHaveLength(1);
    expect(issues![0].path).toBe("1.id");
    expect(issues![0].message).toContain('duplicate id "lint"');
  });

  it("reports each bad entry with its own index", () => {
    const issues = issuesOf(ZTaskCheckList, [
      { id: "ok", disabled: true },
      check("x", { name: "" }),
      "nope",
      { id: "y", disabled: true, foo: 1 },
    ]);
    expect(issues).toEqual([
      { path: "1.name", message: "required: 1–120 characters saying what passing means" },
      { path: "2", message: "must be a check object" },
      { path: "3.foo", message: "unknown field: foo" },
    ]);
  });
});
