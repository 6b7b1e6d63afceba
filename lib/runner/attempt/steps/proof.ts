// The proof rows of an attempt (lib/gates/proof.ts decides them), in two steps. After the check step,
// `_tests-added` and `_protected` come from the change since the run's start commit alone (proofStep).
// After a green gate `_tests-kept` and `_fails-without-change` run checks again in scratch worktrees (never
// the task's), each bounded by the check's timeout and by what is left of the run's budget (rerunStep).
import fs from "node:fs";
import path from "node:path";
import { timeoutOf, type EffectiveCheck } from "../../../gates/merge-checks";
import {
  FAILS_WITHOUT_CHANGE,
  failsWithoutChangeRow,
  findSkipMarkers,
  PROOF_KIND,
  PROOF_NAMES,
  protectedRow,
  provesChangeOf,
  TESTS_KEPT,
  testFilesToRestore,
  testsAddedRow,
  testsKeptRow,
  type FileChange,
  type ProofRow,
  type Rerun,
} from "../../../gates/proof";
import { globMatcher } from "../../../gates/globs";
import { scriptsOfCommand } from "../../../gates/command-scripts";
import { PROFILES, type ProofSettings } from "../../../gates/work-schema";
import { resolveInsideCheckout } from "../../checkout/checkout";
import { layOver, scratchDirOf, withScratchWorktree } from "../../checkout/scratch";
import { attemptDirOf } from "../../paths";
import { timeoutWords } from "../budget";
import type { AttemptContext, Change } from "../context";
import { judgeOutcome } from "../judge";
import { runCheckHere } from "../run-check";
import { NOTHING, type Step, type StepVerdict } from "../step";

const verdictOf = (r: ProofRow): StepVerdict => ({
  required: r.required,
  verdict: r.verdict,
  checkId: r.checkId,
  message: r.message,
});

// `_tests-added` and `_protected`: what the change touched.
export const proofStep: Step = {
  id: "proof",
  profiles: PROFILES,
  after: "always",
  async run(ctx) {
    const { run } = ctx;
    const settings = run.proof;
    if (!settings || !run.startCommit) return NOTHING;
    const startedAt = new Date();
    const rows: ProofRow[] = [];
    let change: Change;
    try {
      change = await ctx.change();
    } catch (error) {
      const message = `could not read the change since the start commit: ${(error as Error).message}`;
      const row: ProofRow = {
        checkId: "_protected",
        name: PROOF_NAMES._protected,
        kind: PROOF_KIND,
        required: true,
        verdict: "error",
        message,
        details: message,
      };
      ctx.record(row, startedAt);
      return { verdicts: [verdictOf(row)] };
    }
    const added = testsAddedRow({ changes: change.changes, ...settings });
    if (added) rows.push(added);
    const guarded = protectedRow({
      changes: change.changes,
      protectedPaths: settings.protectedPaths,
      scripts: scriptsOfChecks(ctx.checkoutPath, run.checks.filter(isRerunnable), change.changes),
    });
    if (guarded) rows.push(guarded);
    for (const row of rows) ctx.record(row, startedAt);
    return { verdicts: rows.map(verdictOf) };
  },
};

// `_tests-kept` and `_fails-without-change`: the checks run again, after a green gate.
export const rerunStep: Step = {
  id: "proof-reruns",
  profiles: PROFILES,
  after: "green",
  async run(ctx) {
    const { run } = ctx;
    const settings = run.proof;
    if (!settings || !run.startCommit) return NOTHING;
    const change = await ctx.change();
    const verdicts: StepVerdict[] = [];
    const kept = await testsKept(ctx, settings, change);
    if (kept) {
      ctx.record(kept.row, kept.startedAt);
      verdicts.push(verdictOf(kept.row));
    }
    if (ctx.signal.aborted) return { verdicts };
    const vacuous = await failsWithoutChange(ctx, settings, change);
    if (vacuous) {
      ctx.record(vacuous.row, vacuous.startedAt);
      verdicts.push(verdictOf(vacuous.row));
    }
    return { verdicts };
  },
};

// Script → the checks whose command runs it, for the scripts that are files of the checkout (or were,
// before the change deleted them).
function scriptsOfChecks(
  checkoutPath: string,
  checks: readonly EffectiveCheck[],
  changes: readonly FileChange[],
): Map<string, string[]> {
  const changed = new Set(changes.map((c) => c.path));
  const scripts = new Map<string, string[]>();
  for (const check of checks)
    for (const script of scriptsOfCommand(check.command ?? "", check.cwd ?? "")) {
      const isFile =
        changed.has(script) || fs.statSync(path.join(checkoutPath, script), { throwIfNoEntry: false })?.isFile();
      if (!isFile) continue;
      scripts.set(script, [...(scripts.get(script) ?? []), check.id]);
    }
  return scripts;
}

type Timed = { row: ProofRow; startedAt: Date };

