// A run accepted though its agent did not pass (it failed, timed out, errored) — the gate decides (SPEC) —
// says so in its ending, so a delivery owner never reads a plain "accepted" for an agent that gave up; least of
// all one that changed nothing, whose green says only that the code was green before the task. The checks are
// said to have passed only when they did: a green gate with a required check passed (not under policy warn's
// red, nor a gate with nothing required, nor policy off, where none ran).
export type AgentEnding = { verdict: string; exitCode: number | null; isTimedOut: boolean };

// What the run records beside its reason (Run.agentCaveat), so a list can flag such a run without reading
// its reason: the agent did not pass, and (the worse) it did not change the code either.
const AGENT_CAVEATS = ["agent-failed", "agent-failed-no-change"] as const;
export type AgentCaveat = (typeof AGENT_CAVEATS)[number];
export type AgentNote = { text: string; caveat: AgentCaveat };

export const AGENT_CAVEAT_LABELS: Record<AgentCaveat, string> = {
  "agent-failed": "Agent failed",
  "agent-failed-no-change": "Agent failed, no change",
};

// A stored value read back: anything but a known caveat is none.
export function agentCaveatOf(value: string | null | undefined): AgentCaveat | null {
  return (AGENT_CAVEATS as readonly (string | null | undefined)[]).includes(value) ? (value as AgentCaveat) : null;
}

export function agentNoteOf(
  failure: AgentEnding | null,
  // isUnchanged null: not known (policy off reads no checkout state).
  opts: { isUnchanged: boolean | null; checksPassed: boolean },
): AgentNote | null {
  if (!failure) return null;
  const caveat: AgentCaveat = opts.isUnchanged ? "agent-failed-no-change" : "agent-failed";
  return { text: noteText(failure, opts), caveat };
}

function noteText(failure: AgentEnding, opts: { isUnchanged: boolean | null; checksPassed: boolean }): string {
  const how = failure.isTimedOut
    ? "ran out of time"
    : failure.exitCode !== null
      ? `exited ${failure.exitCode}`
      : failure.verdict === "error"
        ? "ended in an error"
        : "was stopped with no exit code";
  if (!opts.checksPassed) return `the agent ${how}${opts.isUnchanged ? " and changed nothing" : ""}`;
  return opts.isUnchanged
    ? `the agent ${how} and changed nothing: the checks passed on the code as it was before the task`
    : `the agent ${how}; the checks passed on what it left`;
}

// The accepted ending's reason with the note, if any.
export function withAgentNote(reason: string, note: AgentNote | null | undefined): string {
  return note ? `${reason}; ${note.text}` : reason;
}
