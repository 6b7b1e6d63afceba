// The lane editor's working copy: each lane and stage as typed (attempts as text, empty output and skill
// for none), each stage's checks as the check editor holds them; turned back into what ZLanes validates.
import type { Lane } from "../gates/lanes";
import { checkFromForm, formFromCheck, newKey, wholeNumberOrText, type CheckForm } from "./check-form";

export type StageForm = {
  key: string;
  id: string;
  name: string;
  output: string;
  skill: string;
  maxAttempts: string;
  checks: CheckForm[];
};
export type LaneForm = { key: string; id: string; name: string; stages: StageForm[] };

export function laneFormsFrom(lanes: readonly Lane[]): LaneForm[] {
  return lanes.map((lane) => ({
    key: newKey(),
    id: lane.id,
    name: lane.name,
    stages: lane.stages.map((s) => ({
      key: newKey(),
      id: s.id,
      name: s.name,
      output: s.output ?? "",
      skill: s.skill ?? "",
      maxAttempts: s.maxAttempts === undefined ? "" : String(s.maxAttempts),
      checks: s.checks.map((c) => formFromCheck(c)),
    })),
  }));
}

export function lanesFromForms(forms: readonly LaneForm[]): Record<string, unknown>[] {
  return forms.map((lane) => ({
    id: lane.id,
    name: lane.name,
    stages: lane.stages.map((s) => ({
      id: s.id,
      name: s.name,
      ...(s.output.trim() ? { output: s.output.trim() } : {}),
      ...(s.skill.trim() ? { skill: s.skill } : {}),
      ...(s.maxAttempts.trim() ? { maxAttempts: wholeNumberOrText(s.maxAttempts) } : {}),
      checks: s.checks.map(checkFromForm),
    })),
  }));
}

export function emptyStage(taken: readonly string[]): StageForm {
  let n = taken.length + 1;
  while (taken.includes(`stage-${n}`)) n++;
  return { key: newKey(), id: `stage-${n}`, name: `Stage ${n}`, output: "", skill: "", maxAttempts: "", checks: [] };
}

export function emptyLane(taken: readonly string[]): LaneForm {
  let n = taken.length + 1;
  while (taken.includes(`lane-${n}`)) n++;
  return { key: newKey(), id: `lane-${n}`, name: `Lane ${n}`, stages: [emptyStage([])] };
}