async function testsKept(ctx: AttemptContext, settings: ProofSettings, change: Change): Promise<Timed | null> {
  const start = ctx.run.startCommit!;
  const restored = testFilesToRestore(change.changes, settings.testPatterns);
  const markers = findSkipMarkers(change.diff);
  const testChecks = ctx.run.checks.filter((c) => c.kind === "test" && isRerunnable(c));
  const startedAt = new Date();
  if (restored.length === 0 || testChecks.length === 0) {
    const r = testsKeptRow({ restored, markers, reruns: null, hasTestChecks: testChecks.length > 0 });
    return r ? { row: r, startedAt } : null;
  }
  showRunning(ctx, TESTS_KEPT, startedAt, "running the test checks with the tests as they were…");
  try {
    const reruns = await withScratchWorktree({
      checkoutPath: ctx.checkoutPath,
      dir: scratchDirOf(ctx.deps.dataDir, ctx.run.id, ctx.attempt.n, TESTS_KEPT),
      commit: await change.commit(),
      fn: async (dir) => {
        await layOver(
          dir,
          start,
          restored.map((c) => c.path),
        );
        return rerunAll(ctx, testChecks, dir, TESTS_KEPT);
      },
    });
    return { row: testsKeptRow({ restored, markers, reruns, hasTestChecks: true })!, startedAt };
  } catch (error) {
    return { row: errorRow(TESTS_KEPT, true, error), startedAt };
  }
}

async function failsWithoutChange(ctx: AttemptContext, settings: ProofSettings, change: Change): Promise<Timed | null> {
  const start = ctx.run.startCommit!;
  const provers = ctx.run.checks.filter((c) => provesChangeOf(c) && isRerunnable(c));
  if (settings.vacuousPolicy === "off" || provers.length === 0) return null;
  const startedAt = new Date();
  const isTest = globMatcher(settings.testPatterns);
  const tests = change.changes.filter((c) => isTest(c.path));
  const laid = tests.filter((c) => c.status !== "D").map((c) => c.path);
  const removed = tests.filter((c) => c.status === "D").map((c) => c.path);
  showRunning(ctx, FAILS_WITHOUT_CHANGE, startedAt, "running the checks without the change…");
  try {
    const reruns = await withScratchWorktree({
      checkoutPath: ctx.checkoutPath,
      dir: scratchDirOf(ctx.deps.dataDir, ctx.run.id, ctx.attempt.n, FAILS_WITHOUT_CHANGE),
      commit: start,
      fn: async (dir) => {
        await layOver(dir, laid.length ? await change.commit() : start, laid, removed);
        return rerunAll(ctx, provers, dir, FAILS_WITHOUT_CHANGE);
      },
    });
    const r = failsWithoutChangeRow({ vacuousPolicy: settings.vacuousPolicy, reruns, laidOver: laid });
    return r ? { row: r, startedAt } : null;
  } catch (error) {
    return { row: errorRow(FAILS_WITHOUT_CHANGE, settings.vacuousPolicy === "required", error), startedAt };
  }
}

function errorRow(checkId: string, required: boolean, error: unknown): ProofRow {
  const message = `could not run the checks again: ${(error as Error).message}`;
  return {
    checkId,
    name: PROOF_NAMES[checkId],
    kind: PROOF_KIND,
    required,
    verdict: "error",
    message,
    details: `${message}\n`,
  };
}

function showRunning(ctx: AttemptContext, checkId: string, startedAt: Date, message: string) {
  ctx.results.add({
    checkId,
    name: PROOF_NAMES[checkId],
    kind: PROOF_KIND,
    required: checkId === TESTS_KEPT || ctx.run.proof?.vacuousPolicy === "required",
    verdict: "running",
    message,
    startedAt,
  });
}

async function rerunAll(
  ctx: AttemptContext,
  checks: readonly EffectiveCheck[],
  dir: string,
  rowId: string,
): Promise<Rerun[]> {
  const reruns: Rerun[] = [];
  for (const check of checks) reruns.push(await rerun(ctx, check, dir, rowId));
  return reruns;
}

async function rerun(ctx: AttemptContext, check: EffectiveCheck, dir: string, rowId: string): Promise<Rerun> {
  const { run, attempt, deps } = ctx;
  const base = { checkId: check.id, exitCode: null, tail: null };
  if (ctx.signal.aborted) return { ...base, verdict: "skipped", message: "the run was stopped" };
  if (ctx.budget.isSpent()) return { ...base, verdict: "skipped", message: ctx.budget.spentMessage() };
  const where = resolveInsideCheckout(dir, check.cwd);
  if ("error" in where) return { ...base, verdict: "error", message: where.error };
  const timeout = ctx.budget.timeoutFor(timeoutOf(check) * 1000);
  const outcome = await runCheckHere(ctx, check, {
    checkoutDir: dir,
    liveName: `${rowId}.${check.id}`,
    cwd: where.path,
    timeoutMs: timeout.timeoutMs,
    logPath: path.join(attemptDirOf(deps.dataDir, run.id, attempt.n), `${rowId}.${check.id}.log`),
  });
  // Cut short by the run's budget, the re-run says nothing about the tests: skipped, not failed. The test
  // runner's summary judges it as in the check step (exit 0 with failed tests, no test run).
  const { verdict, judged } = judgeOutcome(outcome, check, { skipBudgetCut: timeout.isBudgetBound });
  return {
    checkId: check.id,
    verdict,
    exitCode: outcome.exitCode,
    message: outcome.isTimedOut ? timeoutWords(timeout) : (outcome.spawnError ?? judged?.message ?? outcome.message),
    tail: outcome.tail,
  };
}

// Proof rows leave out agent checks (Gatehouse never runs them) and hidden ones (a proof row's reason and log
// go into the agent's brief, which must never name a hidden check or its command).
function isRerunnable(check: { executor?: string; hidden?: boolean }): boolean {
  return check.executor !== "agent" && !check.hidden;
}
