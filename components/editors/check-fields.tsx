"use client";
// Every field of one check, edited in place, each with the schema's message next to it when it is
// wrong, and a warning when the command cannot fail or proves nothing.
import { BUILTIN_NAMES } from "@/lib/gates/builtins";
import { CHECK_KINDS } from "@/lib/gates/check-kinds";
import { CHECK_EXECUTORS } from "@/lib/gates/check-schema";
import { findCannotFailWarnings } from "@/lib/gates/cannot-fail-checks";
import type { CheckForm } from "@/lib/editors/check-form";
import { inputBorderClass } from "../ui/action-form";
import { BuiltinFields } from "./builtin-fields";
import { CodeEditor } from "./code-editor";
import { editorInputClass as input, FieldError } from "./field-parts";

type Props = {
  form: CheckForm;
  onChange: (patch: Partial<CheckForm>) => void;
  errors: Map<string, string>;
  isIdLocked?: boolean;
  prefix: string;
};

function Field({
  id,
  label,
  error,
  hint,
  children,
  className = "",
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-400">
        {label}
      </label>
      {children}
      {error ? (
        <FieldError id={`${id}-error`} label={label} error={error} />
      ) : hint ? (
        <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{hint}</p>
      ) : null}
    </div>
  );
}

const NO_ERRORS = new Map<string, string>();

