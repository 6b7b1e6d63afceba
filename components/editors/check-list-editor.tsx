"use client";
// A Work's check defaults as an editable list: each check's fields in place, and add, duplicate,
// delete, move up and down (buttons, so the keyboard can do it all).
import { emptyForm, errorsOfEntry, freeId, newKey, type CheckForm } from "@/lib/editors/check-form";
import { Button } from "../ui/button";
import { ChevronDownIcon } from "../ui/icons";
import { CheckFields } from "./check-fields";

type Props = {
  forms: CheckForm[];
  onChange: (forms: CheckForm[]) => void;
  errors: Map<string, string>;
  listError?: string;
  // What the list is (a stage's checks, the Work's defaults).
  label?: string;
};

export function CheckListEditor({ forms, onChange, errors, listError, label = "Check defaults" }: Props) {
  const update = (i: number, patch: Partial<CheckForm>) =>
    onChange(forms.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  const move = (i: number, by: -1 | 1) => {
    const next = [...forms];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    onChange(next);
  };
  return (
    <div className="space-y-3">
      {listError ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          {listError}
        </p>
      ) : null}
      <ol className="space-y-3" aria-label={label}>
        {forms.map((form, i) => (
          <li
            key={form.key}
            aria-label={`Check ${i + 1}: ${form.name || form.id}`}
            className="rounded-lg border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
          >
            <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
              <span className="min-w-0 text-sm font-semibold [overflow-wrap:anywhere]">
                <span className="mr-2 text-zinc-500 tabular-nums dark:text-zinc-400">{i + 1}</span>
                {form.name || <span className="text-zinc-500 dark:text-zinc-400">New check</span>}
              </span>
              <span className="flex flex-wrap gap-1">
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Move ${form.id} up`}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                >
                  <ChevronDownIcon className="rotate-180" />
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Move ${form.id} down`}
                  disabled={i === forms.length - 1}
                  onClick={() => move(i, 1)}
                >
                  <ChevronDownIcon />
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() =>
                    onChange([
                      ...forms.slice(0, i + 1),
                      {
                        ...form,
                        key: newKey(),
                        id: freeId(
                          form.id,
                          forms.map((f) => f.id),
                        ),
                        name: `${form.name} (copy)`.slice(0, 120),
                      },
                      ...forms.slice(i + 1),
                    ])
                  }
                >
                  Duplicate
                </Button>
                <Button size="sm" variant="danger" onClick={() => onChange(forms.filter((_, j) => j !== i))}>
                  Delete
                </Button>
              </span>
            </div>
            <CheckFields
              form={form}
              prefix={`check-${form.key}`}
              errors={errorsOfEntry(errors, i)}
              onChange={(patch) => update(i, patch)}
            />
          </li>
        ))}
      </ol>
      <Button
        onClick={() =>
          onChange([
            ...forms,
            emptyForm(
              freeId(
                "check",
                forms.map((f) => f.id),
              ),
            ),
          ])
        }
        disabled={forms.length >= 20}
      >
        + Add a check
      </Button>
      {forms.length >= 20 ? (
        <span className="ml-3 text-sm text-zinc-500 dark:text-zinc-400">A list holds at most 20 checks.</span>
      ) : null}
    </div>
  );
}
