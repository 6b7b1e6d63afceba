// Checkouts against real git: one bare clone per Work, one checkout (a repository of its own) per task on
// its own branch (from the base branch when new), commits that stay on the task branch, errors that name
// the git problem, and cwd resolution that refuses to leave the checkout. What a checkout does NOT carry
// (other branches, tags, later commits) is tested in isolation.test.ts.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callUnprivileged } from "../../testing/unprivileged-call";
import { commitFiles, gitIn, makeGitRepo, type TestRepo } from "../../testing/git-repo";
import { describeAsRoot } from "../../testing/needs-root";
import { watchLaunches } from "../process/spawner";
import {
  checkoutFingerprint,
  checkoutFingerprintSince,
  checkoutState,
  clonedHeadBranch,
  forgetNewConfigListing,
  MAINTAIN_EVERY,
  prepareCheckout,
  repoDirOf,
  resolveInsideCheckout,
  saveCheckoutBranch,
  worktreeDirOf,
  writtenIndexOf,
  type CheckoutTarget,
} from "./checkout";

let dataDir: string;
let repo: TestRepo;
const work = () => ({ id: "work-1", repoUrl: repo.dir, baseBranch: "main" });

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-checkout-"));
  repo = makeGitRepo({ "README.md": "base\n", "src/app.txt": "v1\n" });
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  repo.cleanup();
});

function target(taskId: string, branch: string, w = work()): CheckoutTarget {
  return { dataDir, work: w, task: { id: taskId, branch } };
}

const branchOf = (dir: string) => gitIn(dir, "rev-parse", "--abbrev-ref", "HEAD");

// The listing of a new checkout's config (the one Gatehouse writes) made once in this process, as by any
// earlier run: the counts of git processes below are those of every run after the process's first.
const listNewConfigOnce = async () => checkoutState((await prepareCheckout(target("task-listed", "gate-listed"))).path);

