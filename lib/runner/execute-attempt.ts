// One attempt: the agent step (when there is an agent command), then the check step, then the gate.
import { whatCheckRuns } from "../gates/builtins";
import fs from "node:fs";
import path from "node:path";
import { applyAgentReport, gateRequired, type AppliedReport } from "../gates/agent-report";
import { composeBrief } from "../gates/brief";
import { criteriaOf } from "../gates/evidence";
import {
  computeGate,
  countRequiredPassed,
  decideVerdict,
  isBlockingVerdict,
  type Gate,
  type Verdict,
} from "../gates/gate";
import { timeoutOf, type EffectiveCheck } from "../gates/merge-checks";
import { judgeTestSummary, recogniseTests } from "../gates/test-summary";
import { insertResults, listResults, updateAttempt, updateRun, type AttemptRecord, type RunRecord } from "../db/runs";
import { markFlakyResults } from "../db/landing";
import type { TaskRecord } from "../db/tasks";
import type { WorkRecord } from "../db/works";
import { checkoutFingerprint, headCommit, isDirtyCheckout, resolveInsideCheckout } from "./checkout/checkout";
import { buildCheckEnv, processMarkers } from "./check-env";
import { AttemptResults, rowsFor } from "./attempt-results";
import { giveTo } from "./run-as";
import { liveLogKey, registerLiveLog, unregisterLiveLog } from "./live-logs";
import type { OutputMasker } from "./output/masker";
import { stripAnsi } from "../gates/strip-ansi";
import {
  AGENT_LOG_NAME,
  agentLogPathOf,
  attemptDirOf,
  briefPathOf,
  checkHomeOf,
  checkLogPathOf,
  pipeDirOf,
  reportPathOf,
} from "./paths";
import { readAgentReport } from "./agent-report-file";
import { makeRunDir, writeRunFile } from "./checkout/checkout-files";
import { runCommand, type CommandOutcome, type CommandSpec } from "./process/run-command";
import { runProofStep } from "./proof-step";
import { cloneCheckSources, removeReadOnlyTree } from "./check-sources";
import { copyAssetsForAttempt, removeAttemptFiles } from "./run-assets";
import { runCheckHere } from "./run-check";
import { runReviewStep } from "./review-step";
import { runMutationStep } from "./mutation-step";
import { runRedTeamStep } from "./red-team-step";
import type { RunnerDeps } from "./runner-deps";

export type AttemptContext = {
  run: RunRecord;
  task: TaskRecord;
  work: WorkRecord;
  attempt: AttemptRecord;
  previous: AttemptRecord | null;
  checkoutPath: string;
  signal: AbortSignal;
  deps: RunnerDeps;
  secrets: Record<string, string>;
  masker: () => OutputMasker;
  // {{assets_dir}} and {{checks_dir}} of this attempt (the Work's assets, fresh clones of the check sources).
  assetsDir?: string | null;
  checksDir?: string | null;
};

export type AttemptResult = {
  gate: Gate;
  requiredPassed: number;
  commit: string | null;
  // Set when something around the work failed (a required check errored, the agent could not start).
  inconclusiveReason: string | null;
};

const AGENT_COULD_NOT_START = new Set([126, 127]);
const STOPPED_WORDS: Partial<Record<Verdict, string>> = { timeout: "timed out", hollow: "ran no test" };

