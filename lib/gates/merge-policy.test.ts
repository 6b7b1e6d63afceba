import { describe, expect, it } from "vitest";
import { parseGatesFile, toGatesMarkdown, toGatesYaml } from "./gates-file";
import { flakyCheckIds, type RanOn } from "./flaky";
import { DEFAULT_MERGE_POLICY, refuseMerge, ZMergePolicy, type LatestRun } from "./merge-policy";

const H = "a".repeat(40);
const accepted: LatestRun = {
  number: 3,
  status: "finished",
  ending: "accepted",
  gate: "green",
  head: H,
  isDirty: false,
};
const policy = DEFAULT_MERGE_POLICY;

describe("refuseMerge", () => {
  it.each([
    ["a branch that does not exist", { latest: accepted, branchHead: null }, /does not exist/],
    [
      "no run",
      { latest: null, branchHead: H },
      /^the task has not been run yet; the Work's merge settings ask for an accepted run with a green gate/,
    ],
    [
      "a run still running",
      { latest: { ...accepted, status: "running", ending: null }, branchHead: H },
      /run #3 is still running/,
    ],
    ["a rejected run", { latest: { ...accepted, ending: "rejected" }, branchHead: H }, /latest run #3 ended rejected/],
    [
      "accepted red (policy warn)",
      { latest: { ...accepted, gate: "red" }, branchHead: H },
      /gate of run #3 is red, not green/,
    ],
    ["accepted with the gate off", { latest: { ...accepted, gate: "off" }, branchHead: H }, /is off, not green/],
    [
      "accepted on uncommitted changes",
      { latest: { ...accepted, isDirty: true }, branchHead: H },
      /uncommitted changes/,
    ],
    [
      "a commit after the run",
      { latest: accepted, branchHead: "b".repeat(40) },
      /^the branch moved since run #3: it is at bbbbbbbbbbbb, the run was accepted at aaaaaaaaaaaa/,
    ],
  ] as const)("refuses %s", (_label, input, reason) => {
    expect(refuseMerge({ policy, branch: "task/x", ...input })).toMatch(reason);
  });

  it("lets a green run at the branch's head through, and anything but a missing branch without \
requireGreenGate", () => {
    expect(refuseMerge({ policy, branch: "x", latest: accepted, branchHead: H })).toBeNull();
    expect(refuseMerge({ policy, branch: "x", latest: accepted })).toBeNull();
    const loose = { ...policy, requireGreenGate: false };
    expect(refuseMerge({ policy: loose, branch: "x", latest: null, branchHead: H })).toBeNull();
    expect(refuseMerge({ policy: loose, branch: "x", latest: null, branchHead: null })).toMatch(/does not exist/);
  });
});

describe("ZMergePolicy", () => {
  it("fills defaults and refuses a method not one of the three, and unknown fields", () => {
    expect(ZMergePolicy.parse({})).toEqual(DEFAULT_MERGE_POLICY);
    const bad = ZMergePolicy.safeParse({ method: "rebase", extra: 1 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual(
      expect.arrayContaining([
        ["method", "must be one of merge, squash, fast-forward"],
        ["", "unknown field: extra"],
      ]),
    );
  });
});

describe("flakyCheckIds", () => {
  const clean: RanOn = { commit: H, isDirty: false };
  it("a pass after a failure on the same clean commit; not across commits, dirty trees or copied rows", () => {
    const failed = (checkId: string, ranOn = clean, isCopy = false) => ({ checkId, ranOn, isCopy });
    expect(
      flakyCheckIds({
        now: clean,
        passed: ["a", "b", "c", "d"],
        earlierFailures: [
          failed("a"),
          failed("a"),
          failed("b", { commit: "c".repeat(40), isDirty: false }),
          failed("c", { commit: H, isDirty: true }),
          failed("d", clean, true),
          failed("e"),
        ],
      }),
    ).toEqual(["a"]);
    expect(flakyCheckIds({ now: { commit: H, isDirty: true }, passed: ["a"], earlierFailures: [failed("a")] })).toEqual(
      [],
    );
    expect(
      flakyCheckIds({
        now: { commit: null, isDirty: false },
        passed: ["a"],
        earlierFailures: [failed("a", { commit: null, isDirty: false })],
      }),
    ).toEqual([]);
  });
});

describe("the merge policy in gates files", () => {
  const checks = [{ id: "unit", name: "Unit", kind: "test" as const, command: "npm test", required: true }];
  const merge = { requireGreenGate: false, autoMerge: true, method: "squash" as const };
  it("YAML and Markdown round-trip it", () => {
    expect(parseGatesFile(toGatesYaml(checks, { merge })).merge).toEqual(merge);
    const md = toGatesMarkdown(checks, { merge });
    expect(md).toContain("## Merge\n\n- require_green_gate: no\n- auto_merge: yes\n- method: squash");
    const read = parseGatesFile(md);
    expect(read.merge).toEqual(merge);
    expect(read.entries.map((e) => e.check?.id)).toEqual(["unit"]);
  });
  it("lists what it cannot take, naming the file's key", () => {
    const read = parseGatesFile("gates:\n  - npm test\nmerge:\n  method: rebase\n  squash: yes\n");
    expect(read.merge).toBeNull();
    expect(read.mergeProblems).toEqual([
      "merge: unknown field: squash (known: require_green_gate, auto_merge, method)",
      "merge: method: must be one of merge, squash, fast-forward",
    ]);
    expect(parseGatesFile("gates:\n  - npm test\n").merge).toBeUndefined();
  });
});
