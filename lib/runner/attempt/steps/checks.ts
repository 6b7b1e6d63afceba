// The check step (SPEC, Check step): every effective check in order, in the task's checkout. An agent
// check's verdict is what the agent reported; a platform check runs (lib/runner/attempt/run-check.ts),
// bounded by its timeout and what is left of the budget, and is judged by its exit code and its test
// summary. failFast stops the rest at the first blocking required verdict.
import { gateRequired } from "../../../gates/agent-report";
import { isBlockingVerdict, type Verdict } from "../../../gates/gate";
import { timeoutOf, type EffectiveCheck } from "../../../gates/merge-checks";
import { PROFILES } from "../../../gates/work-schema";
import { CUT_SHORT_BY_STOP } from "../../../gates/row-warning";
import { resolveInsideCheckout } from "../../checkout/checkout";
import { checkLogPathOf } from "../../paths";
import { timeoutWords } from "../budget";
import { type AttemptContext, maskShown } from "../context";
import { judgeOutcome } from "../judge";
import { NO_TESTS, judgeTestSummary, readTestResults } from "../../junit-reports";
import { runCheckHere } from "../run-check";
import { heldOutFilesChanged, heldOutFilesOf, isHeldOut } from "../held-out-files";
import type { Step, StepVerdict } from "../step";

const STOPPED_WORDS: Partial<Record<Verdict, string>> = { timeout: "timed out", hollow: "ran no test" };

export const checksStep: Step = {
  id: "checks",
  profiles: PROFILES,
  after: "always",
  async run(ctx) {
    const { run, results } = ctx;
    const verdicts: StepVerdict[] = [];
    let stoppedBy: { id: string; verdict: Verdict } | null = null;
    const testPatterns = run.proof?.testPatterns ?? [];
    const heldOutFiles = heldOutFilesOf(ctx.checkoutPath, run.checks, testPatterns);
    for (const check of run.checks) {
      const skip = (message: string) => {
        results.update(check.id, { verdict: "skipped", message, finishedAt: new Date() });
        verdicts.push({ required: check.required, verdict: "skipped", checkId: check.id, message });
      };
      if (check.executor === "agent") {
        // Gatehouse never runs an agent check: its verdict is what the agent reported.
        const { verdict, message } = ctx.agentReport?.verdicts.get(check.id) ?? {
          verdict: "skipped" as const,
          message: "not reported: no agent step in this attempt",
        };
        const shown = maskShown(ctx.masker, message);
        results.update(check.id, { verdict, message: shown, startedAt: new Date(), finishedAt: new Date() });
        const required = gateRequired(check, verdict, run.strictEvaluation);
        verdicts.push({ required, verdict, checkId: check.id, message: shown });
        if (run.failFast && required && isBlockingVerdict(verdict)) stoppedBy = { id: check.id, verdict };
      } else if (ctx.signal.aborted) skip("not run: the run was stopped");
      else if (isHeldOut(check) && heldOutFilesChanged(ctx.checkoutPath, check, heldOutFiles, testPatterns)) {
        const message = "not run: a file this held-out check runs was changed by the checks before it";
        results.update(check.id, { verdict: "failed", message, startedAt: new Date(), finishedAt: new Date() });
        verdicts.push({ required: check.required, verdict: "failed", checkId: check.id, message });
        if (run.failFast && check.required) stoppedBy = { id: check.id, verdict: "failed" };
      } else if (ctx.budget.isSpent()) skip(`not run: ${ctx.budget.spentMessage()}`);
      else if (stoppedBy) {
        const how = STOPPED_WORDS[stoppedBy.verdict] ?? stoppedBy.verdict;
        skip(`not run: failFast stopped the attempt after "${stoppedBy.id}" ${how}`);
      } else {
        const done = await runOneCheck(ctx, check);
        verdicts.push({ required: check.required, verdict: done.verdict, checkId: check.id, message: done.message });
        if (run.failFast && check.required && isBlockingVerdict(done.verdict))
          stoppedBy = { id: check.id, verdict: done.verdict };
      }
    }
    return { verdicts };
  },
};

async function runOneCheck(
  ctx: AttemptContext,
  check: EffectiveCheck,
): Promise<{ verdict: Verdict; message: string | null }> {
  const { run, attempt, deps, results, masker } = ctx;
  const where = resolveInsideCheckout(ctx.checkoutPath, check.cwd);
  if ("error" in where) {
    results.update(check.id, {
      verdict: "error",
      message: where.error,
      startedAt: new Date(),
      finishedAt: new Date(),
      durationMs: 0,
    });
    return { verdict: "error", message: where.error };
  }
  results.update(check.id, { verdict: "running", startedAt: new Date() });
  // The budget covers agent and checks together: a check gets at most what is left of it.
  const timeout = ctx.budget.timeoutFor(timeoutOf(check) * 1000);
  const outcome = await runCheckHere(ctx, check, {
    checkoutDir: ctx.checkoutPath,
    cwd: where.path,
    timeoutMs: timeout.timeoutMs,
    logPath: checkLogPathOf(deps.dataDir, run.id, attempt.n, check.id),
    liveName: check.id,
  });
  // A passing check whose counts were read has no message: its last line is the runner's trailer
  // ("# duration_ms 548.6").
  // With `junit`, the JUnit reports the check wrote give the counts and the per-test results instead.
  const found =
    outcome.spawnError || check.use !== undefined
      ? NO_TESTS
      : await readTestResults(ctx.checkoutPath, check, outcome, (t) => maskShown(masker, t));
  const judgedOutcome = judgeOutcome(outcome, check, { summary: found.summary });
  const { byExit, tests, judged } = judgedOutcome;
  // Under the Work's requireTestSummary, a passing test check with no sign that a test ran is hollow.
  const noSummary = judgeTestSummary(found, check, judgedOutcome.verdict, run.proof?.requireTestSummary === true);
  const verdict = noSummary.verdict ?? judgedOutcome.verdict;
  const isOutputMissing =
    byExit === "failed" && outcome.exitCode === (check.expectExit ?? 0) && check.expectStdout !== undefined;
  const message = outcome.isAborted
    ? CUT_SHORT_BY_STOP
    : outcome.isTimedOut
      ? `${timeoutWords(timeout)}${outcome.message ? ` · ${outcome.message}` : ""}`
      : isOutputMissing
        ? `exit code ${outcome.exitCode}, but the output does not contain "${masker.maskText(check.expectStdout!)}"`
        : (noSummary.message ?? judged?.message ?? (verdict === "passed" && tests?.counts ? null : outcome.message));
  results.update(check.id, {
    verdict,
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    durationMs: outcome.durationMs,
    message: maskShown(masker, message),
    logTail: maskShown(masker, outcome.tail),
    logBytes: outcome.totalBytes,
    logNote: outcome.note,
    tests: tests?.counts ?? null,
    testCases: found.cases,
    warning: maskShown(masker, noSummary.warning),
    finishedAt: new Date(),
  });
  return { verdict, message };
}
