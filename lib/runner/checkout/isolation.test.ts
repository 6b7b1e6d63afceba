// What a task's checkout carries of the Work's repository, looked at from inside it as an agent would, with
// real git: its own branch and the base commit's history only — no `solution` branch, no other task's
// branch, no tag, no commit after the base; not by name (for-each-ref, log --all, show) and not by object id
// (cat-file --batch-all-objects), with no alternates or shared object store to borrow from. visibleRefs
// opens exactly what it names. A commit made in the checkout reaches the task branch in the Work's clone,
// and a later run starts from it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitFiles, gitIn, makeGitRepo, type TestRepo } from "../../testing/git-repo";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../../testing/runner-harness";
import { prepareCheckout, repoDirOf, saveCheckoutBranch, type CheckoutTarget } from "./checkout";
import { withScratchWorktree } from "./scratch";
import { VerifiedStore } from "./verified-store";
import { gitPathsOf } from "./task-repo";

const lines = (text: string) => text.split("\n").filter(Boolean).sort();
const refsIn = (dir: string) => lines(gitIn(dir, "for-each-ref", "--format=%(refname)"));
const allObjects = (dir: string) =>
  lines(gitIn(dir, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)", "--unordered"));
// Every object the checkout's own refs reach (commits, trees, blobs, tags).
const reachable = (dir: string) => lines(gitIn(dir, "rev-list", "--objects", "--all").replace(/ .*$/gm, ""));

describe("a task's checkout", () => {
  let dataDir: string;
  let repo: TestRepo;
  const secret: Record<string, string> = {};
  const target = (taskId: string, branch: string, visibleRefs?: string[]): CheckoutTarget => ({
    dataDir,
    work: { id: "work-iso", repoUrl: repo.dir, baseBranch: "main" },
    task: { id: taskId, branch },
    ...(visibleRefs ? { visibleRefs } : {}),
  });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-isolation-"));
    repo = makeGitRepo({ "src/a.js": "module.exports = () => 'broken';\n", "README.md": "base\n" });
    // The fix on a branch of the repository, tags on it and on the base.
    gitIn(repo.dir, "checkout", "--quiet", "-b", "solution");
    secret.solution = commitFiles(repo.dir, { "src/a.js": "module.exports = () => 'the fix';\n" }, "the fix");
    secret.fixBlob = gitIn(repo.dir, "rev-parse", "solution:src/a.js");
    gitIn(repo.dir, "tag", "release-1");
    gitIn(repo.dir, "checkout", "--quiet", "main");
    gitIn(repo.dir, "tag", "v1.0");
    // Task B works on its branch; its commit reaches the clone.
    const b = await prepareCheckout(target("task-b", "gate-b"));
    secret.otherTask = commitFiles(b.path, { "src/a.js": "module.exports = () => 'b tried';\n" }, "task b");
    await saveCheckoutBranch(target("task-b", "gate-b"));
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    repo.cleanup();
  });

  it("holds its own branch and nothing else, by name or by object id, also when made again after \
the base moved", async () => {
    const a = await prepareCheckout(target("task-a", "gate-a"));
    // The Work's clone does hold all of it (the checkout is filled from there).
    const clone = repoDirOf(dataDir, "work-iso");
    for (const sha of Object.values(secret)) expect(gitIn(clone, "cat-file", "-t", sha)).toMatch(/commit|blob/);

    // The base branch moves on, with a tag; the checkout is lost and made again from the clone.
    secret.afterBase = commitFiles(repo.dir, { "later.txt": "after the base\n" }, "after the base");
    gitIn(repo.dir, "tag", "-a", "v2.0", "-m", "v2");
    await prepareCheckout(target("task-a", "gate-a"));
    fs.rmSync(a.path, { recursive: true, force: true });
    const rebuilt = await prepareCheckout(target("task-a", "gate-a"));
    expect(rebuilt.head).toBe(repo.head);
    expect(gitIn(clone, "cat-file", "-t", secret.afterBase)).toBe("commit");

    {
      const wt = rebuilt.path;
      expect(refsIn(wt)).toEqual(["refs/heads/gate-a"]);
      expect(() => gitIn(wt, "show", "solution:src/a.js")).toThrow();
      expect(() => gitIn(wt, "show", "release-1")).toThrow();
      expect(lines(gitIn(wt, "log", "--all", "--format=%H"))).toEqual([repo.head]);
      const objects = allObjects(wt);
      for (const [what, sha] of Object.entries(secret)) expect(objects, what).not.toContain(sha);
      // Not one object beyond what the branch reaches (nothing for `cat-file -p <id>` to find).
      expect(objects).toEqual(reachable(wt));
      for (const sha of Object.values(secret)) expect(() => gitIn(wt, "cat-file", "-e", sha)).toThrow();
      // Its own object store, no alternates, no remote to fetch the rest from, no shared git dir.
      expect(fs.lstatSync(path.join(wt, ".git")).isDirectory()).toBe(true);
      expect(fs.existsSync(path.join(wt, ".git", "objects", "info", "alternates"))).toBe(false);
      expect(gitIn(wt, "remote")).toBe("");
      expect(gitIn(wt, "rev-parse", "--path-format=absolute", "--git-common-dir")).toBe(
        path.join(fs.realpathSync(wt), ".git"),
      );
      expect(gitPathsOf(wt)).toEqual([]);
    }
  });

  it("visibleRefs opens exactly the matching refs of the repository, and closing it takes them away", async () => {
    const d = await prepareCheckout(target("task-d", "gate-d", ["refs/tags/v*"]));
    expect(refsIn(d.path)).toEqual(["refs/heads/gate-d", "refs/tags/v1.0", "refs/tags/v2.0"]);
    expect(gitIn(d.path, "cat-file", "-t", "refs/tags/v2.0")).toBe("tag");
    expect(() => gitIn(d.path, "show", "release-1")).toThrow();

    // Branches are matched as the repository names them and land as remote branches, as in a clone;
    // the clone's own refs (every task's branch) are never matched, however wide the glob.
    await prepareCheckout(target("task-d", "gate-d", ["refs/heads/*"]));
    expect(refsIn(d.path)).toEqual(["refs/heads/gate-d", "refs/remotes/origin/main", "refs/remotes/origin/solution"]);
    await prepareCheckout(target("task-d", "gate-d", ["refs/heads/gate-*", "refs/**/gate-*"]));
    expect(refsIn(d.path)).toEqual(["refs/heads/gate-d"]);

    await prepareCheckout(target("task-d", "gate-d", ["refs/tags/v1.*"]));
    expect(refsIn(d.path)).toEqual(["refs/heads/gate-d", "refs/tags/v1.0"]);
    await prepareCheckout(target("task-d", "gate-d"));
    expect(refsIn(d.path)).toEqual(["refs/heads/gate-d"]);
  });

  it("a commit made in the checkout reaches the task branch in the Work's clone, rewritten history too", async () => {
    const e = await prepareCheckout(target("task-e", "gate-e"));
    const clone = repoDirOf(dataDir, "work-iso");
    const first = commitFiles(e.path, { "e.txt": "one\n" }, "e one");
    expect(await saveCheckoutBranch(target("task-e", "gate-e"))).toBe(first);
    expect(gitIn(clone, "rev-parse", "refs/heads/gate-e")).toBe(first);
    // The agent amends: the branch is carried as it now stands (forced).
    gitIn(e.path, "commit", "--quiet", "--amend", "-m", "e one, amended");
    const amended = gitIn(e.path, "rev-parse", "HEAD");
    expect(await saveCheckoutBranch(target("task-e", "gate-e"))).toBe(amended);
    expect(gitIn(clone, "rev-parse", "refs/heads/gate-e")).toBe(amended);
    // Nothing else of the checkout's goes with it: a branch of its own stays there.
    gitIn(e.path, "branch", "scratch-idea");
    await saveCheckoutBranch(target("task-e", "gate-e"));
    expect(() => gitIn(clone, "rev-parse", "--verify", "--quiet", "refs/heads/scratch-idea")).toThrow();
  });

  it("refuses to carry a branch out of a checkout whose repository borrows objects from elsewhere", async () => {
    const f = await prepareCheckout(target("task-f", "gate-f"));
    commitFiles(f.path, { "f.txt": "f\n" }, "f");
    const clone = repoDirOf(dataDir, "work-iso");
    fs.writeFileSync(path.join(f.path, ".git", "objects", "info", "alternates"), `${path.join(clone, "objects")}\n`);
    await expect(saveCheckoutBranch(target("task-f", "gate-f"))).rejects.toThrow(/borrows objects from elsewhere/);
    fs.rmSync(path.join(f.path, ".git", "objects", "info", "alternates"));
    // A `.git` replaced by a pointer to the clone is not followed: the checkout is made again, files kept.
    fs.rmSync(path.join(f.path, ".git"), { recursive: true, force: true });
    fs.writeFileSync(path.join(f.path, ".git"), `gitdir: ${clone}\n`);
    await expect(saveCheckoutBranch(target("task-f", "gate-f"))).rejects.toThrow(/not a repository of its own/);
    const again = await prepareCheckout(target("task-f", "gate-f"));
    expect(refsIn(again.path)).toEqual(["refs/heads/gate-f"]);
    expect(fs.readFileSync(path.join(again.path, "f.txt"), "utf8")).toBe("f\n");
    expect(() => gitIn(again.path, "cat-file", "-e", secret.solution)).toThrow();
  });

  it("a worktree of the clone left from before becomes a repository of its own, its commits and \
edits kept", async () => {
    // The layout before: the task's directory is a `git worktree` of the clone, sharing all of its refs.
    const clone = repoDirOf(dataDir, "work-iso");
    const wt = path.join(dataDir, "worktrees", "task-old");
    gitIn(clone, "worktree", "add", "--quiet", "-b", "gate-old", wt, "refs/remotes/origin/main");
    const committed = commitFiles(wt, { "old.txt": "committed\n" }, "old layout commit");
    fs.writeFileSync(path.join(wt, "README.md"), "edited, not committed\n");
    expect(refsIn(wt)).toContain("refs/remotes/origin/solution");

    const converted = await prepareCheckout(target("task-old", "gate-old"));
    expect(converted.head).toBe(committed);
    expect(fs.lstatSync(path.join(wt, ".git")).isDirectory()).toBe(true);
    expect(refsIn(wt)).toEqual(["refs/heads/gate-old"]);
    expect(gitIn(wt, "status", "--porcelain")).toBe("M README.md");
    expect(() => gitIn(wt, "cat-file", "-e", secret.solution)).toThrow();
    // The clone no longer has it registered (it would refuse to update a branch checked out there).
    expect(gitIn(clone, "worktree", "list").split("\n")).toHaveLength(1);
    commitFiles(wt, { "new.txt": "after\n" }, "after the conversion");
    expect(await saveCheckoutBranch(target("task-old", "gate-old"))).toBe(gitIn(wt, "rev-parse", "HEAD"));
  });

  it("gitPathsOf names the task checkout's .git for a scratch worktree of it, and nothing for a \
forged pointer", async () => {
    const g = await prepareCheckout(target("task-g", "gate-g"));
    const dir = path.join(dataDir, "scratch", "iso-g");
    await withScratchWorktree({
      checkoutPath: g.path,
      dir,
      commit: g.head,
      tree: g.head,
      store: VerifiedStore.open({ dir: `${dir}.store`, repoDir: repoDirOf(dataDir, "work-iso"), runAs: null }),
      fn: async ({ dir: scratch }) => {
        expect(gitPathsOf(scratch)).toEqual([path.join(g.path, ".git")]);
        // The scratch worktree sees what the task's checkout has, no more.
        expect(() => gitIn(scratch, "cat-file", "-e", secret.solution)).toThrow();
        const pointer = fs.readFileSync(path.join(scratch, ".git"), "utf8");
        fs.writeFileSync(path.join(scratch, ".git"), `gitdir: ${repoDirOf(dataDir, "work-iso")}\n`);
        expect(gitPathsOf(scratch)).toEqual([]);
        fs.writeFileSync(path.join(scratch, ".git"), pointer);
      },
    });
  });
});