describe("prepareCheckout", () => {
  it("clones the Work's repository once (bare), and a second prepare reuses the clone", async () => {
    const first = await prepareCheckout(target("task-a", "gate-1"));
    const repoDir = repoDirOf(dataDir, "work-1");
    expect(gitIn(repoDir, "rev-parse", "--is-bare-repository")).toBe("true");
    // Mark the clone: a re-clone would replace the directory and lose the mark.
    const mark = path.join(repoDir, "gatehouse-test-mark");
    fs.writeFileSync(mark, "still the first clone\n");
    const inode = fs.statSync(repoDir).ino;

    const second = await prepareCheckout(target("task-a", "gate-1"));
    const third = await prepareCheckout(target("task-b", "gate-2"));
    expect(fs.readFileSync(mark, "utf8")).toBe("still the first clone\n");
    expect(fs.statSync(repoDir).ino).toBe(inode);
    expect(second.path).toBe(first.path);
    expect(third.path).not.toBe(first.path);
    // One clone, and beside the clones the packs new checkouts start from (task-repo.ts, base-packs.ts).
    expect(fs.readdirSync(path.join(dataDir, "repos")).filter((n) => !n.startsWith("."))).toEqual(["work-1.git"]);
    expect(fs.readdirSync(path.join(dataDir, "base-packs"))).toEqual(["work-1"]);
  });

  it("gives each task its own worktree on its own branch, created from the base branch", async () => {
    const a = await prepareCheckout(target("task-a", "gate-1"));
    const b = await prepareCheckout(target("task-b", "gate-2"));
    expect(a.path).toBe(worktreeDirOf(dataDir, "task-a"));
    expect(b.path).toBe(worktreeDirOf(dataDir, "task-b"));
    expect(branchOf(a.path)).toBe("gate-1");
    expect(branchOf(b.path)).toBe("gate-2");
    expect(a.head).toBe(repo.head);
    expect(b.head).toBe(repo.head);
    expect(a.baseBranch).toBe("main");
    expect(fs.readFileSync(path.join(a.path, "src/app.txt"), "utf8")).toBe("v1\n");
    // The source repository is untouched: no task branches were pushed into it.
    expect(gitIn(repo.dir, "branch", "--format=%(refname:short)")).toBe("main");
  });

  it("a commit made in a task's checkout stays on its branch across prepares, and once saved even \
if the checkout directory is lost", async () => {
    const a = await prepareCheckout(target("task-a", "gate-1"));
    const fixed = commitFiles(a.path, { "src/app.txt": "v2 fixed\n" }, "fix on gate-1");

    const again = await prepareCheckout(target("task-a", "gate-1"));
    expect(again.head).toBe(fixed);
    expect(branchOf(again.path)).toBe("gate-1");

    // After an attempt the runner carries the branch into the clone, where landing reads it.
    expect(await saveCheckoutBranch(target("task-a", "gate-1"))).toBe(fixed);
    expect(gitIn(repoDirOf(dataDir, "work-1"), "rev-parse", "refs/heads/gate-1")).toBe(fixed);

    // The directory is wiped (disk cleanup, a crash): the checkout is made again from the saved branch.
    fs.rmSync(a.path, { recursive: true, force: true });
    const rebuilt = await prepareCheckout(target("task-a", "gate-1"));
    expect(rebuilt.path).toBe(a.path);
    expect(rebuilt.head).toBe(fixed);
    expect(fs.readFileSync(path.join(rebuilt.path, "src/app.txt"), "utf8")).toBe("v2 fixed\n");

    // Uncommitted work survives a prepare too (the agent's edits between attempts).
    fs.writeFileSync(path.join(rebuilt.path, "scratch.txt"), "not committed\n");
    await prepareCheckout(target("task-a", "gate-1"));
    expect(fs.readFileSync(path.join(rebuilt.path, "scratch.txt"), "utf8")).toBe("not committed\n");
    fs.rmSync(path.join(rebuilt.path, "scratch.txt"));
  });

  it("two tasks never share a worktree: one task's commits do not appear in the other's", async () => {
    const a = await prepareCheckout(target("task-a", "gate-1"));
    const b = await prepareCheckout(target("task-b", "gate-2"));
    expect(a.path).not.toBe(b.path);
    commitFiles(b.path, { "only-b.txt": "b\n" }, "b's work");
    const a2 = await prepareCheckout(target("task-a", "gate-1"));
    expect(fs.existsSync(path.join(a2.path, "only-b.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(a2.path, "src/app.txt"), "utf8")).toBe("v2 fixed\n");
    expect(fs.readFileSync(path.join(b.path, "src/app.txt"), "utf8")).toBe("v1\n");
    expect(gitIn(b.path, "log", "--format=%s", "-1")).toBe("b's work");
  });

  it("a new task branches from the base branch as it stands in the repository now", async () => {
    const advanced = commitFiles(repo.dir, { "src/app.txt": "v3 upstream\n" }, "upstream moves on");
    const c = await prepareCheckout(target("task-c", "gate-3"));
    expect(c.head).toBe(advanced);
    expect(branchOf(c.path)).toBe("gate-3");
    // Existing task branches are not moved by it.
    const a = await prepareCheckout(target("task-a", "gate-1"));
    expect(fs.readFileSync(path.join(a.path, "src/app.txt"), "utf8")).toBe("v2 fixed\n");
  });

  it("uses the repository's HEAD branch when the Work has no base branch", async () => {
    const trunkRepo = makeGitRepo({ "x.txt": "x\n" }, "trunk");
    try {
      const c = await prepareCheckout({
        dataDir,
        work: { id: "work-trunk", repoUrl: trunkRepo.dir, baseBranch: null },
        task: { id: "task-t", branch: "gate-9" },
      });
      expect(c.baseBranch).toBe("trunk");
      expect(c.head).toBe(trunkRepo.head);
    } finally {
      trunkRepo.cleanup();
    }
  });

  it("an unclonable repoUrl is an error naming the git problem, and leaves nothing half-made", async () => {
    const missing = path.join(os.tmpdir(), `gatehouse-no-such-repo-${process.pid}-${Date.now()}`);
    const error = await prepareCheckout({
      dataDir,
      work: { id: "work-bad", repoUrl: missing, baseBranch: "main" },
      task: { id: "task-x", branch: "gate-1" },
    }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error).not.toBeNull();
    expect(error!.name).toBe("GitError");
    expect(error!.message).toContain(`could not clone ${missing}`);
    expect(error!.message).toMatch(/does not exist|not a git repository|not found/i);
    expect(fs.existsSync(repoDirOf(dataDir, "work-bad"))).toBe(false);
    expect(fs.readdirSync(path.join(dataDir, "repos")).filter((n) => n.includes("work-bad"))).toEqual([]);

    // A directory that is not a repository.
    const notRepo = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-not-a-repo-"));
    try {
      await expect(
        prepareCheckout({
          dataDir,
          work: { id: "work-bad2", repoUrl: notRepo, baseBranch: "main" },
          task: { id: "task-y", branch: "gate-1" },
        }),
      ).rejects.toThrow(
        /could not clone .*(does not exist|not a git repository|does not appear to be a git repository)/i,
      );
    } finally {
      fs.rmSync(notRepo, { recursive: true, force: true });
    }
  });

  it("a base branch missing from the repository is an error naming it", async () => {
    await expect(
      prepareCheckout(target("task-d", "gate-4", { id: "work-1", repoUrl: repo.dir, baseBranch: "no-such-branch" })),
    ).rejects.toThrow(/base branch "no-such-branch" does not exist/);
  });

  describe("a repository of 1,500 files (writing them takes far longer than a checkout's turn at the clone)", () => {
    let big: TestRepo;
    const w = () => ({ id: "work-big", repoUrl: big.dir, baseBranch: "main" });
    beforeAll(() => {
      big = makeGitRepo(Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`src/f${i}.txt`, `${i}\n`])));
    });
    afterAll(() => big.cleanup());
    // The git commands of a checkout, in the order they ended, each with when it started and ended: the task
    // branch looked up and set in the clone (under the Work's lock), and the files written (after it).
    const watchSteps = () => {
      const timed: { step: string; start: number; end: number }[] = [];
      const unwatch = watchLaunches(({ file, args }, ms) => {
        const end = performance.now();
        const at = (step: string) => timed.push({ step, start: end - ms, end });
        if (path.basename(file) !== "git") return;
        if (args.includes("for-each-ref") && args.includes("refs/remotes/origin/main")) at("look-up");
        if (args.includes("update-ref") && args.some((a) => a.startsWith("refs/heads/big-"))) at("branch");
        if (args.includes("reset") && args.includes("--hard")) at("write");
      });
      return { timed, unwatch };
    };
    const fileOf = (c: { path: string }) => fs.readFileSync(path.join(c.path, "src/f1499.txt"), "utf8");

    it("new checkouts of one Work write their files side by side, after their turns at the clone", async () => {
      const { timed, unwatch } = watchSteps();
      try {
        const made = await Promise.all(
          ["b1", "b2"].map((id) => prepareCheckout(target(`task-${id}`, `big-${id}`, w()))),
        );
        expect(made.map(fileOf)).toEqual(["1499\n", "1499\n"]);
        const of = (step: string) => timed.filter((t) => t.step === step);
        const [lookUps, branches, writes] = [of("look-up"), of("branch"), of("write")];
        expect([lookUps.length, branches.length, writes.length]).toEqual([2, 2, 2]);
        // The turns at the clone, one after the other: the second looked up only after the first set its branch.
        expect(lookUps[1].start).toBeGreaterThanOrEqual(branches[0].end);
        // Each checkout's files were written after the turns had begun…
        expect(Math.min(...writes.map((t) => t.start))).toBeGreaterThanOrEqual(branches[0].end);
        // …and not under the clone's lock: the second's turn began before the first's files were all written
        // (had the writing held the lock, it would have begun only once they were). Order, not speed, decides.
        expect(lookUps[1].start).toBeLessThan(Math.min(...writes.map((t) => t.end)));
      } finally {
        unwatch();
      }
    });

    it("two prepares of one task at once make one checkout: the second takes up the first's", async () => {
      const { timed, unwatch } = watchSteps();
      try {
        const [first, second] = await Promise.all([1, 2].map(() => prepareCheckout(target("task-b3", "big-b3", w()))));
        expect(second.path).toBe(first.path);
        expect(fileOf(second)).toBe("1499\n");
        expect(timed.map((t) => t.step)).toEqual(["look-up", "branch", "write"]);
      } finally {
        unwatch();
      }
    });
  });

  it("concurrent prepares of one Work's tasks are serialised and all succeed", async () => {
    const done = await Promise.all(
      ["p1", "p2", "p3", "p4"].map((id, i) => prepareCheckout(target(`task-${id}`, `par-${i}`))),
    );
    expect(new Set(done.map((c) => c.path)).size).toBe(4);
    for (const [i, c] of done.entries()) expect(branchOf(c.path)).toBe(`par-${i}`);
  });

  it("prepares asked for together share one fetch of the clone; one asked for after a push fetches again", async () => {
    let fetches = 0;
    const unwatch = watchLaunches(({ file, args }) => {
      if (path.basename(file) === "git" && args.includes("fetch") && args.includes("origin")) fetches++;
    });
    try {
      const together = await Promise.all(
        ["f1", "f2", "f3"].map((id, i) => prepareCheckout(target(`task-${id}`, `fetch-${i}`))),
      );
      expect(fetches).toBe(1);
      const pushed = commitFiles(repo.dir, { "src/app.txt": "v4 upstream\n" }, "upstream moves again");
      expect(together.every((c) => c.head !== pushed)).toBe(true);
      const later = await prepareCheckout(target("task-f4", "fetch-3"));
      expect(fetches).toBe(2);
      expect(later.head).toBe(pushed);
    } finally {
      unwatch();
    }
  });

  it("git's automatic maintenance follows a clone's first fetch and then one fetch in MAINTAIN_EVERY, \
not each", async () => {
    const w = { id: "work-maintained", repoUrl: repo.dir, baseBranch: "main" };
    const maintained: boolean[] = [];
    const unwatch = watchLaunches(({ file, args }) => {
      if (path.basename(file) === "git" && args.includes("fetch") && args.includes("origin"))
        maintained.push(!args.includes("--no-auto-maintenance"));
    });
    try {
      for (let i = 0; i <= MAINTAIN_EVERY; i++) await prepareCheckout(target(`task-mt${i}`, `mt-${i}`, w));
    } finally {
      unwatch();
    }
    // The first prepare clones (the clone's own fetch, maintained); each later one fetches.
    expect(maintained.length).toBe(MAINTAIN_EVERY + 1);
    expect(maintained.flatMap((isMaintained, i) => (isMaintained ? [i] : []))).toEqual([0, MAINTAIN_EVERY]);
  });

  it("a checkout of a Work whose repository moved comes from the new one, right after a fetch of the old", async () => {
    const moved = makeGitRepo({ "README.md": "moved\n" });
    try {
      const before = { id: "work-moved", repoUrl: repo.dir, baseBranch: "main" };
      const after = { ...before, repoUrl: moved.dir };
      await prepareCheckout(target("task-m1", "moved-1", before));
      const [old, fresh] = await Promise.all([
        prepareCheckout(target("task-m2", "moved-2", before)),
        prepareCheckout(target("task-m3", "moved-3", after)),
      ]);
      expect(fs.readFileSync(path.join(old.path, "README.md"), "utf8")).toBe("base\n");
      expect(fresh.head).toBe(gitIn(moved.dir, "rev-parse", "main"));
      expect(fs.readFileSync(path.join(fresh.path, "README.md"), "utf8")).toBe("moved\n");
    } finally {
      moved.cleanup();
    }
  });

  it("the checkout fingerprint changes with any content change (tracked or untracked) and not otherwise", async () => {
    const c = await prepareCheckout(target("task-fp", "gate-fp"));
    const before = await checkoutFingerprint(c.path);
    expect(await checkoutFingerprint(c.path)).toBe(before);
    fs.writeFileSync(path.join(c.path, "new-file.txt"), "untracked\n");
    const withNew = await checkoutFingerprint(c.path);
    expect(withNew).not.toBe(before);
    // The worktree's own index is left alone: the new file is still untracked.
    expect(gitIn(c.path, "status", "--porcelain")).toBe("?? new-file.txt");
    fs.rmSync(path.join(c.path, "new-file.txt"));
    expect(await checkoutFingerprint(c.path)).toBe(before);
  });

  it("a checkout's config is listed by git unless it is still the one Gatehouse wrote, which git lists once in \
the process; a filter the config names is switched off either way", async () => {
    await listNewConfigOnce();
    const c = await prepareCheckout(target("task-config", "gate-config"));
    const configFile = path.join(c.path, ".git", "config");
    const written = fs.readFileSync(configFile, "utf8");
    // The config listings one state of the checkout takes, and that state.
    const count = async () => {
      let n = 0;
      const unwatch = watchLaunches(({ file, args }) => {
        if (path.basename(file) === "git" && args.includes("config") && args.includes("--list")) n++;
      });
      try {
        const state = await checkoutState(c.path);
        return { n, state };
      } finally {
        unwatch();
      }
    };
    expect((await count()).n).toBe(0);
    const marker = path.join(c.path, "filter-ran");
    try {
      // The agent's config (no longer than Gatehouse's) names a filter for every file: it is listed (each time)
      // and its program never runs.
      fs.writeFileSync(path.join(c.path, ".gitattributes"), "* filter=agent\n");
      const core = written.slice(0, written.indexOf("[user]"));
      fs.writeFileSync(configFile, `${core}[filter "agent"]\n\tclean = touch filter-ran; cat\n`);
      expect(fs.statSync(configFile).size).toBeLessThanOrEqual(written.length);
      const changed = await count();
      expect(changed.n).toBe(1);
      expect((await count()).n).toBe(1);
      expect(fs.existsSync(marker)).toBe(false);
      expect(changed.state.isDirty).toBe(true);
      // The same bytes again: known without git.
      fs.writeFileSync(configFile, written);
      fs.rmSync(path.join(c.path, ".gitattributes"));
      const again = await count();
      expect(again.n).toBe(0);
      expect(again.state.isDirty).toBe(false);
    } finally {
      fs.writeFileSync(configFile, written);
      fs.rmSync(path.join(c.path, ".gitattributes"), { force: true });
    }
  });

  it("the first states of checkouts read at once (a worker's first runs) share one listing of Gatehouse's \
config", async () => {
    const made = await Promise.all(
      ["a", "b", "c"].map((k) => prepareCheckout(target(`task-first-${k}`, `gate-first-${k}`))),
    );
    forgetNewConfigListing();
    let listings = 0;
    const unwatch = watchLaunches(({ file, args }) => {
      if (path.basename(file) === "git" && args.includes("config") && args.includes("--list")) listings++;
    });
    try {
      const states = await Promise.all(made.map((c) => checkoutState(c.path)));
      expect(states.map((s) => s.isDirty)).toEqual([false, false, false]);
      expect(listings).toBe(1);
    } finally {
      unwatch();
    }
  });

  // The fingerprint reads HEAD's tree and the submodule entries from the index git just wrote (index-file.ts)
  // instead of asking git again (an index it cannot read is asked of git: index-file.test.ts).
  it("the state of a checkout takes three git processes: read-tree, add, write-tree", async () => {
    await listNewConfigOnce();
    const c = await prepareCheckout(target("task-state", "gate-state"));
    const started: string[] = [];
    const unwatch = watchLaunches(({ file, args }) => {
      if (path.basename(file) === "git") started.push(args.find((a) => !a.startsWith("-")) ?? "");
    });
    const edit = () => fs.writeFileSync(path.join(c.path, "README.md"), "edited\n");
    const undo = () => fs.writeFileSync(path.join(c.path, "README.md"), "base\n");
    try {
      const clean = await checkoutState(c.path);
      expect(clean.isDirty).toBe(false);
      expect(started).toEqual(["read-tree", "add", "write-tree"]);
      edit();
      expect((await checkoutState(c.path)).isDirty).toBe(true);
      undo();
      const again = await checkoutState(c.path);
      expect({ tree: again.tree, isDirty: again.isDirty }).toEqual({ tree: clean.tree, isDirty: false });
    } finally {
      unwatch();
      undo();
    }
  });

  // A new checkout's first state starts from the index `reset --hard` wrote (Checkout's `written`) instead of
  // from `read-tree HEAD`: every file there is HEAD's, as git wrote it a moment before.
  it("a new checkout comes with the index git wrote: its state starts from it (add, write-tree) and is the state \
read from HEAD; a checkout already there, or one whose commit has a .gitattributes, comes without", async () => {
    await listNewConfigOnce();
    const c = await prepareCheckout(target("task-written", "gate-written"));
    expect(c.written).not.toBeNull();
    const started: string[] = [];
    const unwatch = watchLaunches(({ file, args }) => {
      if (path.basename(file) === "git") started.push(args.find((a) => !a.startsWith("-")) ?? "");
    });
    let state: Awaited<ReturnType<typeof checkoutState>>;
    try {
      state = await checkoutState(c.path, { keepIndex: true, written: c.written });
    } finally {
      unwatch();
    }
    expect(started).toEqual(["add", "write-tree"]);
    expect(state.isDirty).toBe(false);
    expect(state.tree).toBe(gitIn(c.path, "rev-parse", "HEAD^{tree}"));
    expect(state.index).not.toBeNull();
    expect((await prepareCheckout(target("task-written", "gate-written"))).written).toBeNull();

    const attributed = makeGitRepo({ "README.md": "base\n", ".gitattributes": "*.txt text eol=crlf\n" });
    try {
      const w = { id: "work-attributes", repoUrl: attributed.dir, baseBranch: "main" };
      expect((await prepareCheckout(target("task-attributes", "gate-attributes", w))).written).toBeNull();
    } finally {
      attributed.cleanup();
    }
  });

  // A tree listing one file twice (made with `mktree`/`hash-object --literally`; nothing checks a pushed tree):
  // reset's cache-tree holds HEAD's ids unchecked, so a fingerprint that kept it would call it clean; read
  // from the entries, as after `read-tree HEAD` and `add`, it is changed.
  it("a new checkout of a malformed tree (an entry twice) is changed from its index as from HEAD", async () => {
    const odd = makeGitRepo({ "README.md": "base\n" });
    try {
      const blob = (text: string) =>
        execFileSync("git", ["hash-object", "-w", "--stdin"], { cwd: odd.dir, input: text, encoding: "utf8" }).trim();
      const listing = `100644 blob ${blob("exit 1\n")}\tcheck.sh\n100644 blob ${blob("exit 0\n")}\tcheck.sh\n`;
      const tree = execFileSync("git", ["mktree", "--missing"], {
        cwd: odd.dir,
        input: listing,
        encoding: "utf8",
      }).trim();
      const commit = gitIn(
        odd.dir,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t.invalid",
        "commit-tree",
        "-m",
        "odd",
        tree,
      );
      gitIn(odd.dir, "update-ref", "refs/heads/main", commit);
      const w = { id: "work-malformed", repoUrl: odd.dir, baseBranch: "main" };
      const c = await prepareCheckout(target("task-malformed", "gate-malformed", w));
      expect(c.written).not.toBeNull();
      const fromWritten = await checkoutState(c.path, { keepIndex: true, written: c.written });
      const fromHead = await checkoutState(c.path);
      expect(fromHead.isDirty).toBe(true);
      expect({ tree: fromWritten.tree, isDirty: fromWritten.isDirty }).toEqual({ tree: fromHead.tree, isDirty: true });
      // The sharp case: an index whose entries are all older than it, so none is marked to be read again and
      // only the cache-tree reset primed from HEAD's trees could answer for them (the files aged, the index
      // refreshed a second later).
      for (const name of fs.readdirSync(c.path).filter((n) => n !== ".git")) age(path.join(c.path, name));
      await nextSecondAfter(Date.now());
      gitIn(c.path, "update-index", "-q", "--refresh");
      const refreshed = writtenIndexOf(c.path);
      expect(refreshed).not.toBeNull();
      const fromRefreshed = await checkoutState(c.path, { keepIndex: true, written: refreshed });
      expect({ tree: fromRefreshed.tree, isDirty: fromRefreshed.isDirty }).toEqual({
        tree: fromHead.tree,
        isDirty: true,
      });
    } finally {
      odd.cleanup();
    }
  });

  it("from the index git wrote, a file rewritten right after the checkout was made, its size and modification \
time kept, is read again", async () => {
    const c = await prepareCheckout(target("task-written-rewrite", "gate-written-rewrite"));
    const file = path.join(c.path, "README.md");
    const original = fs.readFileSync(file, "utf8");
    const rewritten = original.replace(/^./, "Z");
    const before = fs.statSync(file, { bigint: true });
    fs.writeFileSync(file, rewritten);
    fs.utimesSync(file, new Date(Number(before.atimeNs / 1_000_000n)), new Date(Number(before.mtimeNs / 1_000_000n)));
    const state = await checkoutState(c.path, { keepIndex: true, written: c.written });
    expect(state.isDirty).toBe(true);
    expect(state.tree).toBe(await checkoutFingerprint(c.path));
  });

  // The file rewritten in place with other text of the same length, its modification time put back: only
  // its change time (which no unprivileged process sets) says it changed.
  // Written an hour ago: older than any index git writes now, so git has no reason of its own (a file as new
  // as the index) to read it again.
  const age = (file: string) => execFileSync("touch", ["-d", `@${Math.floor(Date.now() / 1000) - 3600}`, file]);
  const nextSecondAfter = async (ms: number) => {
    while (Math.floor(Date.now() / 1000) <= Math.floor(ms / 1000)) await new Promise((r) => setTimeout(r, 10));
  };
  const rewriteKeepingDetails = (file: string, text: string) => {
    const before = fs.statSync(file, { bigint: true });
    expect(BigInt(Buffer.byteLength(text))).toBe(before.size);
    const times = `${file}.times`;
    execFileSync("touch", ["-r", file, times]);
    fs.writeFileSync(file, text);
    execFileSync("touch", ["-r", times, file]);
    fs.rmSync(times);
    const after = fs.statSync(file, { bigint: true });
    expect(after.mtimeNs).toBe(before.mtimeNs);
    expect(after.ino).toBe(before.ino);
  };

  it("after the checks, the fingerprint from the index kept before them takes two git processes and sees a \
file rewritten with its size and modification time kept", async () => {
    await listNewConfigOnce();
    const c = await prepareCheckout(target("task-since", "gate-since"));
    const file = path.join(c.path, "README.md");
    const original = fs.readFileSync(file, "utf8");
    age(file);
    const state = await checkoutState(c.path, { keepIndex: true });
    expect(state.index).not.toBeNull();
    const started: string[] = [];
    const unwatch = watchLaunches(({ file, args }) => {
      if (path.basename(file) === "git") started.push(args.find((a) => !a.startsWith("-")) ?? "");
    });
    try {
      expect(await checkoutFingerprintSince(c.path, state.index!)).toBe(state.tree);
      expect(started).toEqual(["add", "write-tree"]);
      rewriteKeepingDetails(file, original.replace(/./, "X"));
      const edited = await checkoutFingerprintSince(c.path, state.index!);
      expect(edited).not.toBe(state.tree);
      // The same tree `read-tree HEAD` and reading every file give.
      expect(edited).toBe(await checkoutFingerprint(c.path));
    } finally {
      unwatch();
      fs.writeFileSync(file, original);
    }
  });

  it("the checkout's config cannot make git trust a file's saved details: change time, full comparison and no \
entry taken as unchanged are the platform's", async () => {
    const c = await prepareCheckout(target("task-since-config", "gate-since-config"));
    const file = path.join(c.path, "README.md");
    const original = fs.readFileSync(file, "utf8");
    age(file);
    // The index written in a later second than the file's change time: its entry is not marked to be read
    // again, so only comparing the change time finds the rewrite.
    // The agent's config, there before the index is written (ignoreStat would have `add` mark each entry to be
    // trusted without looking) and after.
    fs.appendFileSync(
      path.join(c.path, ".git", "config"),
      "[core]\n\ttrustctime = false\n\tcheckStat = minimal\n\tignoreStat = true\n",
    );
    await nextSecondAfter(fs.statSync(file).ctimeMs);
    const state = await checkoutState(c.path, { keepIndex: true });
    try {
      rewriteKeepingDetails(file, original.replace(/./, "Y"));
      expect(await checkoutFingerprintSince(c.path, state.index!)).toBe(await checkoutFingerprint(c.path));
      expect(await checkoutFingerprintSince(c.path, state.index!)).not.toBe(state.tree);
    } finally {
      fs.writeFileSync(file, original);
    }
  });

  it("the kept index has git read the change's files again whatever their times (a file mapped shared and \
writable changes with no time changing); files as HEAD has them keep their saved details", async () => {
    const c = await prepareCheckout(target("task-since-change", "gate-since-change"));
    const readme = path.join(c.path, "README.md");
    const app = path.join(c.path, "src", "app.txt");
    try {
      fs.writeFileSync(readme, "edited by the agent\n");
      age(readme);
      age(app);
      await nextSecondAfter(Math.max(fs.statSync(readme).ctimeMs, fs.statSync(app).ctimeMs));
      const state = await checkoutState(c.path, { keepIndex: true });
      expect(state.isDirty).toBe(true);
      const kept = path.join(c.path, ".git", "kept-index-for-test");
      fs.writeFileSync(kept, state.index!.bytes);
      const debug = execFileSync("git", ["ls-files", "--debug", "README.md", "src/app.txt"], {
        cwd: c.path,
        env: { ...process.env, GIT_INDEX_FILE: kept },
        encoding: "utf8",
      });
      fs.rmSync(kept);
      const [changed, asHead] = debug.split(/\n(?=\S)/);
      expect(changed).toMatch(/^README\.md\n\s+ctime: 0:0\n\s+mtime: 0:0/);
      expect(asHead).toMatch(/^src\/app\.txt\n\s+ctime: [1-9]/);
    } finally {
      gitIn(c.path, "checkout", "--", "README.md");
    }
  });

  it("a file the agent changed and a check rewrote within one second, its size and modification time kept, is \
read again: git here compares change times to the second, so the kept index marks what changed in its own \
second", async () => {
    const c = await prepareCheckout(target("task-since-second", "gate-since-second"));
    const file = path.join(c.path, "README.md");
    const original = fs.readFileSync(file, "utf8");
    try {
      // All three in one second (tried again when a second boundary falls between them).
      for (let tries = 0; ; tries++) {
        await nextSecondAfter(Date.now());
        age(file);
        const changedSec = Math.floor(fs.statSync(file).ctimeMs / 1000);
        const state = await checkoutState(c.path, { keepIndex: true });
        rewriteKeepingDetails(file, original.replace(/^./, "Q"));
        const rewrittenSec = Math.floor(fs.statSync(file).ctimeMs / 1000);
        if (
          (changedSec !== rewrittenSec || Math.floor(state.index!.mtime.getTime() / 1000) !== changedSec) &&
          tries < 5
        ) {
          fs.writeFileSync(file, original);
          continue;
        }
        expect(rewrittenSec).toBe(changedSec);
        const after = await checkoutFingerprintSince(c.path, state.index!);
        expect(after).not.toBe(state.tree);
        expect(after).toBe(await checkoutFingerprint(c.path));
        break;
      }
    } finally {
      fs.writeFileSync(file, original);
    }
  });
});

