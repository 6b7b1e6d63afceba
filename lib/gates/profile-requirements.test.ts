import { describe, expect, it } from "vitest";
import { profileRequirements } from "./profile-requirements";

const base = { hasReview: false, hasRedTeam: false };

describe("profileRequirements", () => {
  it("names the evidence file and the task's criteria under standard", () => {
    const [first] = profileRequirements({ ...base, profile: "standard", criteria: ["smoke"] });
    expect(first).toContain("adds 1 acceptance check (“smoke”)");
    expect(first).toContain(".gatehouse/evidence.md");
    expect(first).toContain("even with every check green");
  });
  it("asks for nothing when the task adds no check", () => {
    expect(profileRequirements({ ...base, profile: "full", criteria: [] })[0]).toContain("no evidence file");
  });
  it("says the rule for any task on the Work's page", () => {
    expect(profileRequirements({ ...base, profile: "standard", criteria: null })[0]).toContain(
      "for every check a task adds",
    );
  });
  it("lists the layers a full profile adds, and nothing under lite", () => {
    expect(profileRequirements({ profile: "full", criteria: ["a"], hasReview: true, hasRedTeam: true })).toHaveLength(
      4,
    );
    expect(profileRequirements({ ...base, profile: "lite", criteria: ["a"] })).toEqual([
      "Profile lite: the checks and the proof rows decide; nothing more is asked.",
    ]);
  });
});
