// The JSON shape of a run (SPEC: GET /api/runs/:id), plus what the dashboard needs beside it.
import { isNothingRequired } from "../gates/gate";
import { cancelledByOf } from "../gates/run-ending";
import { agentCaveatOf } from "../gates/agent-note";
import { presentHeldOut } from "../gates/held-out";
import { usdSpent } from "../gates/usd-budget";
import { FROZEN_RUN_COLUMNS, sandboxSettingsOf } from "../gates/work-settings";
import { failedTestsOf, testKeyOf } from "../gates/junit";
import type { RunRecord } from "../db/runs";
import type { RunDetail } from "../services/run-detail";

export function presentRunSummary(run: RunRecord) {
  return {
    id: run.id,
    taskId: run.taskId,
    workId: run.workId,
    number: run.number,
    status: run.status,
    gate: run.gate,
    ending: run.ending,
    endingReason: run.endingReason,
    // An accepted run whose agent did not pass: "agent-failed", or "agent-failed-no-change" (it changed
    // nothing either: the checks passed on the code as it was before the task); null otherwise.
    agentCaveat: agentCaveatOf(run.agentCaveat),
    // Who cancelled it (an email or a token's label), null when it was not cancelled.
    cancelledBy: cancelledByOf(run),
    policy: run.policy,
    maxAttempts: run.maxAttempts,
    needsDecision: run.needsDecision,
    // The lane (its id) and the stage this run ran; null for a task on no lane.
    lane: run.lane?.id ?? null,
    stage: run.stage,
    // The worker that executes it, or did last (null: not taken yet, or executed inside the server on SQLite).
    worker: run.workerName,
    // The sandbox its commands ran under: "bwrap", "off" (the agent could reach the platform), "unavailable"
    // (its commands were refused), null before it started or for runs from before the sandbox.
    sandboxMode: run.sandboxMode,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
  };
}

// The Work's settings the run froze, by the registry's list; a run from before the sandbox settings shows
// the defaults it ran with.
function frozenSettingsOfRun(run: RunRecord) {
  const frozen = Object.fromEntries(FROZEN_RUN_COLUMNS.map((c) => [c, run[c]])) as Pick<
    RunRecord,
    (typeof FROZEN_RUN_COLUMNS)[number]
  >;
  return { ...frozen, sandbox: sandboxSettingsOf(run.sandbox) };
}

export function presentRun(detail: RunDetail) {
  const { run } = detail;
  const checkOf = new Map(run.checks.map((c) => [c.id, c]));
  return {
    ...presentRunSummary(run),
    nothingRequired: isNothingRequired(run.checks),
    // What the run froze of the Work's settings (lib/gates/work-settings.ts), sandbox included.
    ...frozenSettingsOfRun(run),
    // Whether the reader sees held-out checks' commands and logs (leads and admins).
    seesHidden: detail.seesHidden,
    budgetSec: run.budgetSec,
    spentMs: run.spentMs,
    budgetUsd: run.budgetUsd,
    // What the agent CLI reported the run's attempts cost (since the last granted attempts), in USD.
    spentUsd: usdSpent(detail.attempts),
    agentCommand: run.agentCommand,
    branch: run.branch,
    startCommit: run.startCommit,
    bestAttempt: run.bestAttempt,
    bestCommit: run.bestCommit,
    decision: run.decision,
    decidedAt: run.decidedAt,
    decidedBy: detail.decision.decidedBy,
    decisionReason: run.decisionReason,
    // The newer accepted run of the task that made this one's decision moot (it needs none any more).
    supersededBy: detail.decision.supersededBy,
    startedAt: run.startedAt,
    // A held-out check shows only its name to those below lead (the service blanked the rest).
    checks: presentHeldOut(run.checks, detail.seesHidden),
    suppressed: run.suppressed,
    warnings: run.warnings,
    task: detail.task,
    work: detail.work,
    attempts: detail.attempts.map((a) => ({
      n: a.n,
      gate: a.gate,
      status: a.status,
      trigger: a.trigger,
      startedAt: a.startedAt,
      finishedAt: a.finishedAt,
      commit: a.commit,
      isDirty: a.isDirty,
      noChangeSince: a.noChangeSince,
      brief: a.brief,
      // Entries of the agent's report that were dropped (an undeclared id, a check Gatehouse runs), each a sentence.
      reportNotes: a.reportNotes,
      // The review layer (profiles standard and full): null when no review ran.
      review: a.review,
      // The mutation floor (profile full): null when it did not run.
      mutation: a.mutation,
      // The red team (profile full): its probes, what was refused, the commit keeping the passing ones.
      redTeam: a.redTeam,
      agent:
        a.agentVerdict || a.status === "agent"
          ? {
              verdict: a.agentVerdict ?? "running",
              exitCode: a.agentExitCode,
              durationMs: a.agentDurationMs,
              message: a.agentMessage,
              logTail: a.agentLogTail,
              logBytes: a.agentLogBytes,
              logNote: a.agentLogNote,
              // What the agent CLI reported: {cli, lastMessage, turns, inputTokens, outputTokens, costUsd}, or null.
              result: a.agentResult,
            }
          : null,
      checks: a.results.map((r) => ({
        checkId: r.checkId,
        name: r.name,
        kind: r.kind,
        required: r.required,
        // Who ran it: "agent" (reported by the agent) or "platform" (run by Gatehouse).
        executor: checkOf.get(r.checkId)?.executor ?? "platform",
        hidden: checkOf.get(r.checkId)?.hidden ?? false,
        verdict: r.verdict,
        exitCode: r.exitCode,
        durationMs: r.durationMs,
        message: r.message,
        logTail: r.logTail,
        logBytes: r.logBytes,
        logNote: r.logNote,
        // {runner, passed, failed, skipped, total} from the test runner's summary; null when none was recognised.
        tests: r.tests,
        // Why the row warns while its verdict stands ("no test summary seen: …", a JUnit report not read); null: none.
        warning: r.warning,
        // From the JUnit reports: the failed and errored tests (at most 50) with message and first trace lines,
        // and the names of tests flagged flaky. The whole list stays on the result (it can hold 20,000 tests).
        failedTests: failedTestsOf(r.testCases),
        flakyTests: (r.testCases ?? []).filter((t) => t.flaky).map((t) => testKeyOf(t)),
        logAttempt: r.logAttempt,
        // Passed after failing on the same commit (see lib/gates/flaky.ts).
        flaky: r.flaky,
        startedAt: r.startedAt,
        finishedAt: r.finishedAt,
      })),
    })),
  };
}
