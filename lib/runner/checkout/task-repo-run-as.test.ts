// A new task's repository with a run-as user (GATEHOUSE_RUN_AS), who owns the worktrees and repos folders: a
// process of that user (another task's agent, a check left running) could put a link where root is about to
// write, copy from or chown. So the repository is made where only the server reaches (the packs it starts
// from are kept there too), handed over whole and moved in with one rename: root writes nothing inside the
// user's folders, and what it made is all the user's.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { gitIn, makeGitRepo, type TestRepo } from "../../testing/git-repo";
import { describeAsRoot } from "../../testing/needs-root";
import { prepareDataDirFor, resolveRunAs, type RunAsUser } from "../run-as";
import { prepareCheckout, saveCheckoutBranch, type CheckoutTarget } from "./checkout";

let dataDir: string;
let repo: TestRepo;
let nobody: RunAsUser;
const saved = { runAs: process.env.GATEHOUSE_RUN_AS, dataDir: process.env.GATEHOUSE_DATA_DIR };

const target = (taskId: string): CheckoutTarget => ({
  dataDir,
  work: { id: "work-1", repoUrl: repo.dir, baseBranch: "main" },
  task: { id: taskId, branch: `gatehouse/${taskId}` },
});

// Paths root wrote, made or chowned while `fn` ran (the calls that create or change a file by its path; for
// copyFileSync the copy's path).
const WRITERS = [
  "writeFileSync",
  "appendFileSync",
  "mkdirSync",
  "chownSync",
  "lchownSync",
  "copyFileSync",
  "utimesSync",
  "rmSync",
] as const;

async function pathsWrittenDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const spies = WRITERS.map((name) => {
    const original = fs[name] as (...args: unknown[]) => unknown;
    return vi.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
      seen.push(String(name === "copyFileSync" ? args[1] : args[0]));
      return original(...args);
    }) as never);
  });
  try {
    await fn();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return seen;
}

// Every path under `dir` whose owner is not `uid`.
function notOwnedBy(dir: string, uid: number): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const stat = fs.lstatSync(p);
    if (stat.uid !== uid) out.push(path.relative(dir, p) || ".");
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return out;
}

const asAnyOwner = (dir: string, ...args: string[]) => gitIn(dir, "-c", "safe.directory=*", ...args);

