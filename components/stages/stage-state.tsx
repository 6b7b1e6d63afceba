// How a stage's state reads: a word and its colours, the same on the stepper and the board.
import type { StepView } from "@/lib/gates/board";

const LOOK: Record<StepView["state"], { label: string; className: string }> = {
  done: {
    label: "done",
    className: "border-emerald-600 bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  },
  current: { label: "current", className: "border-sky-600 bg-sky-50 text-sky-900 dark:bg-sky-950 dark:text-sky-200" },
  stuck: { label: "stuck", className: "border-rose-600 bg-rose-50 text-rose-900 dark:bg-rose-950 dark:text-rose-200" },
  waiting: {
    label: "waiting",
    className: "border-zinc-300 bg-white text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300",
  },
  skipped: {
    label: "skipped",
    className: "border-amber-500 bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  },
};

export function stageLook(state: StepView["state"]) {
  return LOOK[state];
}

export function attemptsText(step: Pick<StepView, "attempts" | "maxAttempts">): string {
  return step.maxAttempts === null ? "not run yet" : `attempt ${step.attempts} of ${step.maxAttempts}`;
}
