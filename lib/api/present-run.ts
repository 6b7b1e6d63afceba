// The JSON shape of a run (SPEC: GET /api/runs/:id), plus what the dashboard needs beside it.
import { isNothingRequired } from "../gates/gate";
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
    policy: run.policy,
    maxAttempts: run.maxAttempts,
    needsDecision: run.needsDecision,
    // The worker that executes it, or did last (null: not taken yet, or executed inside the server on SQLite).
    worker: run.workerName,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
  };
}

export function presentRun(detail: RunDetail) {
  const { run } = detail;
  return {
    ...presentRunSummary(run),
    nothingRequired: isNothingRequired(run.checks),
    failFast: run.failFast,
    proof: run.proof,
    budgetSec: run.budgetSec,
    spentMs: run.spentMs,
    agentCommand: run.agentCommand,
    branch: run.branch,
    startCommit: run.startCommit,
    bestAttempt: run.bestAttempt,
    bestCommit: run.bestCommit,
    decision: run.decision,
    decidedAt: run.decidedAt,
    startedAt: run.startedAt,
    checks: run.checks,
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
            }
          : null,
      checks: a.results.map((r) => ({
        checkId: r.checkId,
        name: r.name,
        kind: r.kind,
        required: r.required,
        verdict: r.verdict,
        exitCode: r.exitCode,
        durationMs: r.durationMs,
        message: r.message,
        logTail: r.logTail,
        logBytes: r.logBytes,
        logNote: r.logNote,
        // {runner, passed, failed, skipped, total} from the test runner's summary; null when none was recognised.
        tests: r.tests,
        logAttempt: r.logAttempt,
        startedAt: r.startedAt,
        finishedAt: r.finishedAt,
      })),
    })),
  };
}