export async function executeAttempt(ctx: AttemptContext): Promise<AttemptResult> {
  const { run, attempt, deps } = ctx;
  fs.mkdirSync(attemptDirOf(deps.dataDir, run.id, attempt.n), { recursive: true });
  fs.mkdirSync(checkHomeOf(deps.dataDir), { recursive: true });
  await updateAttempt({
    id: attempt.id,
    changes: { status: run.agentCommand ? "agent" : "checks", startedAt: new Date(), gate: "running" },
  });

  // The agent checks' verdicts from the agent's report (null: no agent step in this attempt).
  let reported: AppliedReport | null = null;
  if (run.agentCommand && (run.policy !== "off" || attempt.n === 1)) {
    const agentProblem = await runAgentStep(ctx);
    if (!agentProblem) reported = await takeAgentReport(ctx);
    if (agentProblem) {
      await updateAttempt({ id: attempt.id, changes: { status: "finished", gate: "pending", finishedAt: new Date() } });
      return { gate: "pending", requiredPassed: 0, commit: null, inconclusiveReason: agentProblem };
    }
  }
  if (ctx.signal.aborted) {
    await updateAttempt({ id: attempt.id, changes: { status: "finished", gate: "pending", finishedAt: new Date() } });
    return { gate: "pending", requiredPassed: 0, commit: null, inconclusiveReason: null };
  }
  // After the agent step, so nothing the agent did reaches them: the Work's assets, read-only, and fresh
  // clones of the check sources at their frozen commits.
  ctx.assetsDir = await copyAssetsForAttempt({
    dataDir: deps.dataDir,
    workId: run.workId,
    runId: run.id,
    n: attempt.n,
  });
  try {
    if (run.checkSources.length === 0 || run.policy === "off") return await runCheckStep(ctx, reported);
    const cloned = await cloneCheckSources({
      dataDir: deps.dataDir,
      runId: run.id,
      n: attempt.n,
      sources: run.checkSources,
      runAs: deps.runAs,
    });
    if ("error" in cloned) {
      // Every check is still accounted for: not run, with the reason.
      await insertResults({
        attemptId: attempt.id,
        runId: run.id,
        logAttempt: attempt.n,
        results: rowsFor(run.checks, { verdict: "error", message: `not run: ${cloned.error}`, finishedAt: new Date() }),
      });
      await updateAttempt({ id: attempt.id, changes: { status: "finished", gate: "pending", finishedAt: new Date() } });
      return { gate: "pending", requiredPassed: 0, commit: null, inconclusiveReason: cloned.error };
    }
    try {
      return await runCheckStep({ ...ctx, checksDir: cloned.dir }, reported);
    } finally {
      removeReadOnlyTree(cloned.dir);
    }
  } finally {
    removeAttemptFiles(deps.dataDir, run.id, attempt.n);
  }
}

// Reads the agent's report once the agent and everything it started are gone; notes what was dropped.
async function takeAgentReport(ctx: AttemptContext): Promise<AppliedReport> {
  const { run, attempt, deps } = ctx;
  const file = readAgentReport(deps.dataDir, reportPathOf(deps.dataDir, run.id, attempt.n));
  const applied = applyAgentReport(run.checks, file, file ? "not reported" : "not reported: the agent wrote no report");
  if (applied.notes.length > 0) await updateAttempt({ id: attempt.id, changes: { reportNotes: applied.notes } });
  return applied;
}

export function remainingBudgetMs(run: RunRecord): number | null {
  if (run.budgetSec === null) return null;
  return run.budgetSec * 1000 - (run.spentMs - run.budgetFromMs);
}

