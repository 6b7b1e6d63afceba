// Runs: dispatch (freeze and hand to the executor), start the next attempt, answer a partial run,
// cancel, read. Every action is authorized and audited.
import type { Actor } from "../auth/actor";
import { AppError, notFound } from "../errors";
import { ZDecision } from "../gates/decision-schema";
import { endedGate } from "../gates/gate";
import { supersedeOlderRuns } from "../db/decisions";
import { ACTIVE_RUN_STATUSES, CANCELLED_BY, cancelledByOf, endingForDecision, isActiveRun } from "../gates/run-ending";
import { resolveChecks, resolveInherited, resolveMaxAttempts } from "../gates/merge-checks";
import { stageAttempts, stageToRun } from "../gates/lanes";
import { getDb, isUniqueViolation } from "../db/client";
import { transaction } from "../db/by-id";
import { insertAuditEvent } from "../db/audit";
import {
  findActiveRunOfTask,
  findNewestRunOfTask,
  findLastAttemptN,
  findRun,
  insertAttempt,
  insertRunWithFirstAttempt,
  updateRunIfStatus,
  type RunRecord,
} from "../db/runs";
import { findTask } from "../db/tasks";
import { findWork, frozenSettingsOf } from "../db/works";
import { getExecutor } from "../runner/runtime";
import { notifyRunEvent } from "../runner/webhook-sender";
import { auditBy, requireRole } from "./access";
import { autoMergeAfterRun } from "./merge";
import { advanceAfterStageRun, moveStage, stageForDecision } from "./stages";
import { staleWarnings } from "./tasks";
import { parseInput } from "./validate";
import type { PushedAttempt } from "../gates/pushed-attempt";

function describeActive(run: RunRecord, key: string): string {
  const state =
    run.status === "waiting" ? "is waiting for a fix (start its next attempt or cancel it)" : `is ${run.status}`;
  return `${key} already has run #${run.number} that ${state}; a task runs one run at a time`;
}

// `pushed`: the first attempt runs at a commit the agent pushed (see lib/services/pushed-attempts.ts).
export async function dispatchTask(
  actor: Actor,
  taskId: string,
  opts: { pushed?: PushedAttempt } = {},
): Promise<RunRecord> {
  // The task is read once, inside the transaction, so the run freezes it as it is at dispatch.
  const executor = getExecutor();
  let isQueued = false;
  const run = await transaction(getDb(), async (tx) => {
    const fresh = await findTask({ id: taskId, db: tx });
    if (!fresh) throw notFound("Task");
    await requireRole(actor, fresh.workId, "engineer", tx);
    const work = await findWork({ id: fresh.workId, db: tx });
    if (!work) throw notFound("Work");
    const newest = await findNewestRunOfTask({ taskId, db: tx });
    if (newest && isActiveRun(newest)) throw new AppError("busy", describeActive(newest, fresh.key));
    // A task on a lane runs its current stage: the stage's checks and attempts instead of the Work's.
    const toRun = stageToRun(work.lanes, fresh);
    if ("problem" in toRun) throw new AppError("conflict", toRun.problem);
    const resolved = toRun.stage
      ? resolveChecks(toRun.stage.checks, null)
      : resolveChecks(work.checkDefaults, fresh.acceptanceChecks);
    const attempts = toRun.stage ? stageAttempts(toRun.stage) : resolveMaxAttempts(work, fresh);
    const created = await insertRunWithFirstAttempt({
      data: {
        taskId,
        workId: work.id,
        ...frozenSettingsOf(work),
        lane: toRun.lane,
        stage: toRun.stage?.id ?? null,
        maxAttempts: work.checksPolicy === "required" ? attempts : 1,
        checks: resolved.checks,
        suppressed: resolved.suppressed,
        warnings: staleWarnings(resolved.staleSuppressions),
        agentCommand: resolveInherited(work.agentCommand, fresh.agentCommand),
        budgetSec: resolveInherited(work.budgetSec, fresh.budgetSec),
        budgetUsd: resolveInherited(work.budgetUsd, fresh.budgetUsd),
        branch: fresh.branch,
        dispatchedById: actor.userId,
      },
      pushed: opts.pushed,
      newestNumber: newest?.number ?? null,
      db: tx,
    });
    await insertAuditEvent({
      event: auditBy(actor, {
        action: "run.dispatch",
        workId: work.id,
        taskId,
        runId: created.id,
        summary:
          `dispatched ${fresh.key}${toRun.stage ? ` at stage ${toRun.stage.id}` : ""} (run #${created.number})` +
          `${opts.pushed ? ` at ${opts.pushed.commit.slice(0, 12)}` : ""}`,
      }),
      db: tx,
    });
    isQueued = (await executor.enqueueWithin?.(created.id, tx)) ?? false;
    return created;
  }).catch((error: unknown) => {
    // Two dispatches of one task at the same moment (a double click, two agents): on PostgreSQL both may find
    // no active run, and the second's run number is then taken. It is refused as busy, as it would be a moment later.
    if (isUniqueViolation(error))
      throw new AppError("busy", "the task was dispatched at the same moment by another request");
    throw error;
  });
  if (!isQueued) await executor.submit(run.id);
  return run;
}

