"use client";
// A task's own agent command: empty runs the Work's agent. `picker` is where a control that fills the
// command (a preset picker) sits, next to the label.
import { CodeEditor } from "./code-editor";
import { FieldError } from "./field-parts";

type Props = {
  value: string;
  workCommand: string | null;
  error?: string;
  canEdit: boolean;
  onChange: (value: string) => void;
  picker?: React.ReactNode;
};

export function TaskAgentField({ value, workCommand, error, canEdit, onChange, picker }: Props) {
  const inherits = value.trim() === "";
  return (
    <div data-testid="task-agent">
      <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
        <label htmlFor="task-agent-command" className="text-sm font-semibold">
          Agent command for this task
        </label>
        {picker}
      </div>
      {canEdit ? (
        <CodeEditor
          id="task-agent-command"
          label="Agent command for this task"
          value={value}
          onChange={onChange}
          invalid={!!error}
          describedBy="task-agent-command-hint"
        />
      ) : (
        <textarea
          id="task-agent-command"
          readOnly
          value={value}
          rows={2}
          aria-describedby="task-agent-command-hint"
          className={
            "block w-full rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 font-mono " +
            "text-xs text-zinc-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300"
          }
        />
      )}
      <FieldError id="task-agent-command-error" label="Agent command" error={error} />
      <p id="task-agent-command-hint" className="mt-1 text-xs break-words text-zinc-600 dark:text-zinc-400">
        {inherits
          ? workCommand
            ? `Empty: this task runs the Work's agent (${workCommand}).`
            : "Empty: the Work has no agent either, so a red attempt waits for a person."
          : "This task's own agent replaces the Work's for its runs."}
        {canEdit ? "" : " Choosing a task's agent is a lead's call."}
      </p>
    </div>
  );
}
