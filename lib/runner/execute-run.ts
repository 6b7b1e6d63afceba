// Advancing one run: prepare the checkout, run queued attempts, and after each decide (lib/gates) whether
// to accept, try again, wait for a person, or end partial or inconclusive.
import { pickBestAttempt, decideNextStep } from "../gates/run-ending";
import { isNothingRequired } from "../gates/gate";
import type { Ending } from "../gates/run-ending";
import { countRequiredPassedByAttempt } from "../db/run-history";
import { findRun, insertAttempt, listAttempts, settleUnfinishedResults, updateAttempt, updateRun, type RunRecord } from "../db/runs";
import { findTask } from "../db/tasks";
import { findWork } from "../db/works";
import { prepareCheckout } from "./checkout/checkout";
import { executeAttempt } from "./execute-attempt";
import type { RunnerDeps, StopReason } from "./runner-deps";

export async function advanceRun(runId: string, signal: AbortSignal, deps: RunnerDeps): Promise<void> {
  const found = await findRun({ id: runId });
  if (!found || found.status === "finished" || found.status === "waiting") return;
  const run: RunRecord = found;
  const [task, work] = await Promise.all([findTask({ id: run.taskId }), findWork({ id: run.workId })]);
  if (!task || !work) return endRun(run, "inconclusive", "the task or its Work was deleted");

  await updateRun({ id: run.id, changes: { status: "running", gate: "running", startedAt: run.startedAt ?? new Date() } });
  let checkoutPath: string;
  try {
    const checkout = await prepareCheckout({ dataDir: deps.dataDir, work, task: { id: task.id, branch: run.branch } });
    checkoutPath = checkout.path;
    if (!run.startCommit) {
      run.startCommit = checkout.head;
      await updateRun({ id: run.id, changes: { startCommit: checkout.head } });
    }
  } catch (error) {
    await closeQueuedAttempts(run.id, "not run: the checkout could not be prepared");
    return endRun(run, "inconclusive", `the checkout could not be prepared: ${(error as Error).message}`);
  }

  const secrets = await deps.loadSecrets(work.id);
  const secretValues = Object.values(secrets);
  for (;;) {
    const attempts = await listAttempts({ runId });
    const attempt = attempts.at(-1);
    if (!attempt || attempt.status === "finished") return;
    const previous = attempts.length > 1 ? attempts[attempts.length - 2] : null;
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
      masker: () => deps.makeMasker(secretValues),
    });

    if (signal.aborted) {
      const reason = signal.reason as StopReason | undefined;
      await settleUnfinishedResults({ attemptId: attempt.id, verdict: "skipped", message: "not run: the run was stopped" });
      if (reason?.kind === "cancel") return endRun(run, "rejected", `cancelled by ${reason.by}`);
      return; // shutdown: the next start ends it as interrupted
    }
    if (result.inconclusiveReason) return endRun(run, "inconclusive", result.inconclusiveReason);

    const step = decideNextStep({
      policy: run.policy,
      gate: result.gate,
      attemptN: attempt.n,
      maxAttempts: run.maxAttempts,
      hasAgent: !!run.agentCommand,
      requiredError: null,
      isBudgetSpent: run.budgetSec !== null && run.spentMs - run.budgetFromMs >= run.budgetSec * 1000,
      budgetSec: run.budgetSec,
      isNothingRequired: isNothingRequired(run.checks),
    });
    switch (step.kind) {
      case "accept":
        return endRun(run, "accepted", step.reason);
      case "inconclusive":
        return endRun(run, "inconclusive", step.reason);
      case "wait":
        await updateRun({ id: run.id, changes: { status: "waiting", gate: result.gate } });
        return;
      case "partial": {
        const best = pickBestAttempt(await countRequiredPassedByAttempt({ runId }));
        return endRun(run, "partial", step.reason, { bestAttempt: best?.n ?? null, bestCommit: best?.commit ?? null, needsDecision: true });
      }
      case "next-attempt":
        await insertAttempt({ runId, n: attempt.n + 1, trigger: "agent-loop", startedById: null });
        continue;
    }
  }
}

async function endRun(
  run: RunRecord,
  ending: Ending,
  reason: string,
  extra: { bestAttempt?: number | null; bestCommit?: string | null; needsDecision?: boolean } = {},
): Promise<void> {
  const latest = await findRun({ id: run.id });
  await updateRun({
    id: run.id,
    changes: {
      status: "finished",
      ending,
      endingReason: reason,
      finishedAt: new Date(),
      needsDecision: extra.needsDecision ?? false,
      bestAttempt: extra.bestAttempt ?? null,
      bestCommit: extra.bestCommit ?? null,
      gate: latest?.gate === "running" ? "pending" : latest?.gate,
    },
  });
}

async function closeQueuedAttempts(runId: string, message: string): Promise<void> {
  for (const attempt of await listAttempts({ runId })) {
    if (attempt.status === "finished") continue;
    await settleUnfinishedResults({ attemptId: attempt.id, verdict: "skipped", message });
    await updateAttempt({ id: attempt.id, changes: { status: "finished", gate: "pending", finishedAt: new Date() } });
  }
}
