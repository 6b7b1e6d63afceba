import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { toFieldIssues, type FieldIssue } from "./field-issues";
import {
  CHECKS_POLICIES,
  DEFAULT_ATTEMPTS,
  DEFAULT_PROTECTED_PATHS,
  DEFAULT_TEST_PATTERNS,
  MAX_ATTEMPTS,
  MIN_ATTEMPTS,
  ZAgentCommand,
  ZBranchName,
  ZBudgetSec,
  ZChecksPolicy,
  ZMaxGateAttempts,
  ZRepoUrl,
  ZTaskCreate,
  ZTaskPatch,
  ZVersion,
  ZWorkCreate,
  ZWorkPatch,
} from "./work-schema";

function issuesOf(schema: z.ZodType, value: unknown): FieldIssue[] | null {
  const result = schema.safeParse(value);
  return result.success ? null : toFieldIssues(result.error);
}

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`expected success, got ${JSON.stringify(toFieldIssues(result.error))}`);
  return result.data;
}

const check = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `${id} passes`,
  kind: "test",
  command: `run ${id}`,
  required: true,
  ...extra,
});
const minimalWork = { name: "Payments", repoUrl: "https://github.com/acme/payments.git" };

describe("constants", () => {
  it("match the SPEC", () => {
    expect(CHECKS_POLICIES).toEqual(["off", "warn", "required"]);
    expect([MIN_ATTEMPTS, MAX_ATTEMPTS, DEFAULT_ATTEMPTS]).toEqual([1, 5, 3]);
  });
});

describe("ZChecksPolicy", () => {
  it.each(CHECKS_POLICIES)("accepts %s", (policy) => {
    expect(ZChecksPolicy.parse(policy)).toBe(policy);
  });
  it.each(["Required", "strict", "", null])("refuses %j", (policy) => {
    expect(issuesOf(ZChecksPolicy, policy)).toEqual([{ path: "", message: "must be one of off, warn, required" }]);
  });
});

describe("ZMaxGateAttempts", () => {
  it.each([1, 2, 3, 4, 5])("accepts %d", (n) => {
    expect(ZMaxGateAttempts.parse(n)).toBe(n);
  });
  it.each([
    [0, "at least 1 attempt"],
    [-1, "at least 1 attempt"],
    [6, "at most 5 attempts"],
    [2.5, "must be a whole number from 1 to 5"],
    ["3", "must be a whole number from 1 to 5"],
  ])("refuses %j: %s", (n, message) => {
    expect(issuesOf(ZMaxGateAttempts, n)).toEqual([{ path: "", message }]);
  });
});

describe("ZBudgetSec", () => {
  it.each([1, 60, 86_400])("accepts %d", (n) => {
    expect(ZBudgetSec.parse(n)).toBe(n);
  });
  it.each([
    [0, "at least 1 second"],
    [86_401, "at most 86400 seconds (24 hours)"],
    [1.5, "must be a whole number of seconds"],
    ["60", "must be a whole number of seconds"],
  ])("refuses %j: %s", (n, message) => {
    expect(issuesOf(ZBudgetSec, n)).toEqual([{ path: "", message }]);
  });
});

describe("ZAgentCommand", () => {
  it.each(["x", 'claude -p "$(cat $GATEHOUSE_BRIEF_FILE)"', "a".repeat(2000)])("accepts %j", (cmd) => {
    expect(ZAgentCommand.parse(cmd)).toBe(cmd);
  });
  it.each([
    ["", "must not be blank (use null for no agent)"],
    ["   \n", "must not be blank (use null for no agent)"],
    ["a".repeat(2001), "at most 2000 characters"],
  ])("refuses %j", (cmd, message) => {
    expect(issuesOf(ZAgentCommand, cmd)).toEqual([{ path: "", message }]);
  });
});

