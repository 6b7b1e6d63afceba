// `agentPreset` in a Work's or a task's create/patch body: a shorthand that fills `agentCommand` with the
// preset's command line (lib/gates/agent-presets.ts), then is dropped — only the command is stored and
// runs. An `agentCommand` sent beside it wins (the preset was the starting point it was edited from).
import { AppError } from "../errors";
import { AGENT_PRESET_IDS, agentPresetCommand, type AgentPresetId } from "../gates/agent-presets";

export function expandAgentPreset(input: unknown): unknown {
  if (typeof input !== "object" || input === null || !("agentPreset" in input)) return input;
  const { agentPreset, ...rest } = input as Record<string, unknown>;
  if (typeof agentPreset !== "string" || !(AGENT_PRESET_IDS as readonly string[]).includes(agentPreset)) {
    const message = `must be one of: ${AGENT_PRESET_IDS.join(", ")}`;
    throw new AppError("validation", `agentPreset: ${message}`, [{ path: "agentPreset", message }]);
  }
  if ("agentCommand" in rest || agentPreset === "custom") return rest;
  return { ...rest, agentCommand: agentPresetCommand(agentPreset as AgentPresetId) };
}