// A server that is not root runs the checks as itself, so a check may leave a folder of the checkout
// unreadable to the server's own user (mode 000 on a folder it owns). git only warns and goes on then,
// keeping what its index held for the files there; the state is read here in a process file modes bind.
describeAsRoot("the state of a checkout with a folder git cannot open", () => {
  it("is refused, not read as unchanged", () => {
    const own = makeGitRepo({ "README.md": "base\n", "src/app.txt": "v1\n" });
    try {
      const stateUnprivileged = () =>
        callUnprivileged(
          path.join(__dirname, "checkout.ts"),
          `m.checkoutState(${JSON.stringify(own.dir)}).then((s) => ({ isDirty: s.isDirty }))`,
        );
      expect(stateUnprivileged()).toEqual({ isDirty: false });
      fs.writeFileSync(path.join(own.dir, "src", "app.txt"), "changed by a check\n");
      fs.chmodSync(path.join(own.dir, "src"), 0o000);
      expect(stateUnprivileged()).toEqual({ error: "git cannot read src in the checkout: the checkout is not read" });
      // Listed but not entered (read without search permission): git names each tracked file it cannot reach.
      fs.chmodSync(path.join(own.dir, "src"), 0o400);
      expect(stateUnprivileged()).toEqual({
        error: "git cannot read src/app.txt in the checkout: the checkout is not read",
      });
      fs.chmodSync(path.join(own.dir, "src"), 0o755);
      expect(stateUnprivileged()).toEqual({ isDirty: true });
    } finally {
      fs.chmodSync(path.join(own.dir, "src"), 0o755);
      own.cleanup();
    }
  });
});