export function CheckFields({ form, onChange: change, errors: found, isIdLocked = false, prefix }: Props) {
  // A check just added keeps its problems to itself until something is typed in it (see `isUntouched`).
  const errors = form.isUntouched ? NO_ERRORS : found;
  const onChange = (patch: Partial<CheckForm>) => change({ ...patch, isUntouched: false });
  const text = (
    field: keyof CheckForm,
    label: string,
    opts: { hint?: string; placeholder?: string; className?: string; mono?: boolean } = {},
  ) => {
    const id = `${prefix}-${field}`;
    const error = errors.get(field);
    return (
      <Field id={id} label={label} error={error} hint={opts.hint} className={opts.className}>
        <input
          id={id}
          value={String(form[field])}
          placeholder={opts.placeholder}
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-error` : undefined}
          readOnly={field === "id" && isIdLocked}
          onChange={(e) => onChange({ [field]: e.target.value } as Partial<CheckForm>)}
          className={
            `${input} ${opts.mono ? "font-mono" : ""} ${error ? "border-rose-500" : inputBorderClass} ` +
            `read-only:bg-zinc-50 read-only:text-zinc-500 dark:read-only:bg-zinc-900 ` +
            `dark:read-only:text-zinc-400`
          }
        />
      </Field>
    );
  };
  const isAgent = form.executor === "agent";
  // An agent check's command may be prose for the agent: no shell warnings for it.
  const warnings = isAgent
    ? []
    : findCannotFailWarnings({
        command: form.command,
        required: form.required,
        expectExit: /^\d+$/.test(form.expectExit) ? Number(form.expectExit) : undefined,
        expectStdout: form.expectStdout || undefined,
      });
  const commandId = `${prefix}-command`;
  return (
    <div className="grid gap-3 sm:grid-cols-6">
      {form.isUntouched ? (
        <p className="text-xs text-zinc-600 sm:col-span-6 dark:text-zinc-400">
          A new check: give it a name and what it runs, then save.
        </p>
      ) : null}
      {text("name", "Name", { className: "sm:col-span-3", placeholder: "What passing means, e.g. Unit tests pass" })}
      {text("id", "Id", {
        className: "sm:col-span-2",
        mono: true,
        hint: isIdLocked ? "the default's id (overrides match by id)" : undefined,
      })}
      <Field id={`${prefix}-kind`} label="Kind" error={errors.get("kind")} className="sm:col-span-1">
        <select
          id={`${prefix}-kind`}
          value={form.kind}
          onChange={(e) => onChange({ kind: e.target.value })}
          className={`${input} ${inputBorderClass}`}
        >
          {CHECK_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </Field>
      <Field
        id={`${prefix}-executor`}
        label="Run by"
        error={errors.get("executor")}
        hint={isAgent ? "the agent runs it and reports it in $GATEHOUSE_REPORT_FILE" : undefined}
        className="sm:col-span-3"
      >
        <select
          id={`${prefix}-executor`}
          value={form.executor}
          onChange={(e) => onChange({ executor: e.target.value as CheckForm["executor"] })}
          className={`${input} ${inputBorderClass}`}
        >
          {CHECK_EXECUTORS.map((x) => (
            <option key={x} value={x}>
              {x === "agent" ? "the agent (reported by the agent)" : "Gatehouse (after the agent)"}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${prefix}-use`} label="Runs" error={errors.get("use")} className="sm:col-span-6">
        <select
          id={`${prefix}-use`}
          value={form.use}
          onChange={(e) => onChange({ use: e.target.value })}
          className={`${input} ${inputBorderClass} sm:w-auto`}
        >
          <option value="">a shell command</option>
          {BUILTIN_NAMES.map((name) => (
            <option key={name} value={name}>
              built-in: {name}
            </option>
          ))}
        </select>
      </Field>
      <div className="sm:col-span-3">
        <label className="flex items-center gap-2 text-sm sm:pt-5">
          <input
            id={`${prefix}-hidden`}
            type="checkbox"
            checked={form.hidden}
            aria-invalid={errors.has("hidden")}
            aria-describedby={errors.has("hidden") ? `${prefix}-hidden-error` : undefined}
            onChange={(e) => onChange({ hidden: e.target.checked })}
            className="size-4"
          />
          Held out: the agent never sees it
        </label>
        {errors.has("hidden") ? (
          <FieldError id={`${prefix}-hidden-error`} label="Held out" error={errors.get("hidden")} />
        ) : null}
      </div>
      <div className="sm:col-span-6">
        {form.use ? (
          <BuiltinFields form={form} onChange={onChange} errors={errors} prefix={prefix} />
        ) : (
          <Field id={commandId} label={isAgent ? "Command or instruction" : "Command"} error={errors.get("command")}>
            <CodeEditor
              id={commandId}
              label={isAgent ? "Command or instruction" : "Command"}
              value={form.command}
              onChange={(command) => onChange({ command })}
              invalid={errors.has("command")}
              describedBy={errors.has("command") ? `${commandId}-error` : undefined}
            />
          </Field>
        )}
        {(form.use ? [] : warnings).map((w) => (
          <p
            key={w.reason}
            role="note"
            className={
              "mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs " +
              "text-amber-900 dark:border-amber-700/60 dark:bg-amber-950/50 dark:text-amber-200"
            }
          >
            <strong>This check proves nothing:</strong> {w.reason}. Instead:{" "}
            <code className="font-mono">{w.instead}</code>
          </p>
        ))}
      </div>
      <label className="flex items-center gap-2 text-sm sm:col-span-2">
        <input
          type="checkbox"
          checked={form.required}
          onChange={(e) => onChange({ required: e.target.checked })}
          className="size-4"
        />
        Required (decides the gate)
      </label>
      {text("timeoutSec", "Timeout (seconds)", { className: "sm:col-span-1", placeholder: "600", mono: true })}
      {/* A built-in has no exit code, output, directory or environment of its own: those fields are for commands. */}
      {form.use ? null : (
        <>
          {text("expectExit", "Passing exit code", { className: "sm:col-span-1", placeholder: "0", mono: true })}
          {text("cwd", "Directory", { className: "sm:col-span-2", placeholder: "checkout root", mono: true })}
          {text("expectStdout", "Output must contain", {
            className: "sm:col-span-3",
            placeholder: "(nothing required)",
          })}
          {text("envPassthrough", "Environment it may see", {
            className: "sm:col-span-3",
            placeholder: "NPM_TOKEN, SENTRY_DSN",
            mono: true,
            hint: "names only; values come from the Work's secrets",
          })}
          {text("junit", "JUnit reports", {
            className: "sm:col-span-3",
            placeholder: "reports/**/*.xml",
            mono: true,
            hint: "a glob in the checkout: per-test results from the XML the command writes",
          })}
        </>
      )}
      <Field
        id={`${prefix}-provesChange`}
        label="Must fail without the change"
        error={errors.get("provesChange")}
        className="sm:col-span-3"
      >
        <select
          id={`${prefix}-provesChange`}
          value={form.provesChange}
          onChange={(e) => onChange({ provesChange: e.target.value as CheckForm["provesChange"] })}
          className={`${input} ${inputBorderClass}`}
        >
          <option value="">default (yes for checks a task adds)</option>
          <option value="yes">yes</option>
          <option value="no">no</option>
        </select>
      </Field>
    </div>
  );
}
