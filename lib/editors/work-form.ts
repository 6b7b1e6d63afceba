// The Work settings editor's working copy, and the patch (validated by ZWorkPatch) it saves.
import { z } from "zod";
import { ZGlobList } from "../gates/globs";
import { ZChecksPolicy, ZProfile, ZWorkPatch, type ChecksPolicy } from "../gates/work-schema";
import { toFieldIssues } from "../gates/field-issues";
import { unknownSecretIssues } from "../gates/check-sources";
import type { WorkRecord } from "../db/works";
import { checkFromForm, formFromCheck, splitNames, wholeNumberOrText, type CheckForm } from "./check-form";

// The part of a Work its settings editor shows and saves.
export type WorkSettings = Pick<
  WorkRecord,
  | "checkDefaults"
  | "checksPolicy"
  | "maxGateAttempts"
  | "agentCommand"
  | "agentEnvPassthrough"
  | "budgetSec"
  | "failFast"
  | "strictEvaluation"
  | "testPatterns"
  | "requireTests"
  | "protectedPaths"
  | "vacuousPolicy"
  | "checkSources"
  | "mergePolicy"
  | "resultsDir"
  | "profile"
  | "reviewCommand"
  | "mutationCommand"
  | "mutationReport"
  | "redTeamCommand"
  | "redTeamTestCommand"
  | "version"
>;

// One check source as typed (secret "" for none).
export type CheckSourceForm = { key: string; name: string; url: string; ref: string; secret: string };

export type WorkForm = {
  checkDefaults: CheckForm[];
  checksPolicy: string;
  maxGateAttempts: string;
  agentCommand: string;
  agentEnvPassthrough: string;
  budgetSec: string;
  failFast: boolean;
  strictEvaluation: boolean;
  // One glob per line.
  testPatterns: string;
  requireTests: string;
  protectedPaths: string;
  vacuousPolicy: string;
  checkSources: CheckSourceForm[];
  mergePolicy: { requireGreenGate: boolean; autoMerge: boolean; method: string };
  // {{results_dir}} relative to the checkout; empty: its root.
  resultsDir: string;
  profile: string;
  reviewCommand: string;
  mutationCommand: string;
  mutationReport: string;
  redTeamCommand: string;
  redTeamTestCommand: string;
};

// A list of globs as typed: one per line, blank lines left out (spaces inside a line are kept for the
// schema to judge).
function splitLines(text: string): string[] {
  return text.split("\n").filter((line) => line.trim() !== "");
}

export function workFormFrom(s: WorkSettings): WorkForm {
  return {
    checkDefaults: s.checkDefaults.map((c) => formFromCheck(c)),
    checksPolicy: s.checksPolicy,
    maxGateAttempts: String(s.maxGateAttempts),
    agentCommand: s.agentCommand ?? "",
    agentEnvPassthrough: s.agentEnvPassthrough.join(", "),
    budgetSec: s.budgetSec === null ? "" : String(s.budgetSec),
    failFast: s.failFast,
    strictEvaluation: s.strictEvaluation,
    testPatterns: s.testPatterns.join("\n"),
    requireTests: s.requireTests,
    protectedPaths: s.protectedPaths.join("\n"),
    vacuousPolicy: s.vacuousPolicy,
    checkSources: s.checkSources.map((c, i) => ({ key: `source-${i}`, ...c, secret: c.secret ?? "" })),
    mergePolicy: { ...s.mergePolicy },
    resultsDir: s.resultsDir ?? "",
    profile: s.profile,
    reviewCommand: s.reviewCommand ?? "",
    mutationCommand: s.mutationCommand ?? "",
    mutationReport: s.mutationReport ?? "",
    redTeamCommand: s.redTeamCommand ?? "",
    redTeamTestCommand: s.redTeamTestCommand ?? "",
  };
}

export function checkSourcesFrom(forms: readonly CheckSourceForm[]) {
  return forms.map(({ name, url, ref, secret }) => ({ name, url, ref, ...(secret ? { secret } : {}) }));
}