describe("ZBranchName", () => {
  it.each([
    "main",
    "master",
    "feature/x",
    "gatehouse/gate-12",
    "release-1.2",
    "a_b",
    "user/feat/deep",
    "v1.0.0",
    "b".repeat(200),
  ])("accepts %j", (branch) => {
    expect(ZBranchName.parse(branch)).toBe(branch);
  });

  it.each([
    ["empty", "", "must not be empty"],
    ["201 characters", "b".repeat(201), "at most 200 characters"],
    ["a leading '-' (read as an option by git)", "-f", "must not start with '-', '/' or '.'"],
    ["a leading '/'", "/main", "must not start with '-', '/' or '.'"],
    ["a leading '.'", ".hidden", "must not start with '-', '/' or '.'"],
    ["'..'", "a..b", "must not contain '..' or '//'"],
    ["'//'", "a//b", "must not contain '..' or '//'"],
    ["a trailing '/'", "feature/", "must not end with '/', '.' or '.lock'"],
    ["a trailing '.'", "feature.", "must not end with '/', '.' or '.lock'"],
    ["a trailing '.lock'", "main.lock", "must not end with '/', '.' or '.lock'"],
    ["a part starting with '.'", "feature/.x", "no part between '/' may start with '.' or end with '.lock'"],
    ["a part ending with '.lock'", "a.lock/b", "no part between '/' may start with '.' or end with '.lock'"],
    ["a space", "my branch", "letters, digits, '.', '_', '/' and '-' only"],
    ["a '~'", "a~1", "letters, digits, '.', '_', '/' and '-' only"],
    ["a '^'", "a^", "letters, digits, '.', '_', '/' and '-' only"],
    ["a ':'", "a:b", "letters, digits, '.', '_', '/' and '-' only"],
    ["a '?'", "a?", "letters, digits, '.', '_', '/' and '-' only"],
    ["a '*'", "a*", "letters, digits, '.', '_', '/' and '-' only"],
    ["a '['", "a[1]", "letters, digits, '.', '_', '/' and '-' only"],
    ["a backslash", "a\\b", "letters, digits, '.', '_', '/' and '-' only"],
    ["'@{'", "a@{1}", "letters, digits, '.', '_', '/' and '-' only"],
    ["a control character", "a\tb", "letters, digits, '.', '_', '/' and '-' only"],
  ])("refuses %s", (_label, branch, message) => {
    const issues = issuesOf(ZBranchName, branch);
    expect(issues).not.toBeNull();
    expect(issues!.map((i) => i.message)).toContain(message);
  });
});

describe("ZRepoUrl", () => {
  it.each([
    "/srv/git/payments",
    "../payments",
    "file:///srv/git/payments.git",
    "https://github.com/acme/payments.git",
    "git@github.com:acme/payments.git",
    "ssh://git@host:2222/acme/payments.git",
  ])("accepts %j", (url) => {
    expect(ZRepoUrl.parse(url)).toBe(url);
  });

  it("trims surrounding whitespace", () => {
    expect(ZRepoUrl.parse("  /srv/git/payments \n")).toBe("/srv/git/payments");
  });

  it.each([
    ["empty", "", "required: anything git clone accepts (a local path, file://, https://)"],
    ["blank", "   ", "required: anything git clone accepts (a local path, file://, https://)"],
    ["an inner space", "/srv/my repo", "must not contain spaces or control characters"],
    ["a NUL", "/srv/repo\0", "must not contain spaces or control characters"],
    ["an inner newline", "/srv\n/repo", "must not contain spaces or control characters"],
    ["a leading '-' (an option to git)", "--upload-pack=touch /tmp/x", "must not start with '-'"],
    ["2001 characters", `/${"r".repeat(2000)}`, "at most 2000 characters"],
  ])("refuses %s", (_label, url, message) => {
    expect(issuesOf(ZRepoUrl, url)!.map((i) => i.message)).toContain(message);
  });

  it("accepts 2000 characters", () => {
    expect(issuesOf(ZRepoUrl, `/${"r".repeat(1999)}`)).toBeNull();
  });
});

