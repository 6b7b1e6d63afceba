import { describe, expect, it } from "vitest";
import { flakyTestKeys } from "./flaky";

describe("flakyTestKeys", () => {
  const clean = { commit: "abc", isDirty: false };
  it.each([
    ["failed earlier on the same clean commit, passed now", clean, false, ["a"]],
    ["the earlier run was on another commit", { commit: "def", isDirty: false }, false, []],
    ["the earlier run was on uncommitted changes", { commit: "abc", isDirty: true }, false, []],
    ["the earlier row was a copy (no change since)", clean, true, []],
  ])("%s", (_, ranOn, isCopy, want) => {
    expect(
      flakyTestKeys({
        now: clean,
        passedKeys: ["a", "b"],
        earlierFailures: [{ failedKeys: ["a", "c"], ranOn, isCopy }],
      }),
    ).toEqual(want);
  });
  it("a run on uncommitted changes now is no witness either", () => {
    const now = { commit: "abc", isDirty: true };
    expect(
      flakyTestKeys({ now, passedKeys: ["a"], earlierFailures: [{ failedKeys: ["a"], ranOn: clean, isCopy: false }] }),
    ).toEqual([]);
  });
});