// Returns a reason when the agent command could not start (the run is then inconclusive).
async function runAgentStep(ctx: AttemptContext): Promise<string | null> {
  const { run, task, work, attempt, deps, previous } = ctx;
  const masker = ctx.masker();
  // Held-out checks never reach the agent: not in the checks it is shown, not in the failures handed back.
  const hiddenIds = new Set(run.checks.filter((c) => c.hidden).map((c) => c.id));
  const previousResults = previous ? await listResults({ attemptId: previous.id }) : [];
  const brief = masker.maskText(
    composeBrief({
      task: { key: task.key, title: task.title, description: task.description, branch: run.branch },
      workName: work.name,
      attemptN: attempt.n,
      maxAttempts: run.maxAttempts,
      policy: run.policy,
      checks: run.checks
        .filter((c) => !c.hidden)
        .map((c) => ({
          id: c.id,
          name: c.name,
          command: whatCheckRuns(c),
          isBuiltin: c.use !== undefined,
          required: c.required,
          cwd: c.cwd,
          executor: c.executor,
        })),
      failures: previousResults
        .filter((r) => isBlockingVerdict(r.verdict) && !hiddenIds.has(r.checkId))
        .map((r) => ({
          checkId: r.checkId,
          name: r.name,
          verdict: r.verdict,
          exitCode: r.exitCode,
          logTail: r.logTail,
          logNote: r.logNote,
          message: r.message,
          tests: r.tests,
          executor: run.checks.find((c) => c.id === r.checkId)?.executor,
        })),
      previousAttemptN: previous?.n ?? null,
      evidence: run.profile === "lite" ? [] : criteriaOf(run.checks),
    }),
  );
  const briefFile = briefPathOf(deps.dataDir, run.id, attempt.n);
  makeRunDir(deps.dataDir, path.dirname(briefFile));
  giveTo(path.dirname(briefFile), deps.runAs);
  writeRunFile(deps.dataDir, briefFile, brief);
  giveTo(briefFile, deps.runAs);
  // Fresh for each attempt: nothing from before counts as this attempt's report.
  const reportFile = reportPathOf(deps.dataDir, run.id, attempt.n);
  fs.rmSync(reportFile, { force: true });
  await updateAttempt({ id: attempt.id, changes: { brief } });

  const budget = remainingBudgetMs(run);
  const env = buildCheckEnv({
    runId: run.id,
    attempt: attempt.n,
    checkId: null,
    briefFile,
    reportFile,
    passthrough: run.agentEnvPassthrough,
    secrets: ctx.secrets,
    serverEnv: deps.serverEnv,
    home: checkHomeOf(deps.dataDir),
  });
  const outcome = await runWatched(ctx, liveLogKey(run.id, attempt.n, AGENT_LOG_NAME), {
    command: run.agentCommand!,
    cwd: ctx.checkoutPath,
    env,
    timeoutMs: budget === null ? deps.agentTimeoutMs : Math.max(1, budget),
    stdinFile: briefFile,
    logPath: agentLogPathOf(deps.dataDir, run.id, attempt.n),
    masker,
  });
  run.spentMs += outcome.durationMs;
  const verdict: Verdict = outcome.isAborted
    ? "skipped"
    : outcome.spawnError
      ? "error"
      : outcome.isTimedOut
        ? "timeout"
        : outcome.exitCode === 0
          ? "passed"
          : "failed";
  await updateAttempt({
    id: attempt.id,
    changes: {
      status: "checks",
      agentVerdict: verdict,
      agentExitCode: outcome.exitCode,
      agentDurationMs: outcome.durationMs,
      // Masked again as shown (the message is the tail's last line with its escapes stripped, which can
      // join what they split): a second lock behind the stream masker.
      agentMessage: maskShown(
        masker,
        outcome.isTimedOut
          ? timeoutMessage(budget === null ? deps.agentTimeoutMs : budget, budget !== null, outcome)
          : outcome.message,
      ),
      agentLogTail: maskShown(masker, outcome.tail),
      agentLogBytes: outcome.totalBytes,
      agentLogNote: outcome.note,
    },
  });
  await updateRun({ id: run.id, changes: { spentMs: run.spentMs } });
  if (outcome.spawnError) return `the agent command could not start: ${outcome.spawnError}`;
  if (outcome.exitCode !== null && AGENT_COULD_NOT_START.has(outcome.exitCode)) {
    return `the agent command could not start (exit code ${outcome.exitCode}${outcome.message ? `: ${outcome.message}` : ""})`;
  }
  return null;
}

// Text masked as it is SHOWN: the masker matches through escape sequences, and if the text with its
// escapes stripped (as a message is made, or a viewer shows it) still holds a secret, the stripped text
// is kept instead, masked. A second lock behind the stream masker.
export function maskShown<T extends string | null>(masker: OutputMasker, text: T): T {
  if (text === null) return text;
  const masked = masker.maskText(text);
  const visible = stripAnsi(masked);
  const remasked = masker.maskText(visible);
  return (remasked === visible ? masked : remasked) as T;
}

function timeoutMessage(limitMs: number, isBudget: boolean, outcome: CommandOutcome): string {
  const what = isBudget ? "stopped when the run's budget ran out" : `timed out after ${Math.round(limitMs / 1000)}s`;
  return outcome.message ? `${what} · ${outcome.message}` : what;
}