describe("ZVersion", () => {
  it.each([1, 2, 1000])("accepts %d", (v) => {
    expect(ZVersion.parse(v)).toBe(v);
  });
  it.each([
    [0, "must be at least 1"],
    [1.5, "must be a whole number"],
    ["1", "required: the version you read (a whole number)"],
    [undefined, "required: the version you read (a whole number)"],
  ])("refuses %j", (v, message) => {
    expect(issuesOf(ZVersion, v)).toEqual([{ path: "", message }]);
  });
});

describe("ZWorkCreate", () => {
  it("fills the SPEC's defaults", () => {
    expect(parsed(ZWorkCreate, minimalWork)).toEqual({
      name: "Payments",
      repoUrl: "https://github.com/acme/payments.git",
      checkDefaults: [],
      checksPolicy: "required",
      maxGateAttempts: 3,
      agentCommand: null,
      agentEnvPassthrough: [],
      budgetSec: null,
      budgetUsd: null,
      failFast: false,
      strictEvaluation: false,
      testPatterns: [...DEFAULT_TEST_PATTERNS],
      requireTests: "warn",
      protectedPaths: [...DEFAULT_PROTECTED_PATHS],
      vacuousPolicy: "warn",
      requireTestSummary: false,
      checkSources: [],
      mergePolicy: { requireGreenGate: true, autoMerge: false, method: "merge" },
      resultsDir: null,
      profile: "standard",
      reviewCommand: null,
      mutationCommand: null,
      mutationReport: null,
      redTeamCommand: null,
      redTeamTestCommand: null,
      agentNetwork: "on",
      checkNetwork: "on",
      sandboxMounts: [],
      visibleRefs: [],
      webhooks: [],
      lanes: [],
      autoAdvance: false,
    });
  });

  it.each([
    ["../outside", "must stay inside the checkout: '..' is not allowed"],
    ["/tmp/out", "must be relative to the checkout root, not absolute"],
    ["", "must not be empty (leave it out to run in the checkout root)"],
  ])("refuses the results directory %j", (resultsDir, message) => {
    const result = ZWorkCreate.safeParse({ ...minimalWork, resultsDir });
    expect(result.success ? [] : result.error.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["resultsDir", message],
    ]);
  });

  it("keeps every field given", () => {
    const input = {
      ...minimalWork,
      baseBranch: "develop",
      checkDefaults: [check("lint"), check("unit")],
      checksPolicy: "warn",
      maxGateAttempts: 5,
      agentCommand: "./agent.sh",
      agentEnvPassthrough: ["OPENAI_API_KEY"],
      budgetSec: 1800,
      budgetUsd: 2.5,
      failFast: true,
      strictEvaluation: true,
      testPatterns: ["spec/**/*_spec.rb"],
      requireTests: "required",
      protectedPaths: ["scripts/**", "Makefile"],
      vacuousPolicy: "off",
      requireTestSummary: true,
      checkSources: [{ name: "gate", url: "https://git.example.com/gate.git", ref: "v1", secret: "GATE_TOKEN" }],
      mergePolicy: { requireGreenGate: false, autoMerge: true, method: "fast-forward" },
      resultsDir: "out/reports",
      profile: "full",
      reviewCommand: "claude -p < $GATEHOUSE_BRIEF_FILE",
      mutationCommand: "npx mutmut run",
      mutationReport: "out/mutation.json",
      redTeamCommand: "./redteam.sh",
      redTeamTestCommand: 'node --test "$GATEHOUSE_PROBE"',
      agentNetwork: "off",
      checkNetwork: "on",
      sandboxMounts: [{ path: "/opt/toolchain", mode: "ro" }],
      visibleRefs: ["refs/tags/v*", "release/*"],
      webhooks: [
        { id: "hook-1", url: "https://ci.example.test/gatehouse", events: ["run.ended"], secret: "0123456789abcdef" },
      ],
      lanes: [{ id: "delivery", name: "Delivery", stages: [{ id: "build", name: "Build", checks: [check("unit")] }] }],
      autoAdvance: true,
    };
    expect(parsed(ZWorkCreate, input)).toEqual(input);
  });

  it("refuses a mutation report outside the checkout", () => {
    expect(issuesOf(ZWorkCreate, { ...minimalWork, mutationReport: "../out.json" })).toEqual([
      expect.objectContaining({ path: "mutationReport", message: "must be a path inside the checkout" }),
    ]);
  });

  it("refuses an unknown profile and a blank review command, naming the field", () => {
    expect(issuesOf(ZWorkCreate, { ...minimalWork, profile: "heavy" })).toEqual([
      expect.objectContaining({ path: "profile", message: "must be one of lite, standard, full" }),
    ]);
    expect(issuesOf(ZWorkCreate, { ...minimalWork, reviewCommand: "  " })).toEqual([
      expect.objectContaining({ path: "reviewCommand", message: "must not be blank (use null for no review)" }),
    ]);
  });

  it("accepts baseBranch null (the repo's HEAD branch)", () => {
    expect(parsed(ZWorkCreate, { ...minimalWork, baseBranch: null }).baseBranch).toBeNull();
  });

  it.each(["name", "repoUrl"])("requires %s", (field) => {
    const input: Record<string, unknown> = { ...minimalWork };
    delete input[field];
    expect(issuesOf(ZWorkCreate, input)!.map((i) => i.path)).toEqual([field]);
  });

  it.each([
    ["name", "", "required: 1–120 characters"],
    ["name", "   ", "required: 1–120 characters"],
    ["name", "n".repeat(121), "at most 120 characters"],
    ["baseBranch", "-x", "must not start with '-', '/' or '.'"],
    ["checksPolicy", "strict", "must be one of off, warn, required"],
    ["checksPolicy", null, "must be one of off, warn, required"],
    ["maxGateAttempts", 0, "at least 1 attempt"],
    ["maxGateAttempts", 6, "at most 5 attempts"],
    ["maxGateAttempts", null, "must be a whole number from 1 to 5"],
    ["agentCommand", "  ", "must not be blank (use null for no agent)"],
    ["budgetSec", 0, "at least 1 second"],
    ["budgetSec", 86_401, "at most 86400 seconds (24 hours)"],
    ["budgetUsd", 0, "more than 0"],
    ["budgetUsd", "5", "must be a number of US dollars"],
    ["failFast", "yes", "must be true or false"],
    ["strictEvaluation", "yes", "must be true or false"],
    ["checkDefaults", null, "must be a list of checks"],
  ])("refuses %s = %j, naming the field and the rule", (field, value, message) => {
    expect(issuesOf(ZWorkCreate, { ...minimalWork, [field]: value })).toEqual([{ path: field, message }]);
  });

  it("accepts a name of 120 characters and trims it", () => {
    expect(parsed(ZWorkCreate, { ...minimalWork, name: "n".repeat(120) }).name).toHaveLength(120);
    expect(parsed(ZWorkCreate, { ...minimalWork, name: "  Payments  " }).name).toBe("Payments");
  });

  it("refuses an unknown field, naming it", () => {
    expect(issuesOf(ZWorkCreate, { ...minimalWork, policy: "warn" })).toEqual([
      { path: "policy", message: "unknown field: policy" },
    ]);
  });

  it("points a check's error at checkDefaults.<index>.<field>", () => {
    const issues = issuesOf(ZWorkCreate, {
      ...minimalWork,
      checkDefaults: [check("a"), check("b"), check("c", { timeoutSec: 0 })],
    });
    expect(issues).toEqual([{ path: "checkDefaults.2.timeoutSec", message: "at least 1 second" }]);
  });

  it("refuses duplicate ids in the defaults at checkDefaults.<index>.id", () => {
    const issues = issuesOf(ZWorkCreate, { ...minimalWork, checkDefaults: [check("a"), check("a")] })!;
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toBe("checkDefaults.1.id");
    expect(issues[0].message).toContain('duplicate id "a"');
  });

  it("refuses `disabled` in the defaults", () => {
    const issues = issuesOf(ZWorkCreate, { ...minimalWork, checkDefaults: [check("a", { disabled: true })] });
    expect(issues).toEqual([
      {
        path: "checkDefaults.0.disabled",
        message:
          "a Work's default cannot be disabled: only a task's entries suppress a default; " +
          "delete the check here instead",
      },
    ]);
  });

  it("accepts 20 default checks and refuses 21", () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => check(`c${i}`));
    expect(issuesOf(ZWorkCreate, { ...minimalWork, checkDefaults: list(20) })).toBeNull();
    expect(issuesOf(ZWorkCreate, { ...minimalWork, checkDefaults: list(21) })).toEqual([
      { path: "checkDefaults", message: "at most 20 checks" },
    ]);
  });

  it("refuses platform-owned names in agentEnvPassthrough", () => {
    const issues = issuesOf(ZWorkCreate, {
      ...minimalWork,
      agentEnvPassthrough: ["OPENAI_API_KEY", "GATEHOUSE_BOOTSTRAP_TOKEN"],
    })!;
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toBe("agentEnvPassthrough.1");
    expect(issues[0].message).toContain("GATEHOUSE_BOOTSTRAP_TOKEN");
  });

  it("reports every bad field at once", () => {
    const issues = issuesOf(ZWorkCreate, { name: "", repoUrl: "-x", maxGateAttempts: 9, checksPolicy: "nope" })!;
    expect(issues.map((i) => i.path).sort()).toEqual(["checksPolicy", "maxGateAttempts", "name", "repoUrl"]);
  });
});

