"use client";
// Picks an agent CLI's usual non-interactive command line (lib/gates/agent-presets.ts) for an agent
// command field: choosing a preset fills the command, which stays editable; "Custom" leaves it as it is.
// Self-contained, so the Work and task editors each wire it beside their own command field.
import { useId } from "react";
import { AGENT_PRESETS, presetOfCommand, type AgentPresetId } from "@/lib/gates/agent-presets";
import { inputBaseClass, inputBorderClass } from "../ui/action-form";

export function AgentPresetPicker({
  command,
  onPick,
  disabled,
}: {
  command: string;
  onPick: (command: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const current = presetOfCommand(command);
  const preset = AGENT_PRESETS.find((p) => p.id === current);
  return (
    <div className="mb-2 flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="text-sm">
        Preset
      </label>
      <select
        id={id}
        value={current ?? ""}
        disabled={disabled}
        aria-describedby={preset ? `${id}-note` : undefined}
        onChange={(e) => {
          const picked = AGENT_PRESETS.find((p) => p.id === (e.target.value as AgentPresetId));
          if (picked && picked.id !== "custom") onPick(picked.command);
        }}
        className={`${inputBaseClass} ${inputBorderClass} px-2 py-1`}
      >
        <option value="" disabled>
          None (no agent)
        </option>
        {AGENT_PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </select>
      {preset ? (
        <p id={`${id}-note`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {preset.note}
          {preset.env.length > 0 ? ` Needs ${preset.env.join(" or ")} in the environment it may see.` : ""}
        </p>
      ) : null}
    </div>
  );
}
