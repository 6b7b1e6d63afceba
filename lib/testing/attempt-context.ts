// Test helper for one step of an attempt without a whole dispatch: a run frozen by the real dispatch (its
// executor idle, so nothing runs it), the task's real checkout, and the AttemptContext a step gets.
import { SYSTEM_ACTOR } from "../auth/actor";
import { listAttempts, updateRun } from "../db/runs";
import { findTask } from "../db/tasks";
import { findWork } from "../db/works";
import { AttemptContext } from "../runner/attempt/context";
import type { Step, StepResult } from "../runner/attempt/step";
import { prepareCheckout } from "../runner/checkout/checkout";
import { localRunView } from "../runner/run-view";
import { setExecutor } from "../runner/runtime";
import { dispatchTask } from "../services/runs";
import type { Harness, Scenario } from "./runner-harness";

export type StepFixture = { ctx: AttemptContext; stop: () => void };

export async function attemptContextFor(
  h: Harness,
  scenario: Scenario,
  options: { secrets?: Record<string, string> } = {},
): Promise<StepFixture> {
  setExecutor(
    { submit: () => undefined, stop: () => false, whenSettled: async () => undefined, view: localRunView },
    h.deps,
  );
  const run = await dispatchTask(SYSTEM_ACTOR, scenario.task.id);
  const [task, work] = await Promise.all([findTask({ id: run.taskId }), findWork({ id: run.workId })]);
  const checkout = await prepareCheckout({
    dataDir: h.dataDir,
    work: work!,
    task: { id: task!.id, branch: run.branch },
  });
  run.startCommit = checkout.head;
  await updateRun({ id: run.id, changes: { startCommit: checkout.head } });
  const [attempt] = await listAttempts({ runId: run.id });
  const controller = new AbortController();
  const ctx = new AttemptContext({
    run,
    task: task!,
    work: work!,
    attempt,
    previous: null,
    checkoutPath: checkout.path,
    signal: controller.signal,
    deps: h.deps,
    secrets: options.secrets ?? {},
  });
  ctx.makeDirs();
  return { ctx, stop: () => controller.abort({ kind: "cancel", by: "test" }) };
}

// One step run as the pipeline runs it: the attempt's rows live while it runs, written when it ends.
export async function runStep(ctx: AttemptContext, step: Pick<Step, "run">): Promise<StepResult> {
  ctx.results.open();
  try {
    return await step.run(ctx);
  } finally {
    await ctx.results.close();
  }
}