async function runCheckStep(ctx: AttemptContext, reported: AppliedReport | null): Promise<AttemptResult> {
  const { run, attempt, previous } = ctx;
  const checks = run.checks;
  if (run.policy === "off") {
    await insertResults({
      attemptId: attempt.id,
      runId: run.id,
      logAttempt: attempt.n,
      results: rowsFor(checks, { verdict: "skipped", message: "policy off: checks are not run" }),
    });
    await updateAttempt({ id: attempt.id, changes: { status: "finished", gate: "off", finishedAt: new Date() } });
    await updateRun({ id: run.id, changes: { gate: "off", spentMs: run.spentMs } });
    return { gate: "off", requiredPassed: 0, commit: null, inconclusiveReason: null };
  }

  const commit = await headCommit(ctx.checkoutPath).catch(() => null);
  // `git status` takes a while: it runs beside the checks (which see the same checkout).
  const dirty = isDirtyCheckout(ctx.checkoutPath).catch(() => false);

  // The agent changed nothing since the previous attempt's checks: do not run them again.
  if (attempt.trigger === "agent-loop" && previous?.treeAfter) {
    const tree = await checkoutFingerprint(ctx.checkoutPath).catch(() => null);
    if (tree && tree === previous.treeAfter) return recordNoChange(ctx, previous, commit, await dirty, tree);
  }

  const results = new AttemptResults(run.id, attempt, checks);
  results.open();

  const verdicts: { required: boolean; verdict: Verdict; checkId: string; message: string | null }[] = [];
  let stoppedBy: { id: string; verdict: Verdict } | null = null;
  let reviewInconclusive: string | null = null;
  try {
    for (const check of checks) {
      const skip = (message: string) => {
        results.update(check.id, { verdict: "skipped", message, finishedAt: new Date() });
        verdicts.push({ required: check.required, verdict: "skipped", checkId: check.id, message });
      };
      const budgetLeft = remainingBudgetMs(run);
      if (check.executor === "agent") {
        // Gatehouse never runs an agent check: its verdict is what the agent reported.
        const { verdict, message } = reported?.verdicts.get(check.id) ?? {
          verdict: "skipped" as const,
          message: "not reported: no agent step in this attempt",
        };
        const shown = maskShown(ctx.masker(), message);
        results.update(check.id, { verdict, message: shown, startedAt: new Date(), finishedAt: new Date() });
        const required = gateRequired(check, verdict, run.strictEvaluation);
        verdicts.push({ required, verdict, checkId: check.id, message: shown });
        if (run.failFast && required && isBlockingVerdict(verdict)) stoppedBy = { id: check.id, verdict };
      } else if (ctx.signal.aborted) skip("not run: the run was stopped");
      else if (budgetLeft !== null && budgetLeft <= 0) skip(`not run: the run's budget of ${run.budgetSec}s is spent`);
      else if (stoppedBy)
        skip(
          `not run: failFast stopped the attempt after "${stoppedBy.id}" ${STOPPED_WORDS[stoppedBy.verdict] ?? stoppedBy.verdict}`,
        );
      else {
        const done = await runOneCheck(ctx, check, results);
        verdicts.push({ required: check.required, verdict: done.verdict, checkId: check.id, message: done.message });
        if (run.failFast && check.required && isBlockingVerdict(done.verdict))
          stoppedBy = { id: check.id, verdict: done.verdict };
      }
    }
    // The proof rows (SPEC Part 2): whether the green the checks give means something.
    if (!ctx.signal.aborted)
      verdicts.push(
        ...(await runProofStep(ctx, results, (rows) => computeGate(run.policy, [...verdicts, ...rows]) === "green")),
      );
    // The review (profiles standard and full): after a green gate, an independent run of the criteria.
    const review =
      !ctx.signal.aborted && computeGate(run.policy, verdicts) === "green" ? await runReviewStep(ctx, results) : null;
    if (review) verdicts.push(review.verdict);
    reviewInconclusive = review?.inconclusive ?? null;
    // The red team (profile full): after the review passed.
    const redTeam =
      !ctx.signal.aborted && !reviewInconclusive && computeGate(run.policy, verdicts) === "green"
        ? await runRedTeamStep(ctx, results)
        : null;
    if (redTeam) verdicts.push(redTeam);
    // The mutation floor (profile full): after everything else is green; skipped after a red gate.
    const mutation = ctx.signal.aborted
      ? null
      : await runMutationStep(ctx, results, !reviewInconclusive && computeGate(run.policy, verdicts) === "green");
    if (mutation) verdicts.push(mutation);
  } finally {
    await results.close();
  }

  const gate = computeGate(run.policy, verdicts);
  // An agent check in error (its report unreadable) is the agent's to fix, not a reason to give up on the run.
  const errored = verdicts.find(
    (v) => v.required && v.verdict === "error" && run.checks.find((c) => c.id === v.checkId)?.executor !== "agent",
  );
  const isMoreComing = !!run.agentCommand && gate === "red" && run.policy === "required" && attempt.n < run.maxAttempts;
  const treeAfter = isMoreComing ? await checkoutFingerprint(ctx.checkoutPath).catch(() => null) : null;
  await updateAttempt({
    id: attempt.id,
    changes: { status: "finished", gate, finishedAt: new Date(), treeAfter, commit, isDirty: await dirty },
  });
  await markFlakyResults({ attemptId: attempt.id });
  await updateRun({ id: run.id, changes: { gate, spentMs: run.spentMs } });
  return {
    gate,
    requiredPassed: countRequiredPassed(verdicts),
    commit,
    inconclusiveReason: reviewInconclusive
      ? `review: ${reviewInconclusive}`
      : errored
        ? couldNotRun(errored, run.checks.find((c) => c.id === errored.checkId)?.hidden === true)
        : null,
  };
}

