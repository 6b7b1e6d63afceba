// Advancing one run: prepare the checkout, run queued attempts, and after each decide (lib/gates) whether
// to accept, try again, wait for a person, or end partial or inconclusive.
import fs from "node:fs";
import { supersedeOlderRuns } from "../db/decisions";
import { sandboxSettingsOf } from "../gates/work-settings";
import { ACTIVE_RUN_STATUSES, CANCELLED_BY, pickBestAttempt, decideNextStep } from "../gates/run-ending";
import { endedGate, isNothingRequired } from "../gates/gate";
import { formatUsd, isUsdBudgetSpent, usdSpent } from "../gates/usd-budget";
import type { Ending } from "../gates/run-ending";
import type { AgentCaveat } from "../gates/agent-note";
import { countRequiredPassedByAttempt } from "../db/run-history";
import {
  findRun,
  insertAttempt,
  insertResults,
  listAttempts,
  listResults,
  settleUnfinishedResults,
  updateAttempt,
  updateRun,
  updateRunIfStatus,
  type RunRecord,
} from "../db/runs";
import { findTask } from "../db/tasks";
import { findWork } from "../db/works";
import { rowsFor } from "./attempt-results";
import { prepareCheckout, saveCheckoutBranch, type CheckoutTarget, type WrittenIndex } from "./checkout/checkout";
import { moveCheckoutToCommit } from "./checkout/move-to-commit";
import { visibleRefsOf } from "./checkout/visible-refs";
import { freezeCheckSources, removeReadOnlyTree, runChecksDirOf } from "./check-sources";
import { Budget } from "./attempt/budget";
import { executeAttempt } from "./attempt/pipeline";
import type { RunnerDeps, StopReason } from "./runner-deps";
import { notifyRunEvent } from "./webhook-sender";

export async function advanceRun(runId: string, signal: AbortSignal, deps: RunnerDeps): Promise<void> {
  const saved: SavedBranch = { target: null };
  try {
    await advance(runId, signal, deps, saved);
  } finally {
    // Whatever ended the run's turn (a stop, an error), the commits made in the checkout reach the task branch.
    if (saved.target)
      await saveCheckoutBranch(saved.target).catch((error: Error) =>
        console.error(`gatehouse: the task branch of run ${runId} could not be saved: ${error.message}`),
      );
  }
  // A finished run's check sources (their cache and clones) are not needed again (a run without check
  // sources has none: no read of the run for it).
  const checksDir = runChecksDirOf(deps.dataDir, runId);
  if (!fs.existsSync(checksDir)) return;
  const after = await findRun({ id: runId });
  if (!after || after.status === "finished") removeReadOnlyTree(checksDir);
}

// The checkout whose task branch is carried into the Work's clone when the run's turn ends.
type SavedBranch = { target: CheckoutTarget | null };

