// The task editor's working copy: the task's title and description, its entries (null = inherit untouched),
// attempts, agent command and lane.
import type { Check, TaskCheckEntry } from "../gates/check-schema";
import { ZTaskPatch } from "../gates/work-schema";
import { toFieldIssues } from "../gates/field-issues";
import { findUnmatchedSuppressions } from "../gates/merge-checks";
import { checkFromForm, formFromCheck, type CheckForm } from "./check-form";

export type TaskSettings = {
  title: string;
  description: string;
  acceptanceChecks: TaskCheckEntry[] | null;
  maxGateAttempts: number | null;
  // null: the Work's agent runs this task.
  agentCommand: string | null;
  // The lane the task is on (null: none).
  lane: string | null;
  version: number;
};
// agentCommand "" inherits the Work's; lane "" is no lane.
export type TaskForm = {
  title: string;
  description: string;
  entries: CheckForm[] | null;
  maxGateAttempts: string;
  agentCommand: string;
  lane: string;
};

export function taskFormFrom(s: TaskSettings): TaskForm {
  return {
    title: s.title,
    description: s.description,
    entries: s.acceptanceChecks === null ? null : s.acceptanceChecks.map((e) => formFromCheck(e)),
    maxGateAttempts: s.maxGateAttempts === null ? "inherit" : String(s.maxGateAttempts),
    agentCommand: s.agentCommand ?? "",
    lane: s.lane ?? "",
  };
}

export function taskPatchFrom(form: TaskForm): {
  title: string;
  description: string;
  acceptanceChecks: unknown[] | null;
  maxGateAttempts: number | null;
  agentCommand: string | null;
  lane: string | null;
} {
  return {
    title: form.title,
    description: form.description,
    acceptanceChecks: form.entries === null ? null : form.entries.map(checkFromForm),
    maxGateAttempts: form.maxGateAttempts === "inherit" ? null : Number(form.maxGateAttempts),
    agentCommand: form.agentCommand.trim() === "" ? null : form.agentCommand,
    lane: form.lane === "" ? null : form.lane,
  };
}

// Field errors as the server would give them, keyed by path ("acceptanceChecks.1.command").
export function validateTaskForm(
  form: TaskForm,
  version: number,
  defaults: readonly Check[],
): { errors: Map<string, string>; entries: TaskCheckEntry[] | null } {
  const parsed = ZTaskPatch.safeParse({ ...taskPatchFrom(form), version });
  const errors = new Map<string, string>();
  if (!parsed.success)
    for (const issue of toFieldIssues(parsed.error)) if (!errors.has(issue.path)) errors.set(issue.path, issue.message);
  // Replacing a default is a choice made on its row ("Override"), never the side effect of an id typed.
  const defaultIds = new Set(defaults.map((d) => d.id));
  for (const [i, entry] of (form.entries ?? []).entries())
    if (entry.isAdded && defaultIds.has(entry.id.trim()))
      errors.set(
        `acceptanceChecks.${i}.id`,
        `"${entry.id.trim()}" is already one of the Work's checks: to replace it, use "Override" on its row`,
      );
  const entries = parsed.success && errors.size === 0 ? (parsed.data.acceptanceChecks ?? null) : null;
  if (parsed.success)
    for (const i of findUnmatchedSuppressions(defaults, entries))
      errors.set(["acceptanceChecks", ...i.path].join("."), i.message);
  return { errors, entries };
}
