"use client";
// The Work's verification profile (which layers run after the checks) and the review command.
import { PROFILES } from "@/lib/gates/work-schema";
import { PROFILE_EXPLAINED, type WorkForm } from "@/lib/editors/work-form";
import { inputBorderClass } from "../ui/action-form";
import { CodeEditor } from "./code-editor";
import { editorInputClass, FieldError } from "./field-parts";

type Props = { form: WorkForm; onChange: (patch: Partial<WorkForm>) => void; errors: Map<string, string> };

const input = `${editorInputClass} ${inputBorderClass} aria-[invalid=true]:border-rose-500`;

function CommandField({
  id,
  label,
  hint,
  form,
  onChange,
  errors,
}: Props & { id: "redTeamCommand" | "redTeamTestCommand"; label: string; hint: string }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      <CodeEditor
        id={id}
        label={label}
        value={form[id]}
        onChange={(value) => onChange({ [id]: value })}
        invalid={errors.has(id)}
      />
      <FieldError id={`${id}-error`} label={label} error={errors.get(id)} />
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{hint}</p>
    </div>
  );
}

export function ProfileFields({ form, onChange, errors }: Props) {
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <div>
        <label htmlFor="profile" className="mb-1 block text-sm font-semibold">
          Profile
        </label>
        <select
          id="profile"
          value={form.profile}
          aria-invalid={errors.has("profile")}
          aria-describedby="profile-explained"
          onChange={(e) => onChange({ profile: e.target.value })}
          className={input}
        >
          {PROFILES.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
        <p id="profile-explained" className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {PROFILE_EXPLAINED[form.profile] ?? ""}
        </p>
        <FieldError id="profile-error" label="Profile" error={errors.get("profile")} />
      </div>
      <div>
        <label htmlFor="reviewCommand" className="mb-1 block text-sm font-semibold">
          Review command
        </label>
        <CodeEditor
          id="reviewCommand"
          label="Review command"
          value={form.reviewCommand}
          onChange={(reviewCommand) => onChange({ reviewCommand })}
          invalid={errors.has("reviewCommand")}
        />
        <FieldError id="reviewCommand-error" label="Review command" error={errors.get("reviewCommand")} />
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          Standard and full: after a green gate it gets the review brief on stdin and in $GATEHOUSE_BRIEF_FILE and
          writes its report to $GATEHOUSE_REPORT_FILE. Empty: no review.
        </p>
      </div>
      <CommandField
        id="redTeamCommand"
        label="Red-team command"
        hint={
          "Full: after the review, gets a brief (what changed, what the checks cover) and writes " +
          "probes under tests/redteam/."
        }
        form={form}
        onChange={onChange}
        errors={errors}
      />
      <CommandField
        id="redTeamTestCommand"
        label="Red-team test command"
        hint='Runs each probe, named by $GATEHOUSE_PROBE (for example: node --test "$GATEHOUSE_PROBE").'
        form={form}
        onChange={onChange}
        errors={errors}
      />
      <div>
        <label htmlFor="mutationCommand" className="mb-1 block text-sm font-semibold">
          Mutation command
        </label>
        <CodeEditor
          id="mutationCommand"
          label="Mutation command"
          value={form.mutationCommand}
          onChange={(mutationCommand) => onChange({ mutationCommand })}
          invalid={errors.has("mutationCommand")}
        />
        <FieldError id="mutationCommand-error" label="Mutation command" error={errors.get("mutationCommand")} />
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          Full, for a tool other than Stryker: mutates the files in $GATEHOUSE_MUTATE_FILES (one a line). Empty:
          Stryker, when the repository commits a configuration with thresholds.break.
        </p>
      </div>
      <div>
        <label htmlFor="mutationReport" className="mb-1 block text-sm font-semibold">
          Mutation report
        </label>
        <input
          id="mutationReport"
          value={form.mutationReport}
          placeholder="reports/mutation/mutation.json"
          aria-invalid={errors.has("mutationReport")}
          aria-describedby="mutationReport-hint"
          onChange={(e) => onChange({ mutationReport: e.target.value })}
          className={`${input} font-mono`}
        />
        <FieldError id="mutationReport-error" label="Mutation report" error={errors.get("mutationReport")} />
        <p id="mutationReport-hint" className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          Where the mutation command writes its mutation-testing JSON report, relative to the checkout.
        </p>
      </div>
    </div>
  );
}
