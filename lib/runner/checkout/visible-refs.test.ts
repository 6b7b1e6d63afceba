// Which refs of the Work's repository visibleRefs opens (pure), and where the setting is read from.
import { describe, expect, it } from "vitest";
import { isManagedCheckoutRef, selectVisibleRefs, visibleRefsOf } from "./visible-refs";

const CLONE_REFS = [
  "refs/heads/gate-1", // a task's branch, the clone's own
  "refs/heads/main", // the clone's copy from `clone --bare`
  "refs/remotes/origin/HEAD",
  "refs/remotes/origin/main",
  "refs/remotes/origin/solution",
  "refs/remotes/origin/release/1.x",
  "refs/tags/v1.0",
  "refs/tags/v2.0",
  "refs/tags/release-1",
  "refs/tags/nested/v3",
];
const opened = (globs: string[]) => selectVisibleRefs(globs, CLONE_REFS).map((r) => r.checkout);

describe("selectVisibleRefs", () => {
  it.each([
    { globs: [], want: [] },
    { globs: ["refs/tags/v*"], want: ["refs/tags/v1.0", "refs/tags/v2.0"] },
    {
      globs: ["refs/tags/**"],
      want: ["refs/tags/nested/v3", "refs/tags/release-1", "refs/tags/v1.0", "refs/tags/v2.0"],
    },
    { globs: ["refs/tags/v1.0"], want: ["refs/tags/v1.0"] },
    { globs: ["refs/heads/release/*"], want: ["refs/remotes/origin/release/1.x"] },
    { globs: ["refs/heads/*"], want: ["refs/remotes/origin/main", "refs/remotes/origin/solution"] },
    // The clone's own refs (every task's branch) and origin/HEAD are never matched, however wide the glob.
    { globs: ["refs/heads/gate-*", "refs/remotes/**", "**/gate-1"], want: [] },
    {
      globs: ["refs/**"],
      want: [
        "refs/remotes/origin/main",
        "refs/remotes/origin/release/1.x",
        "refs/remotes/origin/solution",
        "refs/tags/nested/v3",
        "refs/tags/release-1",
        "refs/tags/v1.0",
        "refs/tags/v2.0",
      ],
    },
  ])("$globs opens $want", ({ globs, want }) => {
    expect(opened(globs)).toEqual(want);
  });

  it("a branch is fetched from the clone's remote branch, named as the repository names it", () => {
    expect(selectVisibleRefs(["refs/heads/solution"], CLONE_REFS)).toEqual([
      { name: "refs/heads/solution", clone: "refs/remotes/origin/solution", checkout: "refs/remotes/origin/solution" },
    ]);
  });

  it("the checkout's tags and remote branches are the platform's; its local branches are not", () => {
    expect(isManagedCheckoutRef("refs/tags/v1")).toBe(true);
    expect(isManagedCheckoutRef("refs/remotes/origin/main")).toBe(true);
    expect(isManagedCheckoutRef("refs/heads/gate-1")).toBe(false);
  });
});

describe("visibleRefsOf", () => {
  it("reads the run's frozen copy first, then the Work's, and is [] when neither has one", () => {
    expect(visibleRefsOf({ visibleRefs: ["refs/tags/v*"] }, { visibleRefs: ["refs/heads/*"] })).toEqual([
      "refs/tags/v*",
    ]);
    expect(visibleRefsOf({ id: "run" }, { visibleRefs: ["refs/heads/*"] })).toEqual(["refs/heads/*"]);
    expect(visibleRefsOf({ id: "run" }, { id: "work" })).toEqual([]);
    expect(visibleRefsOf(null, undefined)).toEqual([]);
    // Anything but strings in the list is not a glob.
    expect(visibleRefsOf({ visibleRefs: ["refs/tags/v*", 3, null] })).toEqual(["refs/tags/v*"]);
  });
});