describeAsRoot("a new checkout with a run-as user", () => {
  beforeAll(() => {
    nobody = resolveRunAs({ GATEHOUSE_RUN_AS: "nobody" })!;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-run-as-repo-"));
    process.env.GATEHOUSE_RUN_AS = "nobody";
    process.env.GATEHOUSE_DATA_DIR = dataDir;
    prepareDataDirFor(dataDir, nobody);
    repo = makeGitRepo({ "README.md": "base\n", "src/app.txt": "v1\n" });
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => {
    for (const [key, value] of [
      ["GATEHOUSE_RUN_AS", saved.runAs],
      ["GATEHOUSE_DATA_DIR", saved.dataDir],
    ] as const)
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    fs.rmSync(dataDir, { recursive: true, force: true });
    repo.cleanup();
  });

  it("is made where only the server reaches: root writes and chowns nothing inside the user's folders", async () => {
    const worktrees = path.join(dataDir, "worktrees");
    const usersFolders = ["worktrees", "repos"].map((name) => path.join(dataDir, name) + path.sep);
    for (const taskId of ["task-a", "task-b"]) {
      // task-a builds the kept pack of main and seeds from it, task-b seeds from the kept one.
      const written = await pathsWrittenDuring(() => prepareCheckout(target(taskId)));
      expect(written.filter((p) => usersFolders.some((folder) => p.startsWith(folder)))).toEqual([]);
      // The kept packs: the server's alone.
      expect((fs.statSync(path.join(dataDir, "base-packs")).mode & 0o777).toString(8)).toBe("700");
      expect(written.some((p) => p.startsWith(path.join(dataDir, "tmp") + path.sep))).toBe(true);
      const checkout = path.join(worktrees, taskId);
      expect(notOwnedBy(checkout, nobody.uid)).toEqual([]);
      expect(asAnyOwner(checkout, "rev-parse", "--abbrev-ref", "HEAD")).toBe(`gatehouse/${taskId}`);
      expect(asAnyOwner(checkout, "rev-parse", "HEAD")).toBe(gitIn(repo.dir, "rev-parse", "main"));
      expect(asAnyOwner(checkout, "status", "--porcelain")).toBe("");
      expect(asAnyOwner(checkout, "config", "user.email")).toBe("agent@gatehouse.invalid");
    }
    // Nothing is left behind in the staging folder.
    expect(fs.readdirSync(path.join(dataDir, "tmp")).filter((n) => n.startsWith("repo-"))).toEqual([]);
  });

  it("a checkout whose .git was a pointer keeps its files, a .git of the user's moved in beside them", async () => {
    const checkout = path.join(dataDir, "worktrees", "task-kept");
    fs.mkdirSync(checkout);
    fs.writeFileSync(path.join(checkout, "README.md"), "changed by the agent\n");
    fs.writeFileSync(path.join(checkout, ".git"), "gitdir: /nowhere\n");
    for (const p of [checkout, path.join(checkout, "README.md"), path.join(checkout, ".git")])
      fs.lchownSync(p, nobody.uid, nobody.gid);
    const written = await pathsWrittenDuring(() => prepareCheckout(target("task-kept")));
    expect(written.filter((p) => p.startsWith(checkout + path.sep))).toEqual([]);
    expect(fs.lstatSync(path.join(checkout, ".git")).isDirectory()).toBe(true);
    expect(notOwnedBy(path.join(checkout, ".git"), nobody.uid)).toEqual([]);
    // The agent's files are its changes (gitIn trims the first status column's space).
    expect(asAnyOwner(checkout, "status", "--porcelain")).toBe("M README.md\n D src/app.txt");
  });

  it("a pointer or a link in the user's folders steers no removal by the server", async () => {
    const victims = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-victims-"));
    try {
      // The clone's worktrees folder made a link to the server's folder, and a pointer naming "a worktree" in it.
      const precious = path.join(victims, "precious");
      fs.mkdirSync(precious);
      fs.writeFileSync(path.join(precious, "keep.txt"), "the server's\n");
      const clone = path.join(dataDir, "repos", "work-1.git");
      fs.rmSync(path.join(clone, "worktrees"), { recursive: true, force: true });
      fs.symlinkSync(victims, path.join(clone, "worktrees"));
      const pointed = path.join(dataDir, "worktrees", "task-pointed");
      fs.mkdirSync(pointed);
      fs.writeFileSync(path.join(pointed, ".git"), `gitdir: ${path.join(clone, "worktrees", "precious")}\n`);
      for (const p of [pointed, path.join(pointed, ".git")]) fs.lchownSync(p, nobody.uid, nobody.gid);
      await prepareCheckout(target("task-pointed")).catch(() => undefined);
      expect(fs.readFileSync(path.join(precious, "keep.txt"), "utf8")).toBe("the server's\n");
      fs.rmSync(path.join(clone, "worktrees"));

      // A task's checkout made a link to a folder of the server's whose .git is a file.
      const other = path.join(victims, "other-repo");
      fs.mkdirSync(other);
      fs.writeFileSync(path.join(other, ".git"), "gitdir: /elsewhere\n");
      const linked = path.join(dataDir, "worktrees", "task-linked");
      fs.symlinkSync(other, linked);
      fs.lchownSync(linked, nobody.uid, nobody.gid);
      const made = await prepareCheckout(target("task-linked"));
      expect(fs.readFileSync(path.join(other, ".git"), "utf8")).toBe("gitdir: /elsewhere\n");
      expect(fs.lstatSync(made.path).isDirectory()).toBe(true);
      expect(notOwnedBy(made.path, nobody.uid)).toEqual([]);
    } finally {
      fs.rmSync(victims, { recursive: true, force: true });
    }
  });

  it("carrying a task's commit back into the clone writes nothing in the user's folders either", async () => {
    const checkout = path.join(dataDir, "worktrees", "task-a");
    // The agent's commit, made as the run-as user.
    fs.writeFileSync(path.join(checkout, "fix.txt"), "fixed\n");
    fs.lchownSync(path.join(checkout, "fix.txt"), nobody.uid, nobody.gid);
    const asNobody = (...args: string[]) =>
      execFileSync("setpriv", [`--reuid=${nobody.uid}`, `--regid=${nobody.gid}`, "--clear-groups", "git", ...args], {
        cwd: checkout,
        env: { ...process.env, HOME: "/nonexistent", GIT_CONFIG_NOSYSTEM: "1" },
        encoding: "utf8",
      }).trim();
    asNobody("add", "fix.txt");
    asNobody("-c", "user.name=a", "-c", "user.email=a@a.invalid", "commit", "--quiet", "-m", "the fix");
    const commit = asNobody("rev-parse", "HEAD");
    let saved: string | null = null;
    // Under a strict umask too: the relay the user's git fetches from is made readable whatever it is.
    const umask = process.umask(0o077);
    const written = await pathsWrittenDuring(async () => {
      saved = await saveCheckoutBranch(target("task-a"));
    }).finally(() => process.umask(umask));
    expect(saved).toBe(commit);
    const clone = path.join(dataDir, "repos", "work-1.git");
    expect(asAnyOwner(clone, "rev-parse", "refs/heads/gatehouse/task-a")).toBe(commit);
    const usersFolders = ["worktrees", "repos"].map((name) => path.join(dataDir, name) + path.sep);
    expect(written.filter((p) => usersFolders.some((folder) => p.startsWith(folder)))).toEqual([]);
    expect(fs.readdirSync(path.join(dataDir, "relays"))).toEqual([]);
  });

  it("a stale checkout is removed as the user, never walked by the server", async () => {
    const stale = path.join(dataDir, "worktrees", "task-stale");
    // A checkout whose .git the agent deleted, with a folder in it.
    fs.mkdirSync(path.join(stale, "deep", "er"), { recursive: true });
    fs.writeFileSync(path.join(stale, "deep", "er", "file.txt"), "old\n");
    for (const p of [
      stale,
      path.join(stale, "deep"),
      path.join(stale, "deep", "er"),
      path.join(stale, "deep", "er", "file.txt"),
    ])
      fs.lchownSync(p, nobody.uid, nobody.gid);
    // And a folder of the server's in it, which that user may not empty: moved into the server's tmp whole.
    fs.mkdirSync(path.join(stale, "reports"));
    fs.writeFileSync(path.join(stale, "reports", "r.json"), "{}\n");
    const written = await pathsWrittenDuring(() => prepareCheckout(target("task-stale")));
    expect(fs.existsSync(path.join(stale, "reports"))).toBe(false);
    expect(written.filter((p) => p.startsWith(path.join(dataDir, "worktrees") + path.sep))).toEqual([]);
    // Nor is the tree walked by the server once moved into its tmp (a process of that user whose working
    // folder is inside could still swap a link in): coreutils' rm removes it, and nothing of it is left.
    expect(written.filter((p) => path.basename(p).startsWith("removed-"))).toEqual([]);
    expect(fs.readdirSync(path.join(dataDir, "tmp")).filter((n) => n.startsWith("removed-"))).toEqual([]);
    expect(fs.existsSync(path.join(stale, "deep"))).toBe(false);
    expect(notOwnedBy(stale, nobody.uid)).toEqual([]);
    expect(asAnyOwner(stale, "status", "--porcelain")).toBe("");
  });
});
