// Landing a task (SPEC Part 2): "Merge" on a task merges its branch into the base branch and pushes it,
// under the Work's mergePolicy. Merges of one Work run one at a time in this process (withRepoLock), and
// the push itself is safe against other servers (merge-branch.ts). Every merge and every refusal that
// got past the role check is audited; a refusal is a 409 whose `refusal` names the reason's kind.
import type { Actor } from "../auth/actor";
import { SYSTEM_ACTOR } from "../auth/actor";
import { AppError, notFound } from "../errors";
import { isMergedAtHead, refuseMerge } from "../gates/merge-policy";
import { isLastStageRun } from "./stages";
import { getDb } from "../db/client";
import { insertAuditEvent } from "../db/audit";
import { findLatestRunOfTask } from "../db/landing";
import type { RunRecord } from "../db/runs";
import { findTask, updateTaskMerge, type TaskRecord } from "../db/tasks";
import { findWork, type WorkRecord } from "../db/works";
import { dataDir } from "../config/database-url";
import { withRepoLock, worktreeDirOf } from "../runner/checkout/checkout";
import { readWorktreeHead } from "../runner/checkout/read-head";
import { mergeBranch, type MergeOutcome } from "../runner/checkout/merge-branch";
import { GitError } from "../runner/checkout/git";
import { checkedOutBaseWarning } from "../runner/checkout/checked-out-base";
import { unwritableRepositoryWarning } from "../runner/checkout/push-access";
import { auditBy, requireRole } from "./access";

export type MergeResult = { commit: string; base: string; mergedAt: Date; mergedBy: string };

export async function mergeTask(actor: Actor, taskId: string): Promise<MergeResult> {
  const task = await findTask({ id: taskId });
  if (!task) throw notFound("Task");
  await requireRole(actor, task.workId, "engineer");
  const work = await findWork({ id: task.workId });
  if (!work) throw notFound("Work");
  return landTask(actor, task, work);
}

// After a run ends accepted (the runner calls this once the ending is recorded): merge when the Work says
// autoMerge. A failure is kept on the task (autoMergeError) and audited; the run's ending never changes.
export async function autoMergeAfterRun(run: RunRecord): Promise<void> {
  // An intermediate stage accepted is not the task done: only the lane's last stage lands the work.
  if (run.ending !== "accepted" || !isLastStageRun(run)) return;
  const work = await findWork({ id: run.workId });
  if (!work?.mergePolicy.autoMerge) return;
  const task = await findTask({ id: run.taskId });
  if (!task) return;
  const actor = { ...SYSTEM_ACTOR, label: `auto-merge after run #${run.number}` };
  try {
    await landTask(actor, task, work);
  } catch (error) {
    const message = error instanceof AppError || error instanceof GitError ? error.message : "Something went wrong";
    if (!(error instanceof AppError)) console.error(`gatehouse: auto-merge of ${task.key} failed`, error);
    await updateTaskMerge({
      id: task.id,
      changes: { autoMergeError: `auto-merge after run #${run.number}: ${message}` },
    });
  }
}

async function landTask(actor: Actor, task: TaskRecord, work: WorkRecord): Promise<MergeResult> {
  const policy = work.mergePolicy;
  const who = actor.email ?? actor.label;
  const outcome: MergeOutcome = await withRepoLock(work.id, async () => {
    try {
      return await mergeBranch({
        dataDir: dataDir(),
        work,
        branch: task.branch,
        checkoutPath: worktreeDirOf(dataDir(), task.id),
        method: policy.method,
        task,
        author: { name: actor.label, email: actor.email ?? "gatehouse@gatehouse.invalid" },
        // Read inside the lock: a run that ends meanwhile is seen by the next merge, not half of this one.
        judge: async (branchHead) =>
          refuseMerge({
            policy,
            latest: await findLatestRunOfTask({ taskId: task.id }),
            branch: task.branch,
            branchHead,
          }),
      });
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      return { kind: "refused", refusal: "git-failed", reason: `git could not merge: ${error.message}` };
    }
  });
  if (outcome.kind === "refused") {
    await insertAuditEvent({
      event: auditBy(actor, {
        action: "task.merge.refused",
        workId: work.id,
        taskId: task.id,
        summary: `merge of ${task.key} refused: ${outcome.reason}`,
        after: { refusal: outcome.refusal, conflicts: outcome.conflicts },
      }),
    });
    throw new AppError("conflict", outcome.reason, [], {
      refusal: outcome.refusal,
      ...(outcome.conflicts ? { conflicts: outcome.conflicts } : {}),
    });
  }
  const mergedAt = new Date();
  await getDb().$transaction(async (tx) => {
    await updateTaskMerge({
      id: task.id,
      changes: {
        mergedCommit: outcome.commit,
        mergedHead: outcome.head,
        mergedAt,
        mergedBy: who,
        autoMergeError: null,
      },
      db: tx,
    });
    await insertAuditEvent({
      event: auditBy(actor, {
        action: "task.merge",
        workId: work.id,
        taskId: task.id,
        summary: `merged ${task.key} into ${outcome.base} as ${outcome.commit.slice(0, 12)} (${policy.method})`,
        before: { base: outcome.baseBefore },
        after: { base: outcome.commit, method: policy.method },
      }),
      db: tx,
    });
  });
  return { commit: outcome.commit, base: outcome.base, mergedAt, mergedBy: who };
}

// What the task page's Merge needs, as far as the database and the worktree's files tell (no git runs):
// why a merge would be refused now (the page disables "Merge" with this reason; null: try it, git may
// still refuse: a conflict, the remote), and whether the branch is still where its merge took it (then
// there is nothing to merge and the page offers no Merge).
export async function readMergeState(
  task: TaskRecord,
  work: WorkRecord,
): Promise<{ refusedInAdvance: string | null; isMergedAtHead: boolean }> {
  const latest = await findLatestRunOfTask({ taskId: task.id });
  const known = latest ? readWorktreeHead(worktreeDirOf(dataDir(), task.id)) : null;
  const branchHead = known?.branch === task.branch ? known.commit : undefined;
  return {
    refusedInAdvance: refuseMerge({ policy: work.mergePolicy, latest, branch: task.branch, branchHead }),
    isMergedAtHead: isMergedAtHead({
      merged: task.mergedAt ? { head: task.mergedHead, at: task.mergedAt } : null,
      branchHead: branchHead ?? latest?.head ?? undefined,
      latestRunAt: latest?.createdAt ?? null,
    }),
  };
}

// Why Merge will fail whatever the gate says (the base branch checked out in a non-bare repository, or a
// repository the user git runs as may not write to), for
// the Work's and the task's pages; null when a merge can push.
export async function landingWarning(work: Pick<WorkRecord, "repoUrl" | "baseBranch">): Promise<string | null> {
  try {
    return (await checkedOutBaseWarning(work)) ?? unwritableRepositoryWarning(work);
  } catch (error) {
    // Only a hint: a repository git cannot read here says nothing rather than breaking the page.
    console.error("gatehouse: could not inspect the Work's repository", error);
    return null;
  }
}