describe("ZWorkPatch", () => {
  it("requires the version that was read", () => {
    expect(issuesOf(ZWorkPatch, { name: "New" })).toEqual([
      { path: "version", message: "required: the version you read (a whole number)" },
    ]);
  });

  it("accepts a patch of only the version and adds no defaults (a patch never resets fields)", () => {
    expect(parsed(ZWorkPatch, { version: 4 })).toEqual({ version: 4 });
  });

  it("keeps exactly the fields it is given", () => {
    expect(parsed(ZWorkPatch, { version: 2, checksPolicy: "off", failFast: true })).toEqual({
      version: 2,
      checksPolicy: "off",
      failFast: true,
    });
  });

  it.each([
    ["agentCommand", null],
    ["budgetSec", null],
    ["baseBranch", null],
  ])("accepts %s: null (removing the value)", (field, value) => {
    expect(parsed(ZWorkPatch, { version: 1, [field]: value })).toEqual({ version: 1, [field]: value });
  });

  it.each([
    ["name", null, "must be text"],
    ["checksPolicy", null, "must be one of off, warn, required"],
    ["maxGateAttempts", null, "must be a whole number from 1 to 5"],
    ["maxGateAttempts", 6, "at most 5 attempts"],
    ["failFast", null, "must be true or false"],
    ["checkDefaults", null, "must be a list of checks"],
    ["version", 0, "must be at least 1"],
  ])("refuses %s = %j", (field, value, message) => {
    expect(issuesOf(ZWorkPatch, { version: 1, [field]: value })).toEqual([{ path: field, message }]);
  });

  it("points a check's error at checkDefaults.<index>.<field>", () => {
    const issues = issuesOf(ZWorkPatch, { version: 3, checkDefaults: [check("a"), check("b", { expectExit: 256 })] });
    expect(issues).toEqual([{ path: "checkDefaults.1.expectExit", message: "an exit code is 0–255" }]);
  });

  it.each(["id", "createdAt", "tasks"])("refuses the unknown field %s", (field) => {
    expect(issuesOf(ZWorkPatch, { version: 1, [field]: "x" })).toEqual([
      { path: field, message: `unknown field: ${field}` },
    ]);
  });
});

