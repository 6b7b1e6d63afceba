// The proof rows of an attempt (lib/gates/proof.ts decides them): after the check step, the change from
// the run's start commit to the checkout as the checks saw it (uncommitted changes included) is read;
// `_tests-added` and `_protected` come from it alone. After a green gate `_tests-kept` and
// `_fails-without-change` run checks again in scratch worktrees (never the task's), each bounded by the
// check's timeout and by what is left of the run's budget.
import fs from "node:fs";
import type { Verdict } from "../gates/gate";
import { timeoutOf, type EffectiveCheck } from "../gates/merge-checks";
import {
  FAILS_WITHOUT_CHANGE,
  failsWithoutChangeRow,
  findSkipMarkers,
  PROOF_KIND,
  PROOF_NAMES,
  parseNameStatus,
  protectedRow,
  provesChangeOf,
  TESTS_KEPT,
  testFilesToRestore,
  testsAddedRow,
  testsKeptRow,
  type FileChange,
  type ProofRow,
  type Rerun,
} from "../gates/proof";
import { criteriaOf, evidenceRow } from "../gates/evidence";
import { globMatcher } from "../gates/globs";
import { judgeTestSummary, recogniseTests } from "../gates/test-summary";
import { scriptsOfCommand } from "../gates/command-scripts";
import type { ProofSettings } from "../gates/work-schema";
import type { AttemptResults } from "./attempt-results";
import { buildCheckEnv } from "./check-env";
import { checkoutFingerprint, resolveInsideCheckout } from "./checkout/checkout";
import { git } from "./checkout/git";
import { commitOfTree, layOver, scratchDirOf, withScratchWorktree } from "./checkout/scratch";
import { readEvidenceFile } from "./evidence-file";
import { type AttemptContext, remainingBudgetMs, verdictByExit } from "./execute-attempt";
import { runCheckHere } from "./run-check";
import { liveLogKey } from "./live-logs";
import { attemptDirOf, checkHomeOf, checkLogPathOf } from "./paths";
import path from "node:path";

const TAIL_BYTES = 16 * 1024;

export type ProofVerdictOf = { required: boolean; verdict: Verdict; checkId: string; message: string | null };

type Change = { tree: string; changes: FileChange[]; diff: string };

async function readChange(checkoutPath: string, start: string): Promise<Change> {
  const tree = await checkoutFingerprint(checkoutPath);
  const [names, diff] = await Promise.all([
    git(["diff-tree", "-r", "-z", "--no-renames", "--name-status", start, tree], { cwd: checkoutPath }),
    git(["diff", "-U0", "--no-renames", "--no-color", "--no-ext-diff", start, tree], { cwd: checkoutPath }),
  ]);
  return { tree, changes: parseNameStatus(names), diff };
}

// Runs the proof step: adds its rows to `results` and returns their verdicts (for the gate).
// `isGreenSoFar` says whether the checks and the first proof rows leave the gate green.
export async function runProofStep(
  ctx: AttemptContext,
  results: AttemptResults,
  isGreenSoFar: (rows: ProofVerdictOf[]) => boolean,
): Promise<ProofVerdictOf[]> {
  const { run } = ctx;
  const settings = run.proof;
  if (!settings || !run.startCommit || ctx.signal.aborted) return [];
  const start = run.startCommit;
  const verdicts: ProofVerdictOf[] = [];
  const record = (r: ProofRow, startedAt: Date) => {
    recordRow(ctx, results, r, startedAt);
    verdicts.push({ required: r.required, verdict: r.verdict, checkId: r.checkId, message: r.message });
  };

  const startedAt = new Date();
  let change: Change;
  try {
    change = await readChange(ctx.checkoutPath, start);
  } catch (error) {
    const message = `could not read the change since the start commit: ${(error as Error).message}`;
    record(
      {
        checkId: "_protected",
        name: PROOF_NAMES._protected,
        kind: PROOF_KIND,
        required: true,
        verdict: "error",
        message,
        details: message,
      },
      startedAt,
    );
    return verdicts;
  }

  const added = testsAddedRow({ changes: change.changes, ...settings });
  if (added) record(added, startedAt);
  const guarded = protectedRow({
    changes: change.changes,
    protectedPaths: settings.protectedPaths,
    scripts: scriptsOfChecks(ctx.checkoutPath, run.checks.filter(isRerunnable), change.changes),
  });
  if (guarded) record(guarded, startedAt);
  // Evidence (profiles standard and full): each criterion shown working in .gatehouse/evidence.md.
  const evidence =
    run.profile === "lite"
      ? null
      : evidenceRow({ criteria: criteriaOf(run.checks), text: readEvidenceFile(ctx.checkoutPath) });
  if (evidence) record(evidence, startedAt);

  if (!isGreenSoFar(verdicts) || ctx.signal.aborted) return verdicts;
  let headCommit: string | null = null;
  const commitOfHead = async () => (headCommit ??= await commitOfTree(ctx.checkoutPath, change.tree, start));

  const kept = await testsKept(ctx, results, settings, change, start, commitOfHead);
  if (kept) record(kept.row, kept.startedAt);
  if (ctx.signal.aborted) return verdicts;
  const vacuous = await failsWithoutChange(ctx, results, settings, change, start, commitOfHead);
  if (vacuous) record(vacuous.row, vacuous.startedAt);
  return verdicts;
}

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

