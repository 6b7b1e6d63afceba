// A task's way through its lane (issue 26): a green stage moves it to the next (and, with the Work's
// autoAdvance, dispatches that stage at once); the decisions on a stuck stage that move it (skip the stage,
// send it back to an earlier one). Every move is audited with who made it.
import { SYSTEM_ACTOR, type Actor } from "../auth/actor";
import { AppError } from "../errors";
import { insertAuditEvent } from "../db/audit";
import type { DbOrTx } from "../db/client";
import type { RunRecord } from "../db/runs";
import { findTask, moveTaskStage } from "../db/tasks";
import { findWork } from "../db/works";
import { nextStage, type Lane } from "../gates/lanes";
import { auditBy } from "./access";

// Whether a run's stage is the last of its lane (a run of a task on no lane counts as last: it is the whole task).
export function isLastStageRun(run: { lane: Lane | null; stage: string | null }): boolean {
  return !run.lane || !run.stage || nextStage(run.lane, run.stage) === null;
}

export async function moveStage(opts: {
  actor: Actor;
  run: RunRecord;
  to: string;
  why: string;
  db?: DbOrTx;
}): Promise<boolean> {
  const { run } = opts;
  if (!run.lane || !run.stage) return false;
  const moved = await moveTaskStage({ id: run.taskId, lane: run.lane.id, from: run.stage, to: opts.to, db: opts.db });
  if (moved)
    await insertAuditEvent({
      event: auditBy(opts.actor, {
        action: "task.stage",
        workId: run.workId,
        taskId: run.taskId,
        runId: run.id,
        summary: `moved from stage ${run.stage} to ${opts.to}: ${opts.why}`,
        before: { stage: run.stage },
        after: { stage: opts.to },
      }),
      db: opts.db,
    });
  return moved;
}

// After a run ends accepted: its task moves on to the next stage, dispatched at once when the Work says
// autoAdvance. The last stage accepted is the task accepted: nothing moves.
export async function advanceAfterStageRun(run: RunRecord): Promise<void> {
  if (run.ending !== "accepted" || !run.lane || !run.stage) return;
  const next = nextStage(run.lane, run.stage);
  if (!next) return;
  const actor = { ...SYSTEM_ACTOR, label: `stage ${run.stage} green (run #${run.number})` };
  const moved = await moveStage({ actor, run, to: next.id, why: `stage ${run.stage} accepted in run #${run.number}` });
  const work = await findWork({ id: run.workId });
  if (!moved || !work?.autoAdvance) return;
  // Imported here: runs.ts imports this module (the decisions that move a task).
  const { dispatchTask } = await import("./runs");
  await dispatchTask(actor, run.taskId).catch(async (error) => {
    const task = await findTask({ id: run.taskId });
    console.error(`gatehouse: dispatching stage ${next.id} of ${task?.key ?? run.taskId} failed`, error);
  });
}

// The stage a skip-stage or send-back decision moves a stuck task to, or why it cannot.
export function stageForDecision(
  run: Pick<RunRecord, "lane" | "stage" | "number">,
  choice: "skip-stage" | "send-back",
  target: string | undefined,
): string {
  if (!run.lane || !run.stage)
    throw new AppError("conflict", `run #${run.number} ran no stage of a lane: ${choice} is for a stuck stage`);
  const at = run.lane.stages.findIndex((s) => s.id === run.stage);
  if (choice === "skip-stage") {
    const next = run.lane.stages[at + 1];
    if (!next)
      throw new AppError(
        "conflict",
        `${run.stage} is the last stage of lane ${run.lane.id}: accept the run as it stands or reject it`,
      );
    return next.id;
  }
  const earlier = run.lane.stages.slice(0, at).map((s) => s.id);
  if (target === undefined || !earlier.includes(target)) {
    const message =
      earlier.length === 0
        ? `${run.stage} is the first stage of lane ${run.lane.id}: there is no earlier stage to send it back to`
        : `must be an earlier stage of lane ${run.lane.id}: one of ${earlier.join(", ")}`;
    throw new AppError("validation", `stage: ${message}`, [{ path: "stage", message }]);
  }
  return target;
}