describe("ZTaskCreate", () => {
  it("fills the defaults: inherit everything from the Work", () => {
    expect(parsed(ZTaskCreate, { title: "Fix the parser" })).toEqual({
      title: "Fix the parser",
      description: "",
      acceptanceChecks: null,
      maxGateAttempts: null,
      agentCommand: null,
      budgetSec: null,
      budgetUsd: null,
      lane: null,
    });
  });

  it("keeps an empty acceptanceChecks list as a list, distinct from null", () => {
    expect(parsed(ZTaskCreate, { title: "t", acceptanceChecks: [] }).acceptanceChecks).toEqual([]);
    expect(parsed(ZTaskCreate, { title: "t", acceptanceChecks: null }).acceptanceChecks).toBeNull();
  });

  it("accepts suppressing, replacing and adding entries", () => {
    const acceptanceChecks = [{ id: "lint", disabled: true }, check("unit", { timeoutSec: 60 }), check("e2e")];
    expect(parsed(ZTaskCreate, { title: "t", acceptanceChecks }).acceptanceChecks).toEqual(acceptanceChecks);
  });

  it.each([
    ["title", "", "required: 1–200 characters"],
    ["title", "  ", "required: 1–200 characters"],
    ["title", "t".repeat(201), "at most 200 characters"],
    ["title", "\u200b\u200d", "must contain a visible character"],
    [
      "title",
      "Fix \u202etxt.exe",
      "must not contain text-direction controls (U+202A–202E, U+2066–2069): they reorder what is shown",
    ],
    ["description", "d".repeat(20_001), "at most 20000 characters"],
    ["branch", "has space", "letters, digits, '.', '_', '/' and '-' only"],
    ["maxGateAttempts", 0, "at least 1 attempt"],
    ["maxGateAttempts", 6, "at most 5 attempts"],
    ["budgetSec", 0, "at least 1 second"],
    ["agentCommand", "", "must not be blank (use null for no agent)"],
  ])("refuses %s = %j", (field, value, message) => {
    expect(issuesOf(ZTaskCreate, { title: "t", [field]: value })).toEqual([{ path: field, message }]);
  });

  it.each([
    ["title", "t".repeat(200)],
    ["description", "d".repeat(20_000)],
    ["maxGateAttempts", 1],
    ["maxGateAttempts", 5],
    ["branch", "gatehouse/gate-7"],
  ])("accepts %s = (edge) %j", (field, value) => {
    expect(issuesOf(ZTaskCreate, { title: "t", [field]: value })).toBeNull();
  });

  it("requires a title", () => {
    expect(issuesOf(ZTaskCreate, {})!.map((i) => i.path)).toEqual(["title"]);
  });

  it("points an entry's error at acceptanceChecks.<index>.<field>", () => {
    const issues = issuesOf(ZTaskCreate, {
      title: "t",
      acceptanceChecks: [{ id: "lint", disabled: true }, check("x", { cwd: "/abs" })],
    });
    expect(issues).toEqual([
      { path: "acceptanceChecks.1.cwd", message: "must be relative to the checkout root, not absolute" },
    ]);
  });

  it("accepts 20 entries and refuses 21", () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, disabled: true }));
    expect(issuesOf(ZTaskCreate, { title: "t", acceptanceChecks: list(20) })).toBeNull();
    expect(issuesOf(ZTaskCreate, { title: "t", acceptanceChecks: list(21) })).toEqual([
      { path: "acceptanceChecks", message: "at most 20 checks" },
    ]);
  });

  it("refuses an unknown field, naming it", () => {
    expect(issuesOf(ZTaskCreate, { title: "t", key: "GATE-1" })).toEqual([
      { path: "key", message: "unknown field: key" },
    ]);
  });
});

