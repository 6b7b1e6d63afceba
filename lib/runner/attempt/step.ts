// One shape for every step of an attempt: the pipeline (pipeline.ts) runs a list of them in order, skips a
// step its run's profile does not include, stops at a stopped run, and decides "only after green" from
// the gate of the verdicts so far; a step decides nothing about the others.
import type { Verdict } from "../../gates/gate";
import type { Profile } from "../../gates/work-schema";
import type { AttemptContext } from "./context";

// What the gate is computed from: one per row a step added.
export type StepVerdict = { required: boolean; verdict: Verdict; checkId: string; message: string | null };

export type StepResult = {
  verdicts: readonly StepVerdict[];
  // Something around the work failed, not the work (the agent could not start, the review disagrees with
  // the checks): the run ends inconclusive with this reason, and no later step waits for green.
  inconclusive?: string | null;
};

export type Step = {
  id: string;
  profiles: readonly Profile[];
  // "green": runs only while every verdict so far leaves the gate green.
  after: "always" | "green";
  run(ctx: AttemptContext): Promise<StepResult>;
  // For an "after green" step whose row must say that it did not run (the mutation floor's "not run").
  notRun?(ctx: AttemptContext): Promise<StepResult>;
};

export const NOTHING: StepResult = { verdicts: [] };

// The verdict a row no command produced (a proof row) adds to the gate.
export const verdictOfRow = (r: {
  required: boolean;
  verdict: Verdict;
  checkId: string;
  message: string | null;
}): StepVerdict => ({ required: r.required, verdict: r.verdict, checkId: r.checkId, message: r.message });
