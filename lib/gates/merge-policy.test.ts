import { describe, expect, it } from "vitest";
import { parseGatesFile, toGatesMarkdown, toGatesYaml } from "./gates-file";
import { flakyCheckIds, type RanOn } from "./flaky";
import { DEFAULT_MERGE_POLICY, isMergedAtHead, refuseMerge, ZMergePolicy, type LatestRun } from "./merge-policy";

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

describe("isMergedAtHead", () => {
  const at = new Date("2026-03-04T05:06:07Z");
  const before = new Date("2026-03-04T05:00:00Z");
  const after = new Date("2026-03-04T06:00:00Z");
  const B = "b".repeat(40);
  it.each([
    ["never merged", { merged: null, branchHead: H, latestRunAt: before }, false],
    [
      "merged, the branch still at the merged commit",
      { merged: { head: H, at }, branchHead: H, latestRunAt: before },
      true,
    ],
    ["merged, a commit on the branch since", { merged: { head: H, at }, branchHead: B, latestRunAt: before }, false],
    ["merged, a run since on the same commit", { merged: { head: H, at }, branchHead: H, latestRunAt: after }, true],
    ["merged, a run since on a new commit", { merged: { head: H, at }, branchHead: B, latestRunAt: after }, false],
    ["merged, the head not known here", { merged: { head: H, at }, latestRunAt: before }, true],
    ["merged, the branch gone since", { merged: { head: H, at }, branchHead: null, latestRunAt: before }, false],
    [
      "merged before heads were kept, no run since",
      { merged: { head: null, at }, branchHead: B, latestRunAt: before },
      true,
    ],
    [
      "merged before heads were kept, a run since",
      { merged: { head: null, at }, branchHead: B, latestRunAt: after },
      false,
    ],
    ["merged before heads were kept, never run", { merged: { head: null, at }, latestRunAt: null }, true],
  ] as const)("%s → %s", (_label, input, expected) => {
    expect(isMergedAtHead(input)).toBe(expected);
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
