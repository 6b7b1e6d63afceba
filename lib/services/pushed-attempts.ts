// The next attempt of a task at a commit the agent pushed to the task's branch (its stop hook, the MCP
// server's run_gate, `gatehouse`): the run waiting for a fix gets it as its next attempt; a task with no
// run in progress is dispatched with it as attempt 1. A run still executing is refused (busy): the
// caller waits for it and asks again, so two attempts never race on one checkout.
import type { Actor } from "../auth/actor";
import { AppError, notFound } from "../errors";
import { ZPushedAttemptRequest, toPushedAttempt } from "../gates/pushed-attempt";
import { findActiveRunOfTask, type RunRecord } from "../db/runs";
import { findTask } from "../db/tasks";
import { requireRole } from "./access";
import { dispatchTask, startNextAttempt } from "./runs";
import { parseInput } from "./validate";

export type PushedAttemptStarted = { run: RunRecord; n: number; isNewRun: boolean };

export async function startAttemptAtCommit(
  actor: Actor,
  taskId: string,
  input: unknown,
): Promise<PushedAttemptStarted> {
  const task = await findTask({ id: taskId });
  if (!task) throw notFound("Task");
  await requireRole(actor, task.workId, "engineer");
  const pushed = toPushedAttempt(parseInput(ZPushedAttemptRequest, input));
  const active = await findActiveRunOfTask({ taskId });
  if (!active) return { run: await dispatchTask(actor, taskId, { pushed }), n: 1, isNewRun: true };
  if (active.status !== "waiting")
    throw new AppError(
      "busy",
      `${task.key} has run #${active.number} that is ${active.status}; ask again once it waits or ends`,
    );
  const { run, n } = await startNextAttempt(actor, active.id, { pushed });
  return { run, n, isNewRun: false };
}