describe("a checkout started from a kept pack (the fast path for a repository with history)", () => {
  let dataDir: string;
  let repo: TestRepo;
  const target = (taskId: string, branch: string): CheckoutTarget => ({
    dataDir,
    work: { id: "work-packs", repoUrl: repo.dir, baseBranch: "main" },
    task: { id: taskId, branch },
  });
  // Enough files that git keeps what a fetch brings as a pack (more than fetch.unpackLimit objects).
  const many = (tag: string) =>
    Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`f/${i}.txt`, `${tag} ${i}\n`]));

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-packs-"));
    repo = makeGitRepo(many("base"));
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    repo.cleanup();
  });

  it("holds the same objects as a full fetch would: the kept pack's commit is in the branch's \
history, and a pack off it is never used", async () => {
    const first = await prepareCheckout(target("task-1", "p-1"));
    const kept = path.join(dataDir, "base-packs", "work-packs", first.head);
    expect(fs.readdirSync(kept).some((f) => f.endsWith(".pack"))).toBe(true);

    // The base moves on, and the fix sits on a branch: the next task starts from the kept pack plus the rest.
    gitIn(repo.dir, "checkout", "--quiet", "-b", "solution");
    const solution = commitFiles(repo.dir, many("the fix"), "the fix");
    gitIn(repo.dir, "checkout", "--quiet", "main");
    const later = commitFiles(repo.dir, { "later.txt": "later\n" }, "later");
    const second = await prepareCheckout(target("task-2", "p-2"));
    expect(second.head).toBe(later);
    const keptPack = fs.readdirSync(kept).find((f) => f.endsWith(".pack"));
    expect(fs.readdirSync(path.join(second.path, ".git", "objects", "pack"))).toContain(keptPack);
    expect(allObjects(second.path)).toEqual(reachable(second.path));
    expect(() => gitIn(second.path, "cat-file", "-e", solution)).toThrow();
    expect(() => gitIn(first.path, "cat-file", "-e", later)).toThrow();

    // The base branch is rewritten (a new root): the kept pack is not in its history and is not used.
    gitIn(repo.dir, "checkout", "--quiet", "--orphan", "rewritten");
    commitFiles(repo.dir, many("rewritten"), "a new root");
    gitIn(repo.dir, "branch", "-M", "rewritten", "main");
    const third = await prepareCheckout(target("task-3", "p-3"));
    expect(allObjects(third.path)).toEqual(reachable(third.path));
    expect(() => gitIn(third.path, "cat-file", "-e", first.head)).toThrow();
    expect(refsIn(third.path)).toEqual(["refs/heads/p-3"]);
  });
});