async function loadRunFor(actor: Actor, runId: string, role: "viewer" | "engineer" | "lead"): Promise<RunRecord> {
  const run = await findRun({ id: runId });
  if (!run) throw notFound("Run");
  await requireRole(actor, run.workId, role);
  return run;
}

// `pushed`: the attempt runs at a commit the agent pushed instead of the branch as the checkout has it.
export async function startNextAttempt(
  actor: Actor,
  runId: string,
  opts: { pushed?: PushedAttempt } = {},
): Promise<{ run: RunRecord; n: number }> {
  const run = await loadRunFor(actor, runId, "engineer");
  if (run.status !== "waiting") {
    throw new AppError(
      "conflict",
      run.status === "finished"
        ? `run #${run.number} has ended (${run.ending}); dispatch the task again for a new run`
        : `run #${run.number} is ${run.status}, not waiting for a fix`,
    );
  }
  const n = await getDb().$transaction(async (tx) => {
    const next = (await findLastAttemptN({ runId, db: tx })) + 1;
    if (next > run.maxAttempts)
      throw new AppError("conflict", `all ${run.maxAttempts} attempts of run #${run.number} are used`);
    if (
      !(await updateRunIfStatus({
        id: runId,
        statuses: ["waiting"],
        changes: { status: "queued", gate: "pending" },
        db: tx,
      }))
    ) {
      throw new AppError("conflict", `run #${run.number} is no longer waiting for a fix`);
    }
    await insertAttempt({
      runId,
      n: next,
      trigger: opts.pushed ? "push" : "manual",
      startedById: actor.userId,
      pushed: opts.pushed,
      db: tx,
    });
    await insertAuditEvent({
      event: auditBy(actor, {
        action: "run.attempt",
        workId: run.workId,
        taskId: run.taskId,
        runId,
        summary:
          `started attempt ${next} of run #${run.number}` +
          `${opts.pushed ? ` at ${opts.pushed.commit.slice(0, 12)}` : ""}`,
      }),
      db: tx,
    });
    return next;
  });
  await getExecutor().submit(runId);
  return { run: (await findRun({ id: runId }))!, n };
}

