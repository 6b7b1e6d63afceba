import { describe, expect, it } from "vitest";
import { agentNoteOf, withAgentNote } from "./agent-note";

describe("the agent note on an accepted ending", () => {
  it("says how the agent ended, and whether the checks passed on its change or on the code as it was", () => {
    const failed = { verdict: "failed", exitCode: 2, isTimedOut: false };
    expect(agentNoteOf(failed, { isUnchanged: true })).toBe(
      "the agent exited 2 and changed nothing: the checks passed on the code as it was before the task",
    );
    expect(agentNoteOf(failed, { isUnchanged: false })).toBe("the agent exited 2; the checks passed on what it left");
    expect(agentNoteOf({ verdict: "timeout", exitCode: null, isTimedOut: true }, { isUnchanged: false })).toBe(
      "the agent ran out of time; the checks passed on what it left",
    );
    expect(agentNoteOf({ verdict: "error", exitCode: null, isTimedOut: false }, { isUnchanged: true })).toMatch(
      /^the agent ended in an error and changed nothing/,
    );
    expect(agentNoteOf(null, { isUnchanged: true })).toBeNull();
  });

  it("is added to the reason only when there is one", () => {
    expect(withAgentNote("gate green on attempt 1", null)).toBe("gate green on attempt 1");
    expect(withAgentNote("gate green on attempt 1", "the agent exited 1; x")).toBe(
      "gate green on attempt 1; the agent exited 1; x",
    );
  });
});