describe("through a run (an agent step and a check in the checkout)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.cleanup());

  it("the agent and the checks see only the task's branch; its commit is on the task branch and the \
next run starts from it", async () => {
    const repo = makeGitRepo({ "src/a.js": "broken\n" });
    gitIn(repo.dir, "checkout", "--quiet", "-b", "solution");
    const solution = commitFiles(repo.dir, { "src/a.js": "fixed\n" }, "the fix");
    gitIn(repo.dir, "tag", "v1.0");
    gitIn(repo.dir, "checkout", "--quiet", "main");
    const probe = [
      `test "$(git for-each-ref --format='%(refname)')" = "refs/heads/$(git symbolic-ref --short HEAD)"`,
      "! git show solution:src/a.js",
      `! git cat-file -e ${solution}`,
      `! git cat-file --batch-all-objects --batch-check | grep -q ${solution}`,
      `test "$(git log --all --format=%H | sort)" = "$(git log --format=%H HEAD | sort)"`,
    ].join(" && ");
    const s = await makeScenario(
      h,
      {
        agentCommand: `${probe} > /dev/null && echo fixed > src/a.js && git add -A && git commit -qm 'fix it'`,
        checkDefaults: [check("fixed", "grep -q fixed src/a.js"), check("sees-only-its-branch", probe)],
      },
      { repo },
    );
    const first = await dispatchAndSettle(h, s.task.id);
    expect(first.run.ending, first.run.endingReason ?? "").toBe("accepted");
    const committed = gitIn(s.worktree, "rev-parse", "HEAD");
    expect(gitIn(s.worktree, "log", "-1", "--format=%s")).toBe("fix it");
    const clone = repoDirOf(h.dataDir, s.work.id);
    expect(gitIn(clone, "rev-parse", `refs/heads/${s.task.branch}`)).toBe(committed);

    // The checkout is lost; the next run starts from the task branch as the clone keeps it.
    fs.rmSync(s.worktree, { recursive: true, force: true });
    const second = await dispatchAndSettle(h, s.task.id);
    expect(second.run.startCommit).toBe(committed);
    expect(fs.readFileSync(path.join(s.worktree, "src/a.js"), "utf8")).toBe("fixed\n");
  });
});
