// Where each task stands on its lane, as the task page's stepper and the Work's board show it (issue 26):
// per stage done, current, stuck or waiting (skipped when a decision skipped it), with its latest run's
// attempts and gate. Pure: it reads the lanes, the tasks and the facts of their stage runs.
import type { Gate } from "./gate";
import type { Lane } from "./lanes";
import type { Ending, RunStatus } from "./run-ending";

export type StageRunFact = {
  id: string;
  taskId: string;
  stage: string;
  number: number;
  status: RunStatus;
  gate: Gate;
  ending: Ending | null;
  needsDecision: boolean;
  decision: string | null;
  maxAttempts: number;
  attempts: number;
};
type StageState = "done" | "current" | "stuck" | "waiting" | "skipped";
export type StepView = {
  id: string;
  name: string;
  state: StageState;
  attempts: number;
  maxAttempts: number | null;
  gate: Gate | null;
  runId: string | null;
  runNumber: number | null;
  status: RunStatus | null;
};

// The latest run of each stage of one task (runs of other tasks are left out).
function latestByStage(taskId: string, runs: readonly StageRunFact[]): Map<string, StageRunFact> {
  const latest = new Map<string, StageRunFact>();
  for (const run of runs)
    if (run.taskId === taskId && (latest.get(run.stage)?.number ?? 0) < run.number) latest.set(run.stage, run);
  return latest;
}

const isStuck = (run: StageRunFact | undefined) => run?.ending === "partial" && run.needsDecision;

export function stepperOf(
  lane: Lane,
  task: { id: string; stage: string | null },
  runs: readonly StageRunFact[],
): StepView[] {
  const latest = latestByStage(task.id, runs);
  const at = lane.stages.findIndex((s) => s.id === task.stage);
  return lane.stages.map((stage, i) => {
    const run = latest.get(stage.id);
    const isLastDone = i === lane.stages.length - 1 && run?.ending === "accepted";
    const state: StageState =
      i < at
        ? run?.decision === "skip-stage"
          ? "skipped"
          : "done"
        : i > at
          ? "waiting"
          : isStuck(run)
            ? "stuck"
            : isLastDone
              ? "done"
              : "current";
    // A stage the task has come back to shows its own latest run only while it stands there.
    const shown = i > at ? undefined : run;
    return {
      id: stage.id,
      name: stage.name,
      state,
      attempts: shown?.attempts ?? 0,
      maxAttempts: shown?.maxAttempts ?? null,
      gate: shown?.gate ?? null,
      runId: shown?.id ?? null,
      runNumber: shown?.number ?? null,
      status: shown?.status ?? null,
    };
  });
}

type BoardCard = {
  taskId: string;
  key: string;
  title: string;
  state: StageState;
  attempts: number;
  maxAttempts: number | null;
  gate: Gate | null;
  runId: string | null;
  status: RunStatus | null;
};
export type BoardLane = { id: string; name: string; columns: { id: string; name: string; cards: BoardCard[] }[] };

// A column per stage of each lane, a card per task standing there (in the order the tasks come).
export function boardOf(
  lanes: readonly Lane[],
  tasks: readonly { id: string; key: string; title: string; lane: string | null; stage: string | null }[],
  runs: readonly StageRunFact[],
): BoardLane[] {
  return lanes.map((lane) => ({
    id: lane.id,
    name: lane.name,
    columns: lane.stages.map((stage) => ({
      id: stage.id,
      name: stage.name,
      cards: tasks
        .filter((t) => t.lane === lane.id && t.stage === stage.id)
        .map((t) => {
          const step = stepperOf(lane, t, runs).find((s) => s.id === stage.id)!;
          return {
            taskId: t.id,
            key: t.key,
            title: t.title,
            state: step.state,
            attempts: step.attempts,
            maxAttempts: step.maxAttempts,
            gate: step.gate,
            runId: step.runId,
            status: step.status,
          };
        }),
    })),
  }));
}