async function advance(runId: string, signal: AbortSignal, deps: RunnerDeps, saved: SavedBranch): Promise<void> {
  const found = await findRun({ id: runId });
  if (!found) return;
  const run: RunRecord = found;
  // A run cancelled before it started is already finished in the database: settle its attempts.
  if (signal.aborted) return endStopped(run, signal);
  if (found.status === "finished" || found.status === "waiting") return;
  const [task, work] = await Promise.all([findTask({ id: run.taskId }), findWork({ id: run.workId })]);
  if (!task || !work) return endRun(run, "inconclusive", "the task or its Work was deleted");

  const isStarted = await updateRunIfStatus({
    id: run.id,
    statuses: ["queued", "running"],
    // The sandbox it runs under is recorded with it (a worker's own setting, like its name).
    changes: {
      status: "running",
      gate: "running",
      startedAt: run.startedAt ?? new Date(),
      sandboxMode: deps.sandbox.kind,
    },
  });
  if (!isStarted) return signal.aborted ? endStopped(run, signal) : undefined;
  // The run's first start (not a later attempt's, nor a turn resumed after a restart).
  if (!run.startedAt) notifyRunEvent(run, "run.started", work);
  run.gate = "running";
  let checkoutPath: string;
  // The index git wrote as it made a new checkout: good for the first attempt of this turn alone.
  let written: WrittenIndex | null = null;
  const target: CheckoutTarget = {
    dataDir: deps.dataDir,
    work,
    task: { id: task.id, branch: run.branch },
    // The run froze them with its sandbox settings (lib/gates/work-settings.ts).
    visibleRefs: visibleRefsOf(sandboxSettingsOf(run.sandbox)),
  };
  try {
    const checkout = await prepareCheckout(target);
    saved.target = target;
    checkoutPath = checkout.path;
    written = checkout.written;
    if (!run.startCommit) {
      // What the proof rows compare with is read from the Work's clone (checkout/verified-store.ts): the
      // start commit is carried there now if an earlier attempt's commit never was (nothing to do when it was).
      await saveCheckoutBranch(target).catch((error: Error) =>
        console.error(
          `gatehouse: the start commit of run ${run.id} could not be carried to the clone: ${error.message}`,
        ),
      );
      run.startCommit = checkout.head;
      await updateRun({ id: run.id, changes: { startCommit: checkout.head } });
    }
  } catch (error) {
    // Every check is still accounted for: verdict error, with the reason, never silently dropped.
    await failQueuedAttempts(run, `checkout not ready: ${(error as Error).message}`);
    return endRun(run, "inconclusive", `the checkout could not be prepared: ${(error as Error).message}`);
  }

  let secrets: Record<string, string>;
  try {
    secrets = await deps.loadSecrets(work.id);
  } catch (error) {
    // Without its secrets nothing may run (their output could not be masked): every check says why.
    await failQueuedAttempts(run, `not run: ${(error as Error).message}`);
    return endRun(run, "inconclusive", (error as Error).message);
  }
  const secretValues = Object.values(secrets);
  if (run.checkSources.length > 0) {
    // Before any agent runs: each check source's ref becomes a commit, recorded in the run.
    const frozen = await freezeCheckSources({ dataDir: deps.dataDir, runId, sources: run.checkSources, secrets });
    if (JSON.stringify(frozen.sources) !== JSON.stringify(run.checkSources)) {
      run.checkSources = frozen.sources;
      await updateRun({ id: run.id, changes: { checkSources: frozen.sources } });
    }
    if (frozen.error) {
      const reason = deps.makeMasker(secretValues).maskText(frozen.error);
      await failQueuedAttempts(run, `not run: ${reason}`);
      return endRun(run, "inconclusive", reason);
    }
  }
  for (;;) {
    const attempts = await listAttempts({ runId });
    const attempt = attempts.at(-1);
    if (!attempt || attempt.status === "finished") return;
    const previous = attempts.length > 1 ? attempts[attempts.length - 2] : null;
    if (attempt.pushed) {
      try {
        await moveCheckoutToCommit(target, attempt.pushed.commit);
      } catch (error) {
        const reason = `the pushed commit could not be checked out: ${(error as Error).message}`;
        await failQueuedAttempts(run, reason);
        return endRun(run, "inconclusive", reason);
      }
    }
    const result = await executeAttempt({
      run,
      task,
      work,
      attempt,
      previous,
      checkoutPath,
      signal,
      deps,
      secrets,
      // A pushed commit was just checked out over it.
      written: attempt.pushed ? null : written,
    });
    written = null;

    if (signal.aborted) {
      await settleUnfinishedResults({
        attemptId: attempt.id,
        verdict: "skipped",
        message: "not run: the run was stopped",
      });
      return endStopped(run, signal);
    }
    run.gate = result.gate;
    if (result.inconclusiveReason) return endRun(run, "inconclusive", result.inconclusiveReason);
    // Before the ending (an accepted run may be merged at once): the attempt's commits onto the task branch.
    const saveError = await saveCheckoutBranch(target).then(
      () => null,
      (error: Error) => error.message,
    );
    if (saveError) return endRun(run, "inconclusive", `the task branch could not be saved: ${saveError}`);

    const step = decideNextStep({
      policy: run.policy,
      gate: result.gate,
      attemptN: attempt.n,
      maxAttempts: run.maxAttempts,
      // A red pushed attempt waits for the next push: the agent that pushed it is the one at work.
      hasAgent: !!run.agentCommand && !attempt.pushed,
      isBudgetSpent: new Budget(run, deps.agentTimeoutMs).isSpent(),
      budgetSec: run.budgetSec,
      usdSpent: await usdSpentOf(run),
      isNothingRequired: isNothingRequired(run.checks),
      agentNote: result.agentNote,
    });
    switch (step.kind) {
      case "accept":
        await endRun(run, "accepted", step.reason, { agentCaveat: step.agentCaveat });
        // The task's older partial runs no longer need a decision: this one did the work (a first run has none).
        if (run.number > 1) await supersedeOlderRuns({ taskId: run.taskId, number: run.number, byRunId: run.id });
        return deps.afterAccepted?.(run).catch((error) => console.error("gatehouse: auto-merge failed", error));
      case "wait":
        await updateRunIfStatus({
          id: run.id,
          statuses: [...ACTIVE_RUN_STATUSES],
          changes: { status: "waiting", gate: result.gate },
        });
        return;
      case "partial": {
        const best = pickBestAttempt(await countRequiredPassedByAttempt({ runId }));
        return endRun(run, "partial", step.reason, {
          bestAttempt: best?.n ?? null,
          bestCommit: best?.commit ?? null,
          needsDecision: true,
        });
      }
      case "next-attempt":
        await insertAttempt({ runId, n: attempt.n + 1, trigger: "agent-loop", startedById: null });
        continue;
    }
  }
}

