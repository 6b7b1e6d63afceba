// The rules of each Work (and Task) field, one schema per field. The registry of Work settings
// (work-settings.ts) names them; work-schema.ts builds the create and patch schemas from it.
import { z } from "zod";

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
export const DEFAULT_REQUIRE_TESTS: ChecksPolicy = "warn";
export const DEFAULT_VACUOUS_POLICY: ChecksPolicy = "warn";

// Verification profiles (SPEC Part 2): which layers run after the checks. lite: the checks and proof rows;
// standard: + evidence and review; full: + red team and mutation floor.
export const PROFILES = ["lite", "standard", "full"] as const;
export type Profile = (typeof PROFILES)[number];
export const DEFAULT_PROFILE: Profile = "standard";
export const ZProfile = z.enum(PROFILES, { error: "must be one of lite, standard, full" });
// The layers' commands (any agent CLI, a test runner, a mutation tool): the agent command's rules, each
// saying what null means for it.
export const layerCommand = (whenNone: string) =>
  z
    .string({ error: "must be text" })
    .max(2000, "at most 2000 characters")
    .refine((v) => v.trim().length > 0, `must not be blank (${whenNone})`)
    .refine((v) => !v.includes("\0"), "must not contain NUL characters");

// The mutation floor with another tool: its command, and where (relative to the checkout) its JSON report is.
export const ZMutationReport = z
  .string({ error: "must be text" })
  .trim()
  .min(1, "must not be empty (use null for none)")
  .max(500, "at most 500 characters")
  .refine((v) => !v.startsWith("/") && !v.split(/[\\/]/).includes(".."), "must be a path inside the checkout")
  .refine((v) => !/[\0\n]/.test(v), "must not contain NUL or line breaks");

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

// A run's spend guardrail in USD (the agent CLI's reported cost): more than 0, at most 10,000.
export const ZBudgetUsd = z
  .number({ error: "must be a number of US dollars" })
  .gt(0, "more than 0")
  .max(10_000, "at most 10000");

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
  )
  // git's name for the checked-out commit, and a full ref where a branch's short name goes (refs/heads/x
  // would be the branch refs/heads/refs/heads/x).
  .refine((v) => v !== "HEAD", "must not be HEAD (git's name for the current commit)")
  .refine((v) => !v.startsWith("refs/"), "a branch's short name, without refs/ (main, not refs/heads/main)");

export const ZRepoUrl = z
  .string({ error: "must be text" })
  .trim()
  .min(1, "required: anything git clone accepts (a local path, file://, https://)")
  .max(2000, "at most 2000 characters")
  .refine((v) => !/[\s\0]/.test(v), "must not contain spaces or control characters")
  .refine((v) => !v.startsWith("-"), "must not start with '-'");
