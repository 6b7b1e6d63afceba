// The Work's board and a task's stepper (issue 26): read through lib/db, shaped by lib/gates/board.ts.
import type { Actor } from "../auth/actor";
import { notFound } from "../errors";
import { boardOf, stepperOf, type BoardLane, type StepView } from "../gates/board";
import { findLane } from "../gates/lanes";
import { listStageRuns } from "../db/runs";
import { listTasks } from "../db/tasks";
import { findWork } from "../db/works";
import { requireRole } from "./access";

export async function readBoard(actor: Actor, workId: string): Promise<{ lanes: BoardLane[] }> {
  const work = await findWork({ id: workId });
  if (!work) throw notFound("Work");
  await requireRole(actor, workId, "viewer");
  const [tasks, runs] = await Promise.all([listTasks({ workId }), listStageRuns({ workId })]);
  // Oldest task first in each column, as a queue reads.
  return { lanes: boardOf(work.lanes, [...tasks].reverse(), runs) };
}

// The stepper of a task on a lane (null: the task is on no lane the Work has). The caller has read the
// task with its access checked.
export async function readStepper(
  task: { id: string; lane: string | null; stage: string | null },
  work: { lanes: Parameters<typeof findLane>[0] },
): Promise<{ lane: { id: string; name: string }; steps: StepView[] } | null> {
  const lane = findLane(work.lanes, task.lane);
  if (!lane) return null;
  const runs = await listStageRuns({ taskId: task.id });
  return { lane: { id: lane.id, name: lane.name }, steps: stepperOf(lane, task, runs) };
}
