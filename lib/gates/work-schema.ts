// A Work's and a Task's settings. Create and patch share the field rules; a patch carries the
// `version` it was read at (optimistic concurrency).
import { z } from "zod";
import { ZCheckCwd, ZCheckList, ZTaskCheckList } from "./check-schema";
import { ZCheckSourceList } from "./check-sources";
import { ZEnvNameList } from "./env-names";
import { ZGlobList } from "./globs";
import { DEFAULT_MERGE_POLICY, ZMergePolicy } from "./merge-policy";

export const CHECKS_POLICIES = ["off", "warn", "required"] as const;
export type ChecksPolicy = (typeof CHECKS_POLICIES)[number];
export const MIN_ATTEMPTS = 1;
export const MAX_ATTEMPTS = 5;
export const DEFAULT_ATTEMPTS = 3;
const MAX_BUDGET_SEC = 86_400;

export const ZChecksPolicy = z.enum(CHECKS_POLICIES, { error: "must be one of off, warn, required" });

// Proof (SPEC Part 2): which files are tests, which are the gate's own, and how the proof rows count (with
// the checks' own policies: off, warn, required).
export const DEFAULT_TEST_PATTERNS: readonly string[] = [
  "**/*.{test,spec}.*",
  "**/__tests__/**",
  "test/**",
  "tests/**",
  "**/test_*.py",
  "**/*_test.py",
  "**/*_test.go",
  "src/test/**",
];
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  "**/conftest.py",
  "pytest.ini",
  "jest.config.*",
  "vitest.config.*",
  ".mocharc.*",
];
const DEFAULT_REQUIRE_TESTS: ChecksPolicy = "warn";
const DEFAULT_VACUOUS_POLICY: ChecksPolicy = "warn";

// Verification profiles (SPEC Part 2): which layers run after the checks. lite: the checks and proof rows;
// standard: + evidence and review; full: + red team and mutation floor.
export const PROFILES = ["lite", "standard", "full"] as const;
export type Profile = (typeof PROFILES)[number];
const DEFAULT_PROFILE: Profile = "standard";
export const ZProfile = z.enum(PROFILES, { error: "must be one of lite, standard, full" });
// The layers' commands (any agent CLI, a test runner, a mutation tool): the agent command's rules, each
// saying what null means for it.
const layerCommand = (whenNone: string) =>
  z
    .string({ error: "must be text" })
    .max(2000, "at most 2000 characters")
    .refine((v) => v.trim().length > 0, `must not be blank (${whenNone})`)
    .refine((v) => !v.includes("\0"), "must not contain NUL characters");

// The mutation floor with another tool: its command, and where (relative to the checkout) its JSON report is.
const ZMutationReport = z
  .string({ error: "must be text" })
  .trim()
  .min(1, "must not be empty (use null for none)")
  .max(500, "at most 500 characters")
  .refine((v) => !v.startsWith("/") && !v.split(/[\\/]/).includes(".."), "must be a path inside the checkout")
  .refine((v) => !/[\0\n]/.test(v), "must not contain NUL or line breaks");

// What a run freezes of them at dispatch.
export type ProofSettings = {
  testPatterns: string[];
  requireTests: ChecksPolicy;
  protectedPaths: string[];
  vacuousPolicy: ChecksPolicy;
};

export const ZMaxGateAttempts = z
  .number({ error: "must be a whole number from 1 to 5" })
  .int("must be a whole number from 1 to 5")
  .min(MIN_ATTEMPTS, "at least 1 attempt")
  .max(MAX_ATTEMPTS, "at most 5 attempts");

export const ZBudgetSec = z
  .number({ error: "must be a whole number of seconds" })
  .int("must be a whole number of seconds")
  .min(1, "at least 1 second")
  .max(MAX_BUDGET_SEC, "at most 86400 seconds (24 hours)");

export const ZAgentCommand = z
  .string({ error: "must be text" })
  .max(2000, "at most 2000 characters")
  .refine((v) => v.trim().length > 0, "must not be blank (use null for no agent)")
  .refine((v) => !v.includes("\0"), "must not contain NUL characters");

