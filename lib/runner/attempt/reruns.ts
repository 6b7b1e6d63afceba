// Checks run again outside the task's worktree for the proof rows (`_protected`, `_tests-kept`,
// `_fails-without-change`): each bounded by its timeout and by what is left of the run's budget (their
// time counts toward it), judged by the same rules as in the check step.
import path from "node:path";
import { timeoutOf, type EffectiveCheck } from "../../gates/merge-checks";
import { FAILS_WITHOUT_CHANGE, PROOF_KIND, PROOF_NAMES, type ProofRow, type Rerun } from "../../gates/proof";
import { resolveInsideCheckout } from "../checkout/checkout";
import { attemptDirOf } from "../paths";
import { timeoutWords } from "./budget";
import type { AttemptContext } from "./context";
import { judgeOutcome } from "./judge";
import { runCheckHere } from "./run-check";

export function errorRow(checkId: string, required: boolean, error: unknown): ProofRow {
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

export function showRunning(ctx: AttemptContext, checkId: string, startedAt: Date, message: string) {
  ctx.results.add({
    checkId,
    name: PROOF_NAMES[checkId],
    kind: PROOF_KIND,
    required: checkId !== FAILS_WITHOUT_CHANGE || ctx.run.proof?.vacuousPolicy === "required",
    verdict: "running",
    message,
    startedAt,
  });
}

export async function rerunAll(
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
export function isRerunnable(check: { executor?: string; hidden?: boolean }): boolean {
  return check.executor !== "agent" && !check.hidden;
}
