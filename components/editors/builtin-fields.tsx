"use client";
// A built-in check's parameters, one field each (a list one entry per line), each with the schema's
// message for `with.<name>` next to it.
import { BUILTIN_PARAM_FIELDS, BUILTIN_SUMMARY, isBuiltinName } from "@/lib/gates/builtins";
import type { CheckForm } from "@/lib/editors/check-form";
import { inputBorderClass } from "../ui/action-form";
import { editorInputClass as input, FieldError } from "./field-parts";

const PLACEHOLDERS: Record<string, string> = {
  path: "output.json (relative to the results directory)",
  strings: "one text per line",
  count: "300",
  glob: "src/**/*.ts",
  pattern: "console\\.log\\(",
  url: "http://127.0.0.1:3000/health",
  status: "any 2xx",
};

type Props = {
  form: CheckForm;
  onChange: (patch: Partial<CheckForm>) => void;
  errors: Map<string, string>;
  prefix: string;
};

export function BuiltinFields({ form, onChange, errors, prefix }: Props) {
  if (!isBuiltinName(form.use)) return null;
  return (
    <div className="grid gap-3 rounded-md border border-zinc-200 p-3 sm:grid-cols-2 dark:border-zinc-800">
      <p className="text-xs text-zinc-600 sm:col-span-2 dark:text-zinc-400">
        Passes when {BUILTIN_SUMMARY[form.use]}. Gatehouse runs it itself, without a shell.
      </p>
      {BUILTIN_PARAM_FIELDS[form.use].map((field) => {
        const id = `${prefix}-with-${field.name}`;
        const error = errors.get(`with.${field.name}`);
        const common = {
          id,
          value: form.params[field.name] ?? "",
          placeholder: PLACEHOLDERS[field.name],
          "aria-invalid": !!error,
          "aria-describedby": error ? `${id}-error` : undefined,
          className: `${input} font-mono ${error ? "border-rose-500" : inputBorderClass}`,
        };
        const set = (value: string) => onChange({ params: { ...form.params, [field.name]: value } });
        const label = `${field.name}${field.optional ? " (optional)" : ""}`;
        return (
          <div key={field.name} className={field.type === "lines" ? "sm:col-span-2" : ""}>
            <label htmlFor={id} className="mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-400">
              {label}
            </label>
            {field.type === "lines" ? (
              <textarea rows={3} {...common} onChange={(e) => set(e.target.value)} />
            ) : (
              <input {...common} onChange={(e) => set(e.target.value)} />
            )}
            {error ? <FieldError id={`${id}-error`} label={label} error={error} /> : null}
          </div>
        );
      })}
    </div>
  );
}