// The run's ending reason is shown to everyone who reads the run: a held-out check's says only that it erred
// (its reason stays in its row, which leads see).
function couldNotRun(errored: { checkId: string; message?: string | null }, isHeldOut: boolean): string {
  return isHeldOut
    ? `required held-out check "${errored.checkId}" could not run (its reason is shown to leads)`
    : `required check "${errored.checkId}" could not run: ${errored.message ?? "error"}`;
}

async function recordNoChange(
  ctx: AttemptContext,
  previous: AttemptRecord,
  commit: string | null,
  isDirty: boolean,
  tree: string,
): Promise<AttemptResult> {
  const { run, attempt } = ctx;
  const since = previous.noChangeSince ?? previous.n;
  const earlier = await listResults({ attemptId: previous.id });
  await insertResults({
    attemptId: attempt.id,
    runId: run.id,
    logAttempt: earlier[0]?.logAttempt ?? previous.n,
    // The same rows again, as this attempt's (the stored logs stay those of logAttempt).
    results: earlier.map(({ id, attemptId, runId, position, logAttempt, ...copy }) => copy),
  });
  await updateAttempt({
    id: attempt.id,
    changes: {
      status: "finished",
      gate: previous.gate,
      finishedAt: new Date(),
      commit,
      isDirty,
      noChangeSince: since,
      treeAfter: tree,
    },
  });
  await updateRun({ id: run.id, changes: { gate: previous.gate, spentMs: run.spentMs } });
  return { gate: previous.gate, requiredPassed: countRequiredPassed(earlier), commit, inconclusiveReason: null };
}

