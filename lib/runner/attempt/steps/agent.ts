// The agent step (SPEC, Agent step): the agent command runs in the checkout with the brief on stdin and in
// $GATEHOUSE_BRIEF_FILE, bounded by what is left of the budget (30 minutes without one); then its report of
// the agent checks is read, once it and everything it started are gone. Under policy off it runs once.
// An attempt at a pushed commit runs no agent: the agent worked where it runs, and its report came with
// the push. What the agent CLI said of its session (its JSON result) is kept as the attempt's agentResult.
import fs from "node:fs";
import path from "node:path";
import { applyAgentReport } from "../../../gates/agent-report";
import { briefWarningsOf, composeBrief } from "../../../gates/brief";
import { composeStageBrief } from "../../../gates/stage-brief";
import { stageOfRun } from "../../../gates/lanes";
import { whatCheckRuns } from "../../../gates/builtins";
import { criteriaOf } from "../../../gates/evidence";
import { isBlockingVerdict } from "../../../gates/gate";
import { failedTestsOf } from "../../../gates/junit";
import { hasLayer } from "../../../gates/profiles";
import { PROFILES } from "../../../gates/work-schema";
import type { PushedAttempt } from "../../../gates/pushed-attempt";
import { listResults, saveAgentResult, updateAttempt, updateRun } from "../../../db/runs";
import { readAgentReport } from "../../agent-report-file";
import { readAgentResult } from "../../agent-result-file";
import { makeRunDir, writeRunFile } from "../../checkout/checkout-files";
import { AGENT_LOG_NAME, agentLogPathOf, briefPathOf, reportPathOf } from "../../paths";
import { giveTo } from "../../run-as";
import { timeoutWords } from "../budget";
import { type AttemptContext, maskShown } from "../context";
import { judgeOutcome } from "../judge";
import { NOTHING, type Step } from "../step";

const AGENT_COULD_NOT_START = new Set([126, 127]);

export const agentStep: Step = {
  id: "agent",
  profiles: PROFILES,
  after: "always",
  async run(ctx) {
    const { run, attempt } = ctx;
    if (attempt.pushed) {
      ctx.agentReport = await takePushedReport(ctx, attempt.pushed);
      return NOTHING;
    }
    if (!run.agentCommand || (run.policy === "off" && attempt.n !== 1)) return NOTHING;
    const problem = await runAgent(ctx);
    if (problem) return { verdicts: [], inconclusive: problem };
    ctx.agentReport = await takeAgentReport(ctx);
    return NOTHING;
  },
};

// The report that came with a push (none: every agent check is "not reported"); notes what was dropped.
async function takePushedReport(ctx: AttemptContext, pushed: PushedAttempt) {
  const applied = applyAgentReport(
    ctx.run.checks,
    pushed.report ? { entries: pushed.report } : null,
    pushed.report ? "not reported" : "not reported: the push carried no report",
  );
  if (applied.notes.length > 0) await updateAttempt({ id: ctx.attempt.id, changes: { reportNotes: applied.notes } });
  return applied;
}

// Reads the agent's report once the agent and everything it started are gone; notes what was dropped.
async function takeAgentReport(ctx: AttemptContext) {
  const { run, attempt, deps } = ctx;
  const file = readAgentReport(deps.dataDir, reportPathOf(deps.dataDir, run.id, attempt.n));
  const applied = applyAgentReport(run.checks, file, file ? "not reported" : "not reported: the agent wrote no report");
  if (applied.notes.length > 0) await updateAttempt({ id: attempt.id, changes: { reportNotes: applied.notes } });
  return applied;
}

// Returns a reason when the agent command could not start (the run is then inconclusive).
async function runAgent(ctx: AttemptContext): Promise<string | null> {
  const { run, task, work, attempt, deps, previous, masker } = ctx;
  // Held-out checks never reach the agent: not in the checks it is shown, not in the failures handed back.
  const hiddenIds = new Set(run.checks.filter((c) => c.hidden).map((c) => c.id));
  const previousResults = previous ? await listResults({ attemptId: previous.id }) : [];
  const briefInput = {
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
        expectExit: c.expectExit,
        expectStdout: c.expectStdout,
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
        failedTests: failedTestsOf(r.testCases),
        executor: run.checks.find((c) => c.id === r.checkId)?.executor,
      })),
    warnings: briefWarningsOf(previousResults.filter((r) => !hiddenIds.has(r.checkId))),
    previousAttemptN: previous?.n ?? null,
    evidence: hasLayer(run.profile, "evidence") ? criteriaOf(run.checks) : [],
  };
  const stage = stageOfRun(run);
  const brief = masker.maskText(
    stage
      ? composeStageBrief({
          ...briefInput,
          ...stage,
          heldOutNames: run.checks.filter((c) => c.hidden).map((c) => c.name),
        })
      : composeBrief(briefInput),
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

  const timeout = ctx.budget.timeoutFor(null);
  const outcome = await ctx.exec({
    role: "agent",
    command: run.agentCommand!,
    cwd: ctx.checkoutPath,
    env: { checkId: null, briefFile, reportFile, passthrough: run.agentEnvPassthrough },
    timeoutMs: timeout.timeoutMs,
    stdinFile: briefFile,
    logPath: agentLogPathOf(deps.dataDir, run.id, attempt.n),
    liveName: AGENT_LOG_NAME,
  });
  const stopped = timeoutWords(timeout);
  // The CLI's own account of its session (Claude Code's JSON result, Codex's events), when it printed one.
  const agentResult = readAgentResult(agentLogPathOf(deps.dataDir, run.id, attempt.n), masker);
  if (agentResult) await saveAgentResult({ id: attempt.id, agentResult });
  const said = agentResult?.lastMessage?.split("\n").find((line) => line.trim()) ?? outcome.message;
  const agentVerdict = judgeOutcome(outcome, null).verdict;
  ctx.agentFailure =
    agentVerdict === "passed"
      ? null
      : { verdict: agentVerdict, exitCode: outcome.exitCode, isTimedOut: outcome.isTimedOut };
  await updateAttempt({
    id: attempt.id,
    changes: {
      status: "checks",
      agentVerdict,
      agentExitCode: outcome.exitCode,
      agentDurationMs: outcome.durationMs,
      // Masked again as shown (the message is the tail's last line with its escapes stripped, which can
      // join what they split): a second lock behind the stream masker.
      agentMessage: maskShown(
        masker,
        outcome.isTimedOut ? (outcome.message ? `${stopped} · ${outcome.message}` : stopped) : said,
      ),
      agentLogTail: maskShown(masker, outcome.tail),
      agentLogBytes: outcome.totalBytes,
      agentLogNote: outcome.note,
    },
  });
  await updateRun({ id: run.id, changes: { spentMs: run.spentMs } });
  if (outcome.spawnError) return `the agent command could not start: ${outcome.spawnError}`;
  if (outcome.exitCode !== null && AGENT_COULD_NOT_START.has(outcome.exitCode)) {
    const said = outcome.message ? `: ${outcome.message}` : "";
    return `the agent command could not start (exit code ${outcome.exitCode}${said})`;
  }
  return null;
}