// "$1.20 of $1.00" once the agent's reported cost has reached the run's USD budget; null before (or without one).
async function usdSpentOf(run: RunRecord): Promise<string | null> {
  if (run.budgetUsd === null) return null;
  const attempts = await listAttempts({ runId: run.id });
  return isUsdBudgetSpent(run.budgetUsd, attempts)
    ? `${formatUsd(usdSpent(attempts))} of ${formatUsd(run.budgetUsd)}`
    : null;
}

// Conditional on an active status: a run a person cancelled meanwhile keeps that ending.
async function endRun(
  run: RunRecord,
  ending: Ending,
  reason: string,
  extra: {
    bestAttempt?: number | null;
    bestCommit?: string | null;
    needsDecision?: boolean;
    agentCaveat?: AgentCaveat | null;
  } = {},
): Promise<void> {
  const changes = {
    status: "finished" as const,
    ending,
    endingReason: reason,
    agentCaveat: extra.agentCaveat ?? null,
    finishedAt: new Date(),
    needsDecision: extra.needsDecision ?? false,
    bestAttempt: extra.bestAttempt ?? null,
    bestCommit: extra.bestCommit ?? null,
    gate: endedGate(run.gate),
  };
  const isEnded = await updateRunIfStatus({ id: run.id, statuses: [...ACTIVE_RUN_STATUSES], changes });
  // Only the ending that took (a cancel that got there first has sent its own).
  if (!isEnded) return;
  // The run in hand is the run as recorded now (what follows an accepted run reads it).
  Object.assign(run, changes);
  notifyRunEvent(run, "run.ended");
  if (extra.needsDecision) notifyRunEvent(run, "decision.needed");
}

// A cancel ends the run rejected; a shutdown leaves it for the next start to record as interrupted.
async function endStopped(run: RunRecord, signal: AbortSignal): Promise<void> {
  const reason = signal.reason as StopReason | undefined;
  if (reason?.kind === "cancel") {
    for (const attempt of await listAttempts({ runId: run.id })) {
      if (attempt.status === "finished") continue;
      await settleUnfinishedResults({
        attemptId: attempt.id,
        verdict: "skipped",
        message: "not run: the run was cancelled",
      });
      await updateAttempt({
        id: attempt.id,
        changes: {
          status: "finished",
          finishedAt: new Date(),
          gate: endedGate(attempt.gate),
        },
      });
    }
    // cancelRun has already ended the run; what is left is the gate of the attempt cut short, which the run
    // shows too (the run's own column was last written before that attempt: "running", or an earlier red).
    await endRun(run, "rejected", `${CANCELLED_BY}${reason.by}`);
    const last = (await listAttempts({ runId: run.id })).at(-1);
    await updateRun({ id: run.id, changes: { gate: endedGate(last?.gate ?? run.gate) } });
  }
}

async function failQueuedAttempts(run: RunRecord, message: string): Promise<void> {
  for (const attempt of await listAttempts({ runId: run.id })) {
    if (attempt.status === "finished") continue;
    const existing = await listResults({ attemptId: attempt.id });
    if (existing.length === 0) {
      await insertResults({
        attemptId: attempt.id,
        runId: run.id,
        logAttempt: attempt.n,
        results: rowsFor(run.checks, { verdict: "error", message, finishedAt: new Date() }),
      });
    } else await settleUnfinishedResults({ attemptId: attempt.id, verdict: "error", message });
    const gate = run.policy === "off" ? "off" : run.checks.some((c) => c.required) ? "red" : "green";
    await updateAttempt({
      id: attempt.id,
      changes: { status: "finished", gate, finishedAt: new Date(), startedAt: attempt.startedAt ?? new Date() },
    });
    await updateRun({ id: run.id, changes: { gate } });
    run.gate = gate;
  }
}