// Git's ref-name rules, kept to what matters: no spaces or control characters, no "..", no leading "-".
export const ZBranchName = z
  .string({ error: "must be text" })
  .min(1, "must not be empty")
  .max(200, "at most 200 characters")
  .regex(/^[A-Za-z0-9._/-]+$/, "letters, digits, '.', '_', '/' and '-' only")
  .refine((v) => !v.startsWith("-") && !v.startsWith("/") && !v.startsWith("."), "must not start with '-', '/' or '.'")
  .refine((v) => !v.includes("..") && !v.includes("//"), "must not contain '..' or '//'")
  .refine((v) => !v.endsWith("/") && !v.endsWith(".") && !v.endsWith(".lock"), "must not end with '/', '.' or '.lock'")
  .refine(
    (v) => v.split("/").every((part) => !part.startsWith(".") && !part.endsWith(".lock")),
    "no part between '/' may start with '.' or end with '.lock'",
  );

export const ZRepoUrl = z
  .string({ error: "must be text" })
  .trim()
  .min(1, "required: anything git clone accepts (a local path, file://, https://)")
  .max(2000, "at most 2000 characters")
  .refine((v) => !/[\s\0]/.test(v), "must not contain spaces or control characters")
  .refine((v) => !v.startsWith("-"), "must not start with '-'");

const workFields = {
  name: z
    .string({ error: "must be text" })
    .trim()
    .min(1, "required: 1–120 characters")
    .max(120, "at most 120 characters"),
  repoUrl: ZRepoUrl,
  baseBranch: ZBranchName.nullable().optional(),
  checkDefaults: ZCheckList,
  checksPolicy: ZChecksPolicy,
  maxGateAttempts: ZMaxGateAttempts,
  agentCommand: ZAgentCommand.nullable(),
  agentEnvPassthrough: ZEnvNameList,
  budgetSec: ZBudgetSec.nullable(),
  failFast: z.boolean({ error: "must be true or false" }),
  strictEvaluation: z.boolean({ error: "must be true or false" }),
  testPatterns: ZGlobList,
  requireTests: ZChecksPolicy,
  protectedPaths: ZGlobList,
  vacuousPolicy: ZChecksPolicy,
  checkSources: ZCheckSourceList,
  mergePolicy: ZMergePolicy,
  // {{results_dir}}: a directory relative to the checkout (null: its root), where built-ins read outputs.
  resultsDir: ZCheckCwd.nullable(),
  profile: ZProfile,
  reviewCommand: layerCommand("use null for no review").nullable(),
  mutationCommand: layerCommand("use null for the repository's Stryker configuration").nullable(),
  mutationReport: ZMutationReport.nullable(),
  redTeamCommand: layerCommand("use null for no red team").nullable(),
  redTeamTestCommand: layerCommand("use null for no red team").nullable(),
};

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `unknown field: ${(issue.keys ?? []).join(", ")}` : "must be an object";

export const ZVersion = z
  .number({ error: "required: the version you read (a whole number)" })
  .int("must be a whole number")
  .min(1, "must be at least 1");

