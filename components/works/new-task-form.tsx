"use client";
// "New task" on a Work: a title, what it is about, and (optionally) its branch and lane.
import type { ActionResult } from "@/lib/actions/safe-action";
import { Field, inputClass } from "../ui/action-form";
import { TaskLaneField } from "../editors/task-lane-field";
import { DisclosureForm } from "./disclosure-form";

export function NewTaskForm({
  create,
  lanes,
}: {
  create: (state: unknown, form: FormData) => Promise<ActionResult<{ id: string }>>;
  // The Work's lanes (none: no lane picker).
  lanes: { id: string; name: string }[];
}) {
  return (
    <DisclosureForm label="New task" submitLabel="Create task" create={create}>
      {/* Named fields: a refused title, description or branch is said beside it, the field marked and focused. */}
      <Field label="Title" name="title">
        <input name="title" required className={inputClass} placeholder="What is to be done" />
      </Field>
      <Field label="Description" name="description">
        <textarea name="description" rows={3} className={inputClass} placeholder="For the agent: what done means" />
      </Field>
      <Field label="Branch" name="branch" hint="(optional: derived from the key)">
        <input name="branch" className={`${inputClass} font-mono`} />
      </Field>
      {lanes.length > 0 ? (
        <label htmlFor="new-task-lane" className="grid gap-1 text-sm font-medium">
          Lane <span className="font-normal text-zinc-500 dark:text-zinc-400">(starts at its first stage)</span>
          <TaskLaneField id="new-task-lane" name="lane" lanes={lanes} value="" />
        </label>
      ) : null}
    </DisclosureForm>
  );
}
