"use client";
// The Work's proof settings: which files are tests, which files are the gate's own, and whether a change
// without tests or a check that passes without the change decides the gate. Globs one per line.
import { CHECKS_POLICIES } from "@/lib/gates/work-schema";
import { REQUIRE_TESTS_EXPLAINED, VACUOUS_POLICY_EXPLAINED, type WorkForm } from "@/lib/editors/work-form";
import { inputBorderClass } from "../ui/action-form";
import { editorInputClass, FieldError } from "./field-parts";

type Props = { form: WorkForm; onChange: (patch: Partial<WorkForm>) => void; errors: Map<string, string> };

const input = `${editorInputClass} ${inputBorderClass} aria-[invalid=true]:border-rose-500`;

// The first error of a list field, naming the line it is on ("testPatterns.2" is line 3 of the non-blank ones).
export function listError(errors: Map<string, string>, field: string, text: string): string | undefined {
  for (const [path, message] of errors) {
    if (path === field) return message;
    if (path.startsWith(`${field}.`)) {
      const index = Number(path.slice(field.length + 1));
      const line = text.split("\n").filter((l) => l.trim() !== "")[index];
      return `line ${index + 1}${line === undefined ? "" : ` (${line.trim()})`}: ${message}`;
    }
  }
  return undefined;
}

export function GlobList({
  id,
  label,
  hint,
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        rows={Math.min(10, Math.max(4, value.split("\n").length + 1))}
        spellCheck={false}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
        className={`${input} font-mono`}
      />
      {error ? (
        <FieldError id={`${id}-error`} label={label} error={error} />
      ) : (
        <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      )}
    </div>
  );
}

// A select rather than radios: the checks policy above already offers radios named off, warn, required.
function PolicyChoice({
  name,
  legend,
  value,
  explained,
  error,
  onChange,
}: {
  name: string;
  legend: string;
  value: string;
  explained: Record<string, string>;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label htmlFor={name} className="mb-1 block text-sm font-semibold">
        {legend}
      </label>
      <select
        id={name}
        value={value}
        aria-invalid={!!error}
        aria-describedby={`${name}-explained`}
        onChange={(e) => onChange(e.target.value)}
        className={input}
      >
        {CHECKS_POLICIES.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
      <p id={`${name}-explained`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
        {explained[value] ?? ""}
      </p>
      <FieldError id={`${name}-error`} label={legend} error={error} />
    </div>
  );
}

export function ProofFields({ form, onChange, errors }: Props) {
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <div className="space-y-4">
        <GlobList
          id="testPatterns"
          label="Test files"
          hint="Globs, one per line, relative to the checkout root: a change that touches none of these added no test."
          value={form.testPatterns}
          error={listError(errors, "testPatterns", form.testPatterns)}
          onChange={(testPatterns) => onChange({ testPatterns })}
        />
        <PolicyChoice
          name="requireTests"
          legend="Tests must be added"
          value={form.requireTests}
          explained={REQUIRE_TESTS_EXPLAINED}
          error={errors.get("requireTests")}
          onChange={(requireTests) => onChange({ requireTests })}
        />
      </div>
      <div className="space-y-4">
        <GlobList
          id="protectedPaths"
          label="Protected files"
          hint={
            "Globs, one per line: a change that edits one of these (or a script a check runs) is " +
            "never judged by its own gate."
          }
          value={form.protectedPaths}
          error={listError(errors, "protectedPaths", form.protectedPaths)}
          onChange={(protectedPaths) => onChange({ protectedPaths })}
        />
        <PolicyChoice
          name="vacuousPolicy"
          legend="Checks must fail without the change"
          value={form.vacuousPolicy}
          explained={VACUOUS_POLICY_EXPLAINED}
          error={errors.get("vacuousPolicy")}
          onChange={(vacuousPolicy) => onChange({ vacuousPolicy })}
        />
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            checked={form.requireTestSummary}
            onChange={(e) => onChange({ requireTestSummary: e.target.checked })}
            className="mt-0.5 size-4"
          />
          <span>
            A test check must show that tests ran: one that passes with no test summary in its output and no JUnit
            report is hollow (otherwise it only carries a warning)
          </span>
        </label>
      </div>
    </div>
  );
}
