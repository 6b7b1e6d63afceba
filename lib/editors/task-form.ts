// The task overrides editor's working copy: the task's entries (null = inherit untouched) and attempts.
import type { Check, TaskCheckEntry } from "../gates/check-schema";
import { ZTaskPatch } from "../gates/work-schema";
import { toFieldIssues } from "../gates/field-issues";
import { findUnmatchedSuppressions } from "../gates/merge-checks";
import { checkFromForm, formFromCheck, type CheckForm } from "./check-form";

export type TaskSettings = {
  acceptanceChecks: TaskCheckEntry[] | null;
  maxGateAttempts: number | null;
  version: number;
};
export type TaskForm = { entries: CheckForm[] | null; maxGateAttempts: string };

export function taskFormFrom(s: TaskSettings): TaskForm {
  return {
    entries: s.acceptanceChecks === null ? null : s.acceptanceChecks.map((e) => formFromCheck(e)),
    maxGateAttempts: s.maxGateAttempts === null ? "inherit" : String(s.maxGateAttempts),
  };
}

export function taskPatchFrom(form: TaskForm): { acceptanceChecks: unknown[] | null; maxGateAttempts: number | null } {
  return {
    acceptanceChecks: form.entries === null ? null : form.entries.map(checkFromForm),
    maxGateAttempts: form.maxGateAttempts === "inherit" ? null : Number(form.maxGateAttempts),
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
  const entries = parsed.success ? (parsed.data.acceptanceChecks ?? null) : null;
  if (parsed.success)
    for (const i of findUnmatchedSuppressions(defaults, entries))
      errors.set(["acceptanceChecks", ...i.path].join("."), i.message);
  return { errors, entries };
}
