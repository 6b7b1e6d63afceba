import { describe, expect, it } from "vitest";
import { ZDecision } from "./decision-schema";
import { toFieldIssues } from "./field-issues";

const issuesOf = (input: unknown) => {
  const parsed = ZDecision.safeParse(input);
  return parsed.success ? [] : toFieldIssues(parsed.error);
};

describe("ZDecision", () => {
  it("keeps a reason with any choice", () => {
    expect(ZDecision.parse({ choice: "reject", reason: "wrong approach" })).toEqual({
      choice: "reject",
      reason: "wrong approach",
    });
    expect(ZDecision.parse({ choice: "accept" })).toEqual({ choice: "accept" });
  });
  it.each([
    [
      { choice: "reject", reason: "x".repeat(1001) },
      { path: "reason", message: "at most 1000 characters" },
    ],
    [
      { choice: "reject", reason: 3 },
      { path: "reason", message: "must be text" },
    ],
  ])("refuses %j naming the field", (input, issue) => {
    expect(issuesOf(input)).toEqual([issue]);
  });
});
