"use client";
// The agent step: the command that does the work and the repairs, and the environment it may see.
import type { WorkForm } from "@/lib/editors/work-form";
import { inputBorderClass } from "../ui/action-form";
import { AgentPresetPicker } from "./agent-preset-picker";
import { CodeEditor } from "./code-editor";
import { editorInputClass, FieldError } from "./field-parts";

type Props = { form: WorkForm; onChange: (patch: Partial<WorkForm>) => void; errors: Map<string, string> };

const input = `${editorInputClass} ${inputBorderClass} aria-[invalid=true]:border-rose-500`;

export function AgentFields({ form, onChange, errors }: Props) {
  return (
    <div className="grid max-w-3xl gap-4">
      <div className="sm:col-span-2">
        <label htmlFor="agentCommand" className="mb-1 block text-sm font-semibold">
          Agent command
        </label>
        <AgentPresetPicker command={form.agentCommand} onPick={(agentCommand) => onChange({ agentCommand })} />
        <CodeEditor
          id="agentCommand"
          label="Agent command"
          value={form.agentCommand}
          onChange={(agentCommand) => onChange({ agentCommand })}
          invalid={errors.has("agentCommand")}
        />
        <FieldError id="agentCommand-error" label="Agent command" error={errors.get("agentCommand")} />
        <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          Gets the brief on stdin and in $GATEHOUSE_BRIEF_FILE. Empty: a red attempt waits for a person.
        </p>
      </div>
      <div className="sm:col-span-2">
        <label htmlFor="agentEnvPassthrough" className="mb-1 block text-sm font-semibold">
          Environment the agent may see
        </label>
        <input
          id="agentEnvPassthrough"
          value={form.agentEnvPassthrough}
          placeholder="ANTHROPIC_API_KEY"
          aria-invalid={[...errors.keys()].some((k) => k.startsWith("agentEnvPassthrough"))}
          onChange={(e) => onChange({ agentEnvPassthrough: e.target.value })}
          className={`${input} font-mono`}
        />
        <FieldError
          id="agentEnvPassthrough-error"
          label="Agent environment"
          error={[...errors].find(([k]) => k.startsWith("agentEnvPassthrough"))?.[1]}
        />
      </div>
    </div>
  );
}