export async function decideRun(actor: Actor, runId: string, input: unknown): Promise<RunRecord> {
  const run = await loadRunFor(actor, runId, "lead");
  const decision = parseInput(ZDecision, input);
  if (run.ending !== "partial" || !run.needsDecision) {
    throw new AppError(
      "conflict",
      run.ending === "partial"
        ? `run #${run.number} was already decided (${run.decision})`
        : `run #${run.number} is not a partial run waiting for a decision`,
    );
  }
  const who = actor.email ?? actor.label;
  const reason = decision.reason?.trim() || null;
  const decided = {
    decidedById: actor.userId,
    decidedAt: new Date(),
    needsDecision: false,
    decisionReason: reason,
  };
  let resubmit = false;
  await getDb().$transaction(async (tx) => {
    let ok: boolean;
    if (decision.choice === "more-attempts") {
      const granted = decision.attempts ?? 1;
      const active = await findActiveRunOfTask({ taskId: run.taskId, db: tx });
      if (active)
        throw new AppError(
          "busy",
          `run #${active.number} of this task is active; more attempts for run #${run.number} would run beside it`,
        );
      const hasAgent = !!run.agentCommand;
      ok = await updateRunIfStatus({
        id: runId,
        statuses: ["finished"],
        needsDecision: true,
        changes: {
          ...decided,
          decision: `more-attempts:${granted}`,
          maxAttempts: run.maxAttempts + granted,
          status: hasAgent ? "queued" : "waiting",
          ending: null,
          endingReason: null,
          finishedAt: null,
          budgetFromMs: run.spentMs,
        },
        db: tx,
      });
      if (ok && hasAgent) {
        const last = await findLastAttemptN({ runId, db: tx });
        await insertAttempt({ runId, n: last + 1, trigger: "decision", startedById: actor.userId, db: tx });
        resubmit = true;
      }
    } else if (decision.choice === "skip-stage" || decision.choice === "send-back") {
      const to = stageForDecision(run, decision.choice, decision.stage);
      const what = decision.choice === "skip-stage" ? `stage ${run.stage} skipped` : `sent back to stage ${to}`;
      ok = await updateRunIfStatus({
        id: runId,
        statuses: ["finished"],
        needsDecision: true,
        changes: {
          ...decided,
          decision: decision.choice === "skip-stage" ? "skip-stage" : `send-back:${to}`,
          endingReason: `${run.endingReason ?? "stuck"}; ${what} by ${who}${reason ? `: ${reason}` : ""}`,
        },
        db: tx,
      });
      if (ok && !(await moveStage({ actor, run, to, why: `${what}${reason ? `: ${reason}` : ""}`, db: tx })))
        throw new AppError("conflict", `the task is no longer at stage ${run.stage}: nothing was decided`);
    } else {
      ok = await updateRunIfStatus({
        id: runId,
        statuses: ["finished"],
        needsDecision: true,
        changes: {
          ...decided,
          decision: decision.choice,
          ending: endingForDecision(decision.choice),
          endingReason:
            decision.choice === "accept"
              ? `accepted as it stands by ${who}` +
                `${
                  run.bestAttempt
                    ? ` (best attempt ${run.bestAttempt}${run.bestCommit ? `, commit ${run.bestCommit.slice(0, 12)}` : ""})`
                    : ""
                }` +
                `${reason ? `: ${reason}` : ""}`
              : `rejected by ${who}${reason ? `: ${reason}` : ""}`,
        },
        db: tx,
      });
      if (ok && decision.choice === "accept")
        await supersedeOlderRuns({ taskId: run.taskId, number: run.number, byRunId: run.id, db: tx });
    }
    if (!ok) throw new AppError("conflict", `run #${run.number} was decided by someone else a moment ago`);
    await insertAuditEvent({
      event: auditBy(actor, {
        action: "run.decision",
        workId: run.workId,
        taskId: run.taskId,
        runId,
        summary:
          `answered run #${run.number}: ${decision.choice}` +
          `${decision.choice === "more-attempts" ? ` (+${decision.attempts ?? 1})` : ""}` +
          `${decision.choice === "send-back" ? ` to ${decision.stage}` : ""}` +
          `${reason ? ` — ${reason}` : ""}`,
        after: decision,
      }),
      db: tx,
    });
  });
  if (resubmit) await getExecutor().submit(runId);
  // The run's ending changed (partial → accepted or rejected): its receivers hear how it ended now. (More
  // attempts end the run again, with their own run.ended.)
  if (decision.choice === "accept" || decision.choice === "reject") notifyRunEvent(run, "run.ended");
  const after = (await findRun({ id: runId }))!;
  if (decision.choice !== "accept") return after;
  await advanceAfterStageRun(after);
  await autoMergeAfterRun(after);
  return (await findRun({ id: runId }))!;
}

// Exactly one cancel wins, however many arrive at once: the one whose conditional update moves the run
// out of an active status (in the database, so it holds across processes too). It alone is audited; the
// others get 409. The executor then stops the run's processes, and the runner never writes over the
// ending (its own endings are conditional on an active status as well).
export async function cancelRun(actor: Actor, runId: string): Promise<RunRecord> {
  const run = await loadRunFor(actor, runId, "engineer");
  if (run.status === "finished") throw alreadyEnded(run);
  const who = actor.email ?? actor.label;
  const isCancelled = await getDb().$transaction(async (tx) => {
    const moved = await updateRunIfStatus({
      id: runId,
      statuses: [...ACTIVE_RUN_STATUSES],
      changes: {
        status: "finished",
        ending: "rejected",
        endingReason: `${CANCELLED_BY}${who}`,
        finishedAt: new Date(),
        needsDecision: false,
        // Never left pending or running once finished; the runner, if it holds the run, then writes the gate
        // of the attempt it cut short (red when a required check had already failed).
        gate: endedGate(run.gate),
      },
      db: tx,
    });
    if (!moved) return false;
    // Named as a dispatch is ("dispatched GATE-3 (run #1)"), so the trail says whose run it was.
    const key = (await findTask({ id: run.taskId, db: tx }))?.key;
    await insertAuditEvent({
      event: auditBy(actor, {
        action: "run.cancel",
        workId: run.workId,
        taskId: run.taskId,
        runId,
        summary: key ? `cancelled ${key} (run #${run.number})` : `cancelled run #${run.number}`,
      }),
      db: tx,
    });
    return true;
  });
  if (!isCancelled) throw alreadyEnded((await findRun({ id: runId })) ?? run);
  const executor = getExecutor();
  if (await executor.stop(runId, { kind: "cancel", by: who })) await executor.whenSettled(runId);
  // Once settled: the message carries the gate and verdicts the stopped attempt was left with.
  notifyRunEvent(run, "run.ended");
  return (await findRun({ id: runId }))!;
}

function alreadyEnded(run: RunRecord): AppError {
  const how = cancelledByOf(run) !== null ? run.endingReason : `ended ${run.ending ?? ""}`.trim();
  return new AppError("conflict", `run #${run.number} is already cancelled or finished (${how})`);
}

export async function readRun(actor: Actor, runId: string): Promise<RunRecord> {
  return loadRunFor(actor, runId, "viewer");
}