async function testsKept(
  ctx: AttemptContext,
  results: AttemptResults,
  settings: ProofSettings,
  change: Change,
  start: string,
  commitOfHead: () => Promise<string>,
): Promise<Timed | null> {
  const restored = testFilesToRestore(change.changes, settings.testPatterns);
  const markers = findSkipMarkers(change.diff);
  const testChecks = ctx.run.checks.filter((c) => c.kind === "test" && isRerunnable(c));
  const startedAt = new Date();
  if (restored.length === 0 || testChecks.length === 0) {
    const r = testsKeptRow({ restored, markers, reruns: null, hasTestChecks: testChecks.length > 0 });
    return r ? { row: r, startedAt } : null;
  }
  showRunning(ctx, results, TESTS_KEPT, startedAt, "running the test checks with the tests as they were…");
  try {
    const reruns = await withScratchWorktree({
      checkoutPath: ctx.checkoutPath,
      dir: scratchDirOf(ctx.deps.dataDir, ctx.run.id, ctx.attempt.n, TESTS_KEPT),
      commit: await commitOfHead(),
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

async function failsWithoutChange(
  ctx: AttemptContext,
  results: AttemptResults,
  settings: ProofSettings,
  change: Change,
  start: string,
  commitOfHead: () => Promise<string>,
): Promise<Timed | null> {
  const provers = ctx.run.checks.filter((c) => provesChangeOf(c) && isRerunnable(c));
  if (settings.vacuousPolicy === "off" || provers.length === 0) return null;
  const startedAt = new Date();
  const isTest = globMatcher(settings.testPatterns);
  const tests = change.changes.filter((c) => isTest(c.path));
  const laid = tests.filter((c) => c.status !== "D").map((c) => c.path);
  const removed = tests.filter((c) => c.status === "D").map((c) => c.path);
  showRunning(ctx, results, FAILS_WITHOUT_CHANGE, startedAt, "running the checks without the change…");
  try {
    const reruns = await withScratchWorktree({
      checkoutPath: ctx.checkoutPath,
      dir: scratchDirOf(ctx.deps.dataDir, ctx.run.id, ctx.attempt.n, FAILS_WITHOUT_CHANGE),
      commit: start,
      fn: async (dir) => {
        await layOver(dir, laid.length ? await commitOfHead() : start, laid, removed);
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

function showRunning(ctx: AttemptContext, results: AttemptResults, checkId: string, startedAt: Date, message: string) {
  results.add({
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
  const budgetLeft = remainingBudgetMs(run);
  if (budgetLeft !== null && budgetLeft <= 0)
    return { ...base, verdict: "skipped", message: `the run's budget of ${run.budgetSec}s is spent` };
  const where = resolveInsideCheckout(dir, check.cwd);
  if ("error" in where) return { ...base, verdict: "error", message: where.error };
  const timeoutSec = timeoutOf(check);
  const isBudgetBound = budgetLeft !== null && budgetLeft < timeoutSec * 1000;
  const masker = ctx.masker();
  const outcome = await runCheckHere(ctx, check, {
    checkoutDir: dir,
    liveKey: liveLogKey(run.id, attempt.n, `${rowId}.${check.id}`),
    cwd: where.path,
    env: buildCheckEnv({
      runId: run.id,
      attempt: attempt.n,
      checkId: check.id,
      passthrough: check.envPassthrough ?? [],
      secrets: ctx.secrets,
      serverEnv: deps.serverEnv,
      home: checkHomeOf(deps.dataDir),
    }),
    timeoutMs: isBudgetBound ? Math.max(1, budgetLeft) : timeoutSec * 1000,
    logPath: path.join(attemptDirOf(deps.dataDir, run.id, attempt.n), `${rowId}.${check.id}.log`),
    masker,
  });
  run.spentMs += outcome.durationMs;
  // Cut short by the run's budget, the re-run says nothing about the tests: skipped, not failed.
  const byExit = outcome.builtinVerdict ?? verdictByExit(outcome, check, isBudgetBound);
  // The test runner's summary judges it as in the check step (exit 0 with failed tests, no test run).
  const judged =
    byExit === "passed" || byExit === "failed"
      ? judgeTestSummary({
          verdict: byExit,
          kind: check.kind,
          exitCode: outcome.exitCode,
          summary: recogniseTests(outcome.tail),
        })
      : null;
  return {
    checkId: check.id,
    verdict: judged?.verdict ?? byExit,
    exitCode: outcome.exitCode,
    message: outcome.isTimedOut
      ? isBudgetBound
        ? "stopped when the run's budget ran out"
        : `timed out after ${timeoutSec}s`
      : (outcome.spawnError ?? judged?.message ?? outcome.message),
    tail: outcome.tail,
  };
}

// The row's log is what it found (masked like every log); its tail is the same text, cut to 16 KB.
export function recordRow(ctx: AttemptContext, results: AttemptResults, r: ProofRow, startedAt: Date) {
  const { run, attempt, deps } = ctx;
  const details = ctx.masker().maskText(r.details);
  const logPath = checkLogPathOf(deps.dataDir, run.id, attempt.n, r.checkId);
  fs.mkdirSync(path.dirname(logPath), { recursive: true });
  fs.writeFileSync(logPath, details, { mode: 0o600 });
  const bytes = Buffer.byteLength(details);
  const finishedAt = new Date();
  results.add({
    checkId: r.checkId,
    name: r.name,
    kind: r.kind,
    required: r.required,
    verdict: r.verdict,
    message: ctx.masker().maskText(r.message),
    logTail:
      bytes <= TAIL_BYTES
        ? details
        : Buffer.from(details)
            .subarray(bytes - TAIL_BYTES)
            .toString("utf8"),
    logBytes: bytes,
    logNote: null,
    exitCode: null,
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    startedAt,
    finishedAt,
  });
}

// Proof rows leave out agent checks (Gatehouse never runs them) and hidden ones (a proof row's reason and log
// go into the agent's brief, which must never name a hidden check or its command).
function isRerunnable(check: { executor?: string; hidden?: boolean }): boolean {
  return check.executor !== "agent" && !check.hidden;
}