describe("ZTaskPatch", () => {
  it("requires the version", () => {
    expect(issuesOf(ZTaskPatch, { title: "x" })!.map((i) => i.path)).toEqual(["version"]);
  });

  it("adds no defaults", () => {
    expect(parsed(ZTaskPatch, { version: 1 })).toEqual({ version: 1 });
  });

  it.each([
    ["acceptanceChecks", null],
    ["acceptanceChecks", []],
    ["maxGateAttempts", null],
    ["maxGateAttempts", 4],
    ["agentCommand", null],
    ["budgetSec", null],
  ])("accepts %s = %j (back to inherit, or a value)", (field, value) => {
    expect(parsed(ZTaskPatch, { version: 1, [field]: value })).toEqual({ version: 1, [field]: value });
  });

  it("points an entry's error at acceptanceChecks.<index>.<field>", () => {
    const issues = issuesOf(ZTaskPatch, {
      version: 2,
      acceptanceChecks: [check("a"), check("b"), check("c", { timeoutSec: 3601 })],
    });
    expect(issues).toEqual([{ path: "acceptanceChecks.2.timeoutSec", message: "at most 3600 seconds (1 hour)" }]);
  });

  it("refuses duplicate ids at acceptanceChecks.<index>.id", () => {
    const issues = issuesOf(ZTaskPatch, {
      version: 2,
      acceptanceChecks: [
        { id: "x", disabled: true },
        { id: "x", disabled: true },
      ],
    })!;
    expect(issues.map((i) => i.path)).toEqual(["acceptanceChecks.1.id"]);
  });

  it("refuses an unknown field, naming it", () => {
    expect(issuesOf(ZTaskPatch, { version: 1, effectiveChecks: [] })).toEqual([
      { path: "effectiveChecks", message: "unknown field: effectiveChecks" },
    ]);
  });
});

