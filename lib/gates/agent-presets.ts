// Agent presets: the usual non-interactive command line of each coding-agent CLI, with the brief on stdin
// (or read from $GATEHOUSE_BRIEF_FILE) and, where the CLI has one, its machine-readable result on stdout
// so the agent step can show the session's last message, turns, tokens and cost (lib/gates/agent-result.ts).
// A preset only fills the command: the command stays what runs, editable like any other.
export const AGENT_PRESETS = [
  {
    id: "claude-code",
    label: "Claude Code",
    // --allowedTools rather than --dangerously-skip-permissions: the latter is refused when run as root.
    command: 'claude -p --output-format json --allowedTools "Bash Edit Write Read Glob Grep"',
    env: ["ANTHROPIC_API_KEY"],
    note:
      "npm i -g @anthropic-ai/claude-code; the brief is the prompt (stdin); its JSON result " +
      "gives turns, tokens and cost.",
  },
  {
    id: "codex",
    label: "Codex CLI",
    command: "codex exec --json --full-auto --skip-git-repo-check -",
    env: ["OPENAI_API_KEY"],
    note: "npm i -g @openai/codex; `-` reads the brief from stdin; --json events give turns and tokens.",
  },
  {
    id: "gemini",
    label: "Gemini CLI",
    command: 'gemini --yolo --output-format json --prompt "$(cat "$GATEHOUSE_BRIEF_FILE")"',
    env: ["GEMINI_API_KEY"],
    note: "npm i -g @google/gemini-cli; its JSON output gives the answer and tokens.",
  },
  {
    id: "aider",
    label: "Aider",
    command: 'aider --yes-always --no-check-update --message-file "$GATEHOUSE_BRIEF_FILE"',
    env: ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"],
    note: "pip install aider-chat; it commits its changes itself.",
  },
  {
    id: "custom",
    label: "Custom",
    command: "",
    env: [],
    note: "Any command: the brief is on stdin and in $GATEHOUSE_BRIEF_FILE; exit 0 when it is done.",
  },
] as const;

export type AgentPresetId = (typeof AGENT_PRESETS)[number]["id"];
export const AGENT_PRESET_IDS = AGENT_PRESETS.map((p) => p.id) as [AgentPresetId, ...AgentPresetId[]];

export function agentPresetCommand(id: AgentPresetId): string {
  return AGENT_PRESETS.find((p) => p.id === id)!.command;
}

// The preset whose command this is (custom when it is none of them; null when there is no command).
export function presetOfCommand(command: string | null | undefined): AgentPresetId | null {
  if (!command?.trim()) return null;
  return AGENT_PRESETS.find((p) => p.command && p.command === command.trim())?.id ?? "custom";
}
