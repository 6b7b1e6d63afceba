// A task's lane as a stepper: each stage done, current, stuck or waiting, with its attempts and gate.
import Link from "next/link";
import type { StepView } from "@/lib/gates/board";
import { GateChip } from "../checks/gate-chip";
import { attemptsText, stageLook } from "./stage-state";

export function StageStepper({ lane, steps }: { lane: { id: string; name: string }; steps: StepView[] }) {
  return (
    <nav aria-label={`Stages of lane ${lane.name}`} className="mb-8">
      <ol className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {steps.map((step, i) => {
          const look = stageLook(step.state);
          return (
            <li
              key={step.id}
              aria-current={step.state === "current" || step.state === "stuck" ? "step" : undefined}
              className={`min-w-0 flex-1 rounded-md border-l-4 border px-3 py-2 text-sm ${look.className}`}
            >
              <div className="flex items-center justify-between gap-2">
                <span className="font-semibold">
                  {i + 1}. {step.name}
                </span>
                <span className="text-xs font-medium uppercase tracking-wide">{look.label}</span>
              </div>
              <div className="mt-1 flex flex-wrap items-center gap-2 text-xs">
                <span>{attemptsText(step)}</span>
                {step.gate ? <GateChip gate={step.gate} ending={null} size="sm" /> : null}
                {step.runId ? (
                  <Link href={`/runs/${step.runId}`} className="underline">
                    run #{step.runNumber}
                  </Link>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
