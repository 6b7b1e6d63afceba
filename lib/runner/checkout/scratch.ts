// Scratch worktrees for the proof rows: a detached worktree of the Work's clone at a given commit, apart
// from the task's worktree (which is never touched), removed afterwards. The task worktree's dependency
// directories (node_modules, .venv, venv — ignored by git, so absent from a fresh worktree) are linked
// in, so the checks find what they found in the task's worktree.
import fs from "node:fs";
import path from "node:path";
import { giveTo, runAsFromEnv } from "../run-as";
import { git } from "./git";

const DEPENDENCY_DIRS = new Set(["node_modules", ".venv", "venv"]);
const IDENTITY = {
  GIT_AUTHOR_NAME: "Gatehouse",
  GIT_AUTHOR_EMAIL: "gatehouse@gatehouse.invalid",
  GIT_COMMITTER_NAME: "Gatehouse",
  GIT_COMMITTER_EMAIL: "gatehouse@gatehouse.invalid",
};

export function scratchDirOf(dataDir: string, runId: string, n: number, name: string): string {
  return path.join(dataDir, "scratch", `${runId}-${n}${name}`);
}

// A commit holding `tree` (the checkout as the checks saw it, uncommitted changes included) on `parent`.
export async function commitOfTree(checkoutPath: string, tree: string, parent: string): Promise<string> {
  return (
    await git(["commit-tree", tree, "-p", parent, "-m", "gatehouse: the checkout as the checks saw it"], {
      cwd: checkoutPath,
      env: IDENTITY,
    })
  ).trim();
}

export async function withScratchWorktree<T>(opts: {
  checkoutPath: string;
  dir: string;
  commit: string;
  fn: (dir: string) => Promise<T>;
}): Promise<T> {
  const { checkoutPath, dir } = opts;
  await oneAtATime(checkoutPath, async () => {
    await removeScratch(checkoutPath, dir);
    const parent = path.dirname(dir);
    fs.mkdirSync(parent, { recursive: true });
    giveTo(parent, runAsFromEnv());
    await git(["worktree", "add", "--quiet", "--detach", dir, opts.commit], { cwd: checkoutPath });
  });
  try {
    await linkDependencies(checkoutPath, dir);
    return await opts.fn(dir);
  } finally {
    await oneAtATime(checkoutPath, () => removeScratch(checkoutPath, dir));
  }
}

// git's worktree bookkeeping is not safe to change twice at once (an add reads every other worktree's
// entry, one half made by a concurrent add fails it): adds and removes of one clone's scratch worktrees
// take turns; what runs in them does not.
const turns = new Map<string, Promise<unknown>>();
function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = turns.get(key) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(fn);
  turns.set(key, next);
  void next
    .finally(() => {
      if (turns.get(key) === next) turns.delete(key);
    })
    .catch(() => undefined);
  return next;
}

async function removeScratch(checkoutPath: string, dir: string): Promise<void> {
  if (!fs.existsSync(dir)) return;
  await git(["worktree", "remove", "--force", dir], { cwd: checkoutPath }).catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
  await git(["worktree", "prune"], { cwd: checkoutPath }).catch(() => undefined);
}

async function linkDependencies(checkoutPath: string, dir: string): Promise<void> {
  const ignored = await git(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"], {
    cwd: checkoutPath,
  }).catch(() => "");
  for (const entry of ignored.split("\0")) {
    const rel = entry.replace(/\/$/, "");
    if (!rel || !DEPENDENCY_DIRS.has(path.basename(rel)) || rel.split("/").includes("..")) continue;
    const target = path.join(dir, rel);
    if (!fs.existsSync(path.dirname(target)) || fs.existsSync(target)) continue;
    fs.symlinkSync(path.join(checkoutPath, rel), target);
  }
}

// Lays files of `commit` over the scratch worktree (added or changed there), and deletes `deleted`.
export async function layOver(dir: string, commit: string, files: readonly string[], deleted: readonly string[] = []) {
  if (files.length > 0) await git(["checkout", "--quiet", commit, "--", ...files], { cwd: dir });
  for (const file of deleted) {
    const target = path.resolve(dir, file);
    if (target.startsWith(dir + path.sep)) fs.rmSync(target, { force: true });
  }
}
