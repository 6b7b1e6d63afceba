// A run whose gate is green though its agent did not pass (it failed, timed out, errored) is still accepted
// (SPEC: the gate decides), but its ending says so, so a delivery owner never reads a plain "accepted" for an
// agent that gave up — least of all one that changed nothing, whose green says only that the code was green
// before the task.
export type AgentEnding = { verdict: string; exitCode: number | null; isTimedOut: boolean };

export function agentNoteOf(failure: AgentEnding | null, opts: { isUnchanged: boolean }): string | null {
  if (!failure) return null;
  const how = failure.isTimedOut
    ? "ran out of time"
    : failure.exitCode !== null
      ? `exited ${failure.exitCode}`
      : failure.verdict === "error"
        ? "ended in an error"
        : `ended ${failure.verdict}`;
  return opts.isUnchanged
    ? `the agent ${how} and changed nothing: the checks passed on the code as it was before the task`
    : `the agent ${how}; the checks passed on what it left`;
}

// The accepted ending's reason with the note, if any.
export function withAgentNote(reason: string, note: string | null | undefined): string {
  return note ? `${reason}; ${note}` : reason;
}