export const ZWorkCreate = z.strictObject(
  {
    ...workFields,
    checkDefaults: workFields.checkDefaults.default([]),
    checksPolicy: workFields.checksPolicy.default("required"),
    maxGateAttempts: workFields.maxGateAttempts.default(DEFAULT_ATTEMPTS),
    agentCommand: workFields.agentCommand.optional().default(null),
    agentEnvPassthrough: workFields.agentEnvPassthrough.default([]),
    budgetSec: workFields.budgetSec.optional().default(null),
    failFast: workFields.failFast.default(false),
    strictEvaluation: workFields.strictEvaluation.default(false),
    testPatterns: workFields.testPatterns.default(() => [...DEFAULT_TEST_PATTERNS]),
    requireTests: workFields.requireTests.default(DEFAULT_REQUIRE_TESTS),
    protectedPaths: workFields.protectedPaths.default(() => [...DEFAULT_PROTECTED_PATHS]),
    vacuousPolicy: workFields.vacuousPolicy.default(DEFAULT_VACUOUS_POLICY),
    checkSources: workFields.checkSources.default([]),
    mergePolicy: workFields.mergePolicy.default(() => ({ ...DEFAULT_MERGE_POLICY })),
    resultsDir: workFields.resultsDir.optional().default(null),
    profile: workFields.profile.default(DEFAULT_PROFILE),
    reviewCommand: workFields.reviewCommand.optional().default(null),
    mutationCommand: workFields.mutationCommand.optional().default(null),
    mutationReport: workFields.mutationReport.optional().default(null),
    redTeamCommand: workFields.redTeamCommand.optional().default(null),
    redTeamTestCommand: workFields.redTeamTestCommand.optional().default(null),
  },
  { error: strictError },
);
export type WorkCreate = z.infer<typeof ZWorkCreate>;

export const ZWorkPatch = z.strictObject(
  {
    name: workFields.name.optional(),
    repoUrl: workFields.repoUrl.optional(),
    baseBranch: workFields.baseBranch,
    checkDefaults: workFields.checkDefaults.optional(),
    checksPolicy: workFields.checksPolicy.optional(),
    maxGateAttempts: workFields.maxGateAttempts.optional(),
    agentCommand: workFields.agentCommand.optional(),
    agentEnvPassthrough: workFields.agentEnvPassthrough.optional(),
    budgetSec: workFields.budgetSec.optional(),
    failFast: workFields.failFast.optional(),
    strictEvaluation: workFields.strictEvaluation.optional(),
    testPatterns: workFields.testPatterns.optional(),
    requireTests: workFields.requireTests.optional(),
    protectedPaths: workFields.protectedPaths.optional(),
    vacuousPolicy: workFields.vacuousPolicy.optional(),
    checkSources: workFields.checkSources.optional(),
    mergePolicy: workFields.mergePolicy.optional(),
    resultsDir: workFields.resultsDir.optional(),
    profile: workFields.profile.optional(),
    reviewCommand: workFields.reviewCommand.optional(),
    mutationCommand: workFields.mutationCommand.optional(),
    mutationReport: workFields.mutationReport.optional(),
    redTeamCommand: workFields.redTeamCommand.optional(),
    redTeamTestCommand: workFields.redTeamTestCommand.optional(),
    version: ZVersion,
  },
  { error: strictError },
);

const taskFields = {
  title: z
    .string({ error: "must be text" })
    .trim()
    .min(1, "required: 1–200 characters")
    .max(200, "at most 200 characters"),
  description: z.string({ error: "must be text" }).max(20_000, "at most 20000 characters"),
  branch: ZBranchName,
  acceptanceChecks: ZTaskCheckList.nullable(),
  maxGateAttempts: ZMaxGateAttempts.nullable(),
  agentCommand: ZAgentCommand.nullable(),
  budgetSec: ZBudgetSec.nullable(),
};

export const ZTaskCreate = z.strictObject(
  {
    title: taskFields.title,
    description: taskFields.description.default(""),
    branch: taskFields.branch.optional(),
    acceptanceChecks: taskFields.acceptanceChecks.optional().default(null),
    maxGateAttempts: taskFields.maxGateAttempts.optional().default(null),
    agentCommand: taskFields.agentCommand.optional().default(null),
    budgetSec: taskFields.budgetSec.optional().default(null),
  },
  { error: strictError },
);

export const ZTaskPatch = z.strictObject(
  {
    title: taskFields.title.optional(),
    description: taskFields.description.optional(),
    branch: taskFields.branch.optional(),
    acceptanceChecks: taskFields.acceptanceChecks.optional(),
    maxGateAttempts: taskFields.maxGateAttempts.optional(),
    agentCommand: taskFields.agentCommand.optional(),
    budgetSec: taskFields.budgetSec.optional(),
    version: ZVersion,
  },
  { error: strictError },
);
