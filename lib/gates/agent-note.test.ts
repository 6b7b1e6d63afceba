import { describe, expect, it } from "vitest";
import { agentCaveatOf, agentNoteOf as noteOf, withAgentNote, type AgentEnding } from "./agent-note";

// The note's words (its caveat is asserted on its own below).
const agentNoteOf = (failure: AgentEnding | null, opts: Parameters<typeof noteOf>[1]) =>
  noteOf(failure, opts)?.text ?? null;

describe("the agent note on an accepted ending", () => {
  it("says how the agent ended, and whether the checks passed on its change or on the code as it was", () => {
    const failed = { verdict: "failed", exitCode: 2, isTimedOut: false };
    const passed = { checksPassed: true };
    expect(agentNoteOf(failed, { isUnchanged: true, ...passed })).toBe(
      "the agent exited 2 and changed nothing: the checks passed on the code as it was before the task",
    );
    expect(agentNoteOf(failed, { isUnchanged: false, ...passed })).toBe(
      "the agent exited 2; the checks passed on what it left",
    );
    const timedOut = { verdict: "timeout", exitCode: null, isTimedOut: true };
    expect(agentNoteOf(timedOut, { isUnchanged: false, ...passed })).toBe(
      "the agent ran out of time; the checks passed on what it left",
    );
    expect(
      agentNoteOf({ verdict: "error", exitCode: null, isTimedOut: false }, { isUnchanged: true, ...passed }),
    ).toMatch(/^the agent ended in an error and changed nothing/);
    expect(
      agentNoteOf({ verdict: "failed", exitCode: null, isTimedOut: false }, { isUnchanged: false, ...passed }),
    ).toBe("the agent was stopped with no exit code; the checks passed on what it left");
    expect(agentNoteOf(null, { isUnchanged: true, ...passed })).toBeNull();
  });

  it("claims no passed checks where none passed: policy warn's red, nothing required, policy off", () => {
    const failed = { verdict: "failed", exitCode: 1, isTimedOut: false };
    expect(agentNoteOf(failed, { isUnchanged: false, checksPassed: false })).toBe("the agent exited 1");
    expect(agentNoteOf(failed, { isUnchanged: true, checksPassed: false })).toBe(
      "the agent exited 1 and changed nothing",
    );
    expect(agentNoteOf(failed, { isUnchanged: null, checksPassed: false })).toBe("the agent exited 1");
  });

  it("is added to the reason only when there is one", () => {
    expect(withAgentNote("gate green on attempt 1", null)).toBe("gate green on attempt 1");
    expect(withAgentNote("gate green on attempt 1", { text: "the agent exited 1; x", caveat: "agent-failed" })).toBe(
      "gate green on attempt 1; the agent exited 1; x",
    );
  });

  it("carries a caveat a list can show: failed, or failed and changed nothing (not known counts as changed)", () => {
    const failed = { verdict: "failed", exitCode: 1, isTimedOut: false };
    const caveatOf = (isUnchanged: boolean | null, checksPassed: boolean) =>
      noteOf(failed, { isUnchanged, checksPassed })?.caveat;
    expect(caveatOf(true, true)).toBe("agent-failed-no-change");
    expect(caveatOf(true, false)).toBe("agent-failed-no-change");
    expect(caveatOf(false, true)).toBe("agent-failed");
    expect(caveatOf(null, false)).toBe("agent-failed");
    expect(noteOf(null, { isUnchanged: true, checksPassed: true })).toBeNull();
  });

  it("reads a stored caveat back, and nothing else", () => {
    expect(agentCaveatOf("agent-failed")).toBe("agent-failed");
    expect(agentCaveatOf("agent-failed-no-change")).toBe("agent-failed-no-change");
    for (const other of [null, undefined, "", "failed", "Agent failed"]) expect(agentCaveatOf(other)).toBeNull();
  });
});