describe("proof settings", () => {
  it("the defaults are the SPEC's", () => {
    expect(DEFAULT_TEST_PATTERNS).toEqual([
      "**/*.{test,spec}.*",
      "**/__tests__/**",
      "test/**",
      "tests/**",
      "**/test_*.py",
      "**/*_test.py",
      "**/*_test.go",
      "src/test/**",
    ]);
    expect(DEFAULT_PROTECTED_PATHS).toEqual([
      "**/conftest.py",
      "pytest.ini",
      "jest.config.*",
      "vitest.config.*",
      ".mocharc.*",
    ]);
  });

  it("a patch keeps the proof fields it is given", () => {
    expect(
      parsed(ZWorkPatch, {
        version: 2,
        testPatterns: ["spec/**"],
        requireTests: "required",
        protectedPaths: [],
        vacuousPolicy: "off",
      }),
    ).toEqual({
      version: 2,
      testPatterns: ["spec/**"],
      requireTests: "required",
      protectedPaths: [],
      vacuousPolicy: "off",
    });
  });

  it("refuses bad globs and policies at the field path, every one at once", () => {
    expect(
      issuesOf(ZWorkPatch, {
        version: 1,
        testPatterns: ["ok/**", "src/[abc", ""],
        protectedPaths: ["../x", "/etc/passwd", "scripts/{a,b"],
        requireTests: "sometimes",
        vacuousPolicy: true,
      }),
    ).toEqual([
      { path: "testPatterns.1", message: 'not a glob: missing closing: "]"' },
      { path: "testPatterns.2", message: "must not be empty" },
      { path: "requireTests", message: "must be one of off, warn, required" },
      { path: "protectedPaths.0", message: "must stay inside the checkout: '..' is not allowed" },
      { path: "protectedPaths.1", message: "must be relative to the checkout root, not absolute" },
      { path: "protectedPaths.2", message: 'not a glob: missing closing: "}"' },
      { path: "vacuousPolicy", message: "must be one of off, warn, required" },
    ]);
  });

  it("a list of globs must be a list", () => {
    expect(issuesOf(ZWorkPatch, { version: 1, testPatterns: "**/*.test.ts" })).toEqual([
      { path: "testPatterns", message: "must be a list of globs" },
    ]);
  });
});
