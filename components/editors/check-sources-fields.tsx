"use client";
// The Work's check sources: repositories of check code cloned after the agent step, at the commit their
// ref has when a run starts, read-only to checks as $GATEHOUSE_CHECKS_DIR/<name> or {{checks_dir}}/<name>.
import { MAX_CHECK_SOURCES } from "@/lib/gates/check-sources";
import type { CheckSourceForm } from "@/lib/editors/work-form";
import { inputBorderClass } from "../ui/action-form";
import { Button } from "../ui/button";
import { editorInputClass, FieldError } from "./field-parts";

type Props = {
  forms: CheckSourceForm[];
  secretNames: readonly string[];
  errors: Map<string, string>;
  onChange: (forms: CheckSourceForm[]) => void;
};

const input = `${editorInputClass} ${inputBorderClass} aria-[invalid=true]:border-rose-500`;
const FIELDS = [
  { field: "name", label: "Folder name", placeholder: "gate-scripts", mono: true },
  { field: "url", label: "Repository", placeholder: "https://git.example.com/team/gate-scripts.git", mono: true },
  { field: "ref", label: "Branch, tag or commit", placeholder: "main", mono: true },
] as const;

let counter = 0;
const newKey = () => `new-source-${++counter}`;

function SourceRow({
  form,
  index,
  secretNames,
  errors,
  onChange,
  onRemove,
}: {
  form: CheckSourceForm;
  index: number;
  secretNames: readonly string[];
  errors: Map<string, string>;
  onChange: (patch: Partial<CheckSourceForm>) => void;
  onRemove: () => void;
}) {
  const id = (field: string) => `${form.key}-${field}`;
  const errorOf = (field: string) => errors.get(`checkSources.${index}.${field}`);
  const secretError = errorOf("secret");
  const secrets = form.secret && !secretNames.includes(form.secret) ? [...secretNames, form.secret] : secretNames;
  return (
    <li
      aria-label={`Check source ${index + 1}: ${form.name || "new"}`}
      className="rounded-lg border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 break-all font-mono text-sm font-semibold">
          {form.name ? (
            `{{checks_dir}}/${form.name}`
          ) : (
            <span className="font-sans text-zinc-500 dark:text-zinc-400">New check source</span>
          )}
        </span>
        <Button
          size="sm"
          variant="danger"
          aria-label={`Remove check source ${form.name || index + 1}`}
          onClick={onRemove}
        >
          Remove
        </Button>
      </div>
      <div
        className={
          "grid gap-3 md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)] " +
          "lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]"
        }
      >
        {FIELDS.map(({ field, label, placeholder }) => {
          const error = errorOf(field);
          return (
            <div key={field} className="min-w-0">
              <label htmlFor={id(field)} className="mb-1 block text-sm font-semibold">
                {label}
              </label>
              <input
                id={id(field)}
                value={form[field]}
                placeholder={placeholder}
                spellCheck={false}
                autoComplete="off"
                aria-invalid={!!error}
                aria-describedby={error ? `${id(field)}-error` : undefined}
                onChange={(e) => onChange({ [field]: e.target.value })}
                className={`${input} font-mono`}
              />
              <FieldError id={`${id(field)}-error`} label={label} error={error} />
            </div>
          );
        })}
        <div className="min-w-0">
          <label htmlFor={id("secret")} className="mb-1 block text-sm font-semibold">
            Credential
          </label>
          <select
            id={id("secret")}
            value={form.secret}
            aria-invalid={!!secretError}
            aria-describedby={secretError ? `${id("secret")}-error` : undefined}
            onChange={(e) => onChange({ secret: e.target.value })}
            className={input}
          >
            <option value="">none (public)</option>
            {secrets.map((name) => (
              <option key={name} value={name}>
                {secretNames.includes(name) ? name : `${name} (no such secret)`}
              </option>
            ))}
          </select>
          <FieldError id={`${id("secret")}-error`} label="Credential" error={secretError} />
        </div>
      </div>
    </li>
  );
}

export function CheckSourcesFields({ forms, secretNames, errors, onChange }: Props) {
  const listError = errors.get("checkSources");
  const update = (i: number, patch: Partial<CheckSourceForm>) =>
    onChange(forms.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  return (
    <div className="space-y-3">
      {listError ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          Check sources: {listError}
        </p>
      ) : null}
      {forms.length > 0 ? (
        <ol className="space-y-3" aria-label="Check sources">
          {forms.map((form, i) => (
            <SourceRow
              key={form.key}
              form={form}
              index={i}
              secretNames={secretNames}
              errors={errors}
              onChange={(patch) => update(i, patch)}
              onRemove={() => onChange(forms.filter((_, j) => j !== i))}
            />
          ))}
        </ol>
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No check sources: every check runs from the task&apos;s own checkout, which the agent can edit.
        </p>
      )}
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Cloned fresh after the agent&apos;s step at the commit the ref had when the run started, read-only, outside the
        checkout. A check runs one as <code className="font-mono">bash {"{{checks_dir}}"}/NAME/run.sh</code> or{" "}
        <code className="font-mono">&quot;$GATEHOUSE_CHECKS_DIR/NAME/run.sh&quot;</code>. A credential (one of the
        Work&apos;s secrets, for https:// repositories) is given to git alone, never to a check.
      </p>
      <Button
        onClick={() => onChange([...forms, { key: newKey(), name: "", url: "", ref: "main", secret: "" }])}
        disabled={forms.length >= MAX_CHECK_SOURCES}
      >
        + Add a source
      </Button>
    </div>
  );
}