export function workPatchFrom(form: WorkForm): Record<string, unknown> {
  return {
    checkDefaults: form.checkDefaults.map(checkFromForm),
    checksPolicy: form.checksPolicy,
    maxGateAttempts: wholeNumberOrText(form.maxGateAttempts),
    agentCommand: form.agentCommand.trim() ? form.agentCommand : null,
    agentEnvPassthrough: splitNames(form.agentEnvPassthrough),
    budgetSec: form.budgetSec.trim() ? wholeNumberOrText(form.budgetSec) : null,
    failFast: form.failFast,
    strictEvaluation: form.strictEvaluation,
    testPatterns: splitLines(form.testPatterns),
    requireTests: form.requireTests,
    protectedPaths: splitLines(form.protectedPaths),
    vacuousPolicy: form.vacuousPolicy,
    checkSources: checkSourcesFrom(form.checkSources),
    mergePolicy: form.mergePolicy,
    resultsDir: form.resultsDir.trim() ? form.resultsDir.trim() : null,
    profile: form.profile,
    reviewCommand: form.reviewCommand.trim() ? form.reviewCommand : null,
    mutationCommand: form.mutationCommand.trim() ? form.mutationCommand : null,
    mutationReport: form.mutationReport.trim() ? form.mutationReport : null,
    redTeamCommand: form.redTeamCommand.trim() ? form.redTeamCommand : null,
    redTeamTestCommand: form.redTeamTestCommand.trim() ? form.redTeamTestCommand : null,
  };
}

// Field errors as the server would give them (same schema), keyed by path ("checkDefaults.2.timeoutSec").
// With the Work's secret names, a check source naming another secret is refused as the server would.
export function validateWorkForm(
  form: WorkForm,
  version: number,
  secretNames?: readonly string[],
): Map<string, string> {
  const parsed = ZWorkPatch.safeParse({ ...workPatchFrom(form), version });
  const map = new Map<string, string>();
  if (!parsed.success)
    for (const issue of toFieldIssues(parsed.error)) if (!map.has(issue.path)) map.set(issue.path, issue.message);
  if (secretNames)
    for (const issue of unknownSecretIssues(checkSourcesFrom(form.checkSources), secretNames)) {
      const path = ["checkSources", ...issue.path].join(".");
      if (!map.has(path)) map.set(path, issue.message);
    }
  return map;
}

export const POLICY_EXPLAINED: Record<ChecksPolicy, string> = {
  required: "A red gate blocks: the agent works on until the gate is green, or the attempts or budget run out.",
  warn: "Checks run and report, but red does not block: one attempt, accepted with the red shown as a warning.",
  off: "Checks never run: the agent step runs once and the run is accepted.",
};

export const REQUIRE_TESTS_EXPLAINED: Record<ChecksPolicy, string> = {
  required: "A change without a test is red: the gate stays red until a test file is touched.",
  warn: "A change without a test is reported on the run, but does not decide the gate.",
  off: "Nobody asks whether tests were added.",
};

export const VACUOUS_POLICY_EXPLAINED: Record<ChecksPolicy, string> = {
  required: "A check that passes without the change too turns the gate red: it proves nothing.",
  warn: "A check that passes without the change too is reported, but does not decide the gate.",
  off: "Checks are not run again without the change.",
};

export const PROFILE_EXPLAINED: Record<string, string> = {
  lite: "The checks and the proof rows only.",
  standard:
    "Also evidence (each criterion shown working in .gatehouse/evidence.md) and, with a review command, an independent review after a green gate.",
  full: "Everything in standard, the red team (with its two commands below), and the mutation floor: the changed files are mutated (Stryker, when the repository commits a configuration with thresholds.break, or the mutation command below) and the tests must notice.",
};

// The proof settings as the form holds them, for the gates-file export (valid ones only).
export const ZProofOfWork = z.object({
  testPatterns: ZGlobList,
  requireTests: ZChecksPolicy,
  protectedPaths: ZGlobList,
  vacuousPolicy: ZChecksPolicy,
  profile: ZProfile,
});

export function proofPatchFrom(form: WorkForm) {
  return {
    testPatterns: splitLines(form.testPatterns),
    requireTests: form.requireTests,
    protectedPaths: splitLines(form.protectedPaths),
    vacuousPolicy: form.vacuousPolicy,
    profile: form.profile,
  };
}
