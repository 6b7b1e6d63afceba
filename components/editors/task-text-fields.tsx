"use client";
// A task's title and description in the task editor: what the task is called on every page, and what the
// agent's brief says it is about. Each field's error (the schema's, as the server gives it) is beside it.
import { inputBorderClass } from "../ui/input-classes";
import { editorInputClass, FieldError } from "./field-parts";

type Props = {
  title: string;
  description: string;
  errors: Map<string, string>;
  onChange: (patch: { title?: string; description?: string }) => void;
};

const input = `${editorInputClass} ${inputBorderClass} aria-[invalid=true]:border-rose-500`;

export function TaskTextFields({ title, description, errors, onChange }: Props) {
  return (
    <div className="grid max-w-3xl gap-4">
      <div>
        <label htmlFor="title" className="mb-1 block text-sm font-semibold">
          Title
        </label>
        <input
          id="title"
          value={title}
          aria-invalid={errors.has("title")}
          aria-describedby={errors.has("title") ? "title-error" : undefined}
          onChange={(e) => onChange({ title: e.target.value })}
          className={input}
        />
        <FieldError id="title-error" label="Title" error={errors.get("title")} />
      </div>
      <div>
        <label htmlFor="description" className="mb-1 block text-sm font-semibold">
          Description
        </label>
        <textarea
          id="description"
          value={description}
          rows={5}
          aria-invalid={errors.has("description")}
          aria-describedby={`description-help${errors.has("description") ? " description-error" : ""}`}
          onChange={(e) => onChange({ description: e.target.value })}
          className={input}
        />
        <FieldError id="description-error" label="Description" error={errors.get("description")} />
        <p id="description-help" className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          For the agent: what done means. Each attempt&apos;s brief gives the title and description as they are then.
        </p>
      </div>
    </div>
  );
}
