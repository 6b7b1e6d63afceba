"use client";
// The Work's results directory: where built-in checks read the work's outputs, and {{results_dir}}.
import { inputBorderClass } from "../ui/action-form";
import { editorInputClass as input, FieldError } from "./field-parts";

export function ResultsDirField({
  value,
  error,
  onChange,
}: {
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="mb-4 max-w-md">
      <label htmlFor="resultsDir" className="mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-400">
        Results directory
      </label>
      <input
        id="resultsDir"
        value={value}
        placeholder="checkout root"
        aria-invalid={!!error}
        aria-describedby={error ? "resultsDir-error" : "resultsDir-hint"}
        onChange={(e) => onChange(e.target.value)}
        className={`${input} font-mono ${error ? "border-rose-500" : inputBorderClass}`}
      />
      {error ? (
        <FieldError id="resultsDir-error" label="Results directory" error={error} />
      ) : (
        <p id="resultsDir-hint" className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          Relative to the checkout. Built-in checks read their paths from here; commands get it as{" "}
          <code>{"{{results_dir}}"}</code> and <code>$GATEHOUSE_RESULTS_DIR</code>.
        </p>
      )}
    </div>
  );
}
