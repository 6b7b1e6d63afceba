"use client";
// The Work's merge policy: whether a merge needs a green gate at the branch's head, whether an accepted
// run merges by itself, and how the branch lands (merge commit, squash, fast-forward).
import { MERGE_METHODS } from "@/lib/gates/merge-policy";
import type { WorkForm } from "@/lib/editors/work-form";
import { inputBorderClass } from "../ui/action-form";
import { editorInputClass, FieldError } from "./field-parts";

type Policy = WorkForm["mergePolicy"];
type Props = { value: Policy; errors: Map<string, string>; onChange: (value: Policy) => void };

const METHOD_EXPLAINED: Record<string, string> = {
  merge: "A merge commit on the base branch, with the task's commits as they are.",
  squash: "One new commit on the base branch holding the task's whole change.",
  "fast-forward": "The base branch moves to the task's head; refused when the base has commits the branch lacks.",
};

function Toggle(props: { id: string; label: string; hint: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className="flex items-start gap-2">
      <input
        id={props.id}
        type="checkbox"
        checked={props.checked}
        aria-describedby={`${props.id}-hint`}
        onChange={(e) => props.onChange(e.target.checked)}
        className="mt-1"
      />
      <div>
        <label htmlFor={props.id} className="text-sm font-semibold">
          {props.label}
        </label>
        <p id={`${props.id}-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
          {props.hint}
        </p>
      </div>
    </div>
  );
}

export function MergeFields({ value, errors, onChange }: Props) {
  const methodError = errors.get("mergePolicy.method") ?? errors.get("mergePolicy");
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <div className="space-y-4">
        <Toggle
          id="mergeRequireGreenGate"
          label="Require a green gate"
          hint="Merge only a task whose latest run was accepted with a green gate, at the branch's current head."
          checked={value.requireGreenGate}
          onChange={(requireGreenGate) => onChange({ ...value, requireGreenGate })}
        />
        <Toggle
          id="mergeAutoMerge"
          label="Merge when a run is accepted"
          hint="An accepted run merges its task by itself; a merge that fails is shown on the task."
          checked={value.autoMerge}
          onChange={(autoMerge) => onChange({ ...value, autoMerge })}
        />
      </div>
      <div>
        <label htmlFor="mergeMethod" className="mb-1 block text-sm font-semibold">
          Merge method
        </label>
        <select
          id="mergeMethod"
          value={value.method}
          aria-invalid={!!methodError}
          aria-describedby="mergeMethod-explained"
          onChange={(e) => onChange({ ...value, method: e.target.value })}
          className={`${editorInputClass} ${inputBorderClass}`}
        >
          {MERGE_METHODS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <p id="mergeMethod-explained" className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {METHOD_EXPLAINED[value.method] ?? ""}
        </p>
        <FieldError id="mergeMethod-error" label="Merge method" error={methodError} />
      </div>
    </div>
  );
}