describe("resolveInsideCheckout", () => {
  let wt: string;
  let outside: string;
  beforeAll(() => {
    wt = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-wt-"));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-outside-"));
    fs.mkdirSync(path.join(wt, "pkg", "web"), { recursive: true });
    fs.writeFileSync(path.join(wt, "file.txt"), "x");
    // Symlinks without "..": an absolute one out, one to a sibling dir by absolute path, and one that stays inside.
    fs.symlinkSync(outside, path.join(wt, "escape"));
    fs.symlinkSync("/", path.join(wt, "root"));
    fs.symlinkSync(path.join(wt, "pkg"), path.join(wt, "inside-link"));
    fs.symlinkSync(outside, path.join(wt, "pkg", "nested-escape"));
  });
  afterAll(() => {
    fs.rmSync(wt, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("no cwd is the checkout root; a subdirectory resolves inside it", () => {
    expect(resolveInsideCheckout(wt, undefined)).toEqual({ path: wt });
    expect(resolveInsideCheckout(wt, "pkg/web")).toEqual({ path: path.join(fs.realpathSync(wt), "pkg", "web") });
    expect(resolveInsideCheckout(wt, "inside-link/web")).toEqual({
      path: path.join(fs.realpathSync(wt), "pkg", "web"),
    });
  });

  it("refuses a cwd that leaves the checkout through a symlink (no '..' involved)", () => {
    for (const cwd of ["escape", "root", "root/tmp", "pkg/nested-escape"]) {
      const r = resolveInsideCheckout(wt, cwd);
      expect(r, cwd).toHaveProperty("error");
      expect((r as { error: string }).error).toContain("leaves the checkout");
    }
  });

  it("refuses a cwd that does not exist, or is a file", () => {
    expect(resolveInsideCheckout(wt, "nope")).toEqual({ error: 'cwd "nope" does not exist in the checkout' });
    expect((resolveInsideCheckout(wt, "file.txt") as { error: string }).error).toContain("is not a directory");
  });

  it("refuses an absolute cwd or one with '..' that gets out (defence behind the schema)", () => {
    expect((resolveInsideCheckout(wt, outside) as { error: string }).error).toContain("leaves the checkout");
    expect((resolveInsideCheckout(wt, `../${path.basename(outside)}`) as { error: string }).error).toContain(
      "leaves the checkout",
    );
    // A sibling directory whose name starts with the checkout's name is still outside.
    const sibling = `${wt}-sibling`;
    fs.mkdirSync(sibling);
    try {
      expect((resolveInsideCheckout(wt, sibling) as { error: string }).error).toContain("leaves the checkout");
    } finally {
      fs.rmSync(sibling, { recursive: true, force: true });
    }
  });
});

describe("clonedHeadBranch", () => {
  it("names the branch the Work's clone took as the repository's HEAD, once a checkout made the clone", async () => {
    const trunk = makeGitRepo({ "a.txt": "a\n" }, "trunk");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-head-"));
    const w = { id: "work-head", repoUrl: trunk.dir, baseBranch: null };
    expect(clonedHeadBranch(dir, w.id)).toBeNull();
    await prepareCheckout({ dataDir: dir, work: w, task: { id: "t-head", branch: "gatehouse/t-head" } });
    expect(clonedHeadBranch(dir, w.id)).toBe("trunk");
    // A HEAD that is a link (the clone is the run-as user's) is not followed; one that is not a branch is no name.
    const head = path.join(repoDirOf(dir, w.id), "HEAD");
    fs.renameSync(head, `${head}.real`);
    fs.symlinkSync(`${head}.real`, head);
    expect(clonedHeadBranch(dir, w.id)).toBeNull();
    fs.rmSync(head);
    fs.writeFileSync(head, "0123456789abcdef0123456789abcdef01234567\n");
    expect(clonedHeadBranch(dir, w.id)).toBeNull();
    fs.rmSync(dir, { recursive: true, force: true });
    trunk.cleanup();
  });
});