async function runOneCheck(
  ctx: AttemptContext,
  check: EffectiveCheck,
  results: AttemptResults,
): Promise<{ verdict: Verdict; message: string | null }> {
  const { run, attempt, deps } = ctx;
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
  const env = buildCheckEnv({
    runId: run.id,
    attempt: attempt.n,
    checkId: check.id,
    passthrough: check.envPassthrough ?? [],
    secrets: ctx.secrets,
    serverEnv: deps.serverEnv,
    home: checkHomeOf(deps.dataDir),
  });
  const timeoutSec = timeoutOf(check);
  // The budget covers agent and checks together: a check gets at most what is left of it.
  const budgetLeft = remainingBudgetMs(run);
  const isBudgetBound = budgetLeft !== null && budgetLeft < timeoutSec * 1000;
  const masker = ctx.masker();
  const outcome = await runCheckHere(ctx, check, {
    checkoutDir: ctx.checkoutPath,
    cwd: where.path,
    env,
    timeoutMs: isBudgetBound ? Math.max(1, budgetLeft) : timeoutSec * 1000,
    logPath: checkLogPathOf(deps.dataDir, run.id, attempt.n, check.id),
    liveKey: liveLogKey(run.id, attempt.n, check.id),
    masker,
  });
  run.spentMs += outcome.durationMs;
  // A built-in gives its own verdict (a timeout or a stop leaves it null: judged like a command's).
  const byExit = outcome.builtinVerdict ?? verdictByExit(outcome, check);
  // The test runner's summary, read from the stored tail (16 KB): it can fail a check that exited 0, make a
  // test check that ran no test hollow, and name the failing tests in the message. A passing check whose
  // counts were read has no message: its last line is the runner's trailer ("# duration_ms 548.6").
  const tests = outcome.spawnError || check.use !== undefined ? null : recogniseTests(outcome.tail);
  const judged =
    byExit === "passed" || byExit === "failed"
      ? judgeTestSummary({ verdict: byExit, kind: check.kind, exitCode: outcome.exitCode, summary: tests })
      : null;
  const verdict: Verdict = judged?.verdict ?? byExit;
  const isOutputMissing =
    byExit === "failed" && outcome.exitCode === (check.expectExit ?? 0) && check.expectStdout !== undefined;
  const message = outcome.isAborted
    ? "not run to the end: the run was stopped"
    : outcome.isTimedOut
      ? `${isBudgetBound ? "stopped when the run's budget ran out" : `timed out after ${timeoutSec}s`}${outcome.message ? ` · ${outcome.message}` : ""}`
      : isOutputMissing
        ? `exit code ${outcome.exitCode}, but the output does not contain "${masker.maskText(check.expectStdout!)}"`
        : (judged?.message ?? (verdict === "passed" && tests?.counts ? null : outcome.message));
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
    finishedAt: new Date(),
  });
  return { verdict, message };
}

// Runs the agent or a check with the platform's settings (log cap, kill grace, output pipes, run-as, the
// markers the escape sweep looks for), stoppable with the run, its log readable live while it runs.
export function runWatched(
  ctx: AttemptContext,
  liveKey: string,
  spec: Pick<
    CommandSpec,
    "command" | "cwd" | "env" | "timeoutMs" | "logPath" | "masker" | "stdinFile" | "expectStdout"
  >,
): Promise<CommandOutcome> {
  const { deps } = ctx;
  return runCommand({
    ...spec,
    capBytes: deps.logCapBytes,
    signal: ctx.signal,
    killGraceMs: deps.killGraceMs,
    markers: processMarkers(spec.env),
    pipeDir: pipeDirOf(deps.dataDir),
    runAs: deps.runAs,
    onSpawn: ({ sink }) => registerLiveLog(liveKey, sink),
  }).finally(() => unregisterLiveLog(liveKey));
}

// A check's verdict from how its command ended, before the test runner's summary is read. An abort is
// "skipped"; so is a timeout the run's budget imposed when `skipBudgetCut` (a re-run it cut says nothing).
export function verdictByExit(
  outcome: Pick<CommandOutcome, "isAborted" | "isTimedOut" | "spawnError" | "exitCode" | "isExpectedOutputFound">,
  check: { expectExit?: number; expectStdout?: string },
  skipBudgetCut = false,
): Verdict {
  if (outcome.isAborted || (outcome.isTimedOut && skipBudgetCut)) return "skipped";
  if (outcome.spawnError) return "error";
  return decideVerdict({
    timedOut: outcome.isTimedOut,
    exitCode: outcome.exitCode,
    expectExit: check.expectExit,
    expectStdout: check.expectStdout,
    stdoutFound: outcome.isExpectedOutputFound,
  });
}
