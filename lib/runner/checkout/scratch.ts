// Scratch worktrees for the proof rows: a detached worktree of the task's checkout at a given commit, apart
// from the checkout's own files (which are never touched), removed afterwards. Its files and index come from
// the attempt's verified store (verified-store.ts), never from the checkout's objects, which the agent can
// rewrite. The checkout's dependency directories (node_modules, .venv, venv — ignored by git, so absent
// from a fresh worktree) are linked in, so the checks find what they found in the checkout.
import fs from "node:fs";
import path from "node:path";
import { giveTo, runAsFromEnv } from "../run-as";
import { linkInCheckout, readPlainFile } from "./checkout-files";
import { git, GitError } from "./git";
import { isInstalledDependency } from "./ignored-files";
import { removeUsersTree } from "./task-repo";
import type { VerifiedStore } from "./verified-store";

const IDENTITY = {
  GIT_AUTHOR_NAME: "Gatehouse",
  GIT_AUTHOR_EMAIL: "gatehouse@gatehouse.invalid",
  GIT_COMMITTER_NAME: "Gatehouse",
  GIT_COMMITTER_EMAIL: "gatehouse@gatehouse.invalid",
};

export function scratchDirOf(dataDir: string, runId: string, n: number, name: string): string {
  return path.join(dataDir, "scratch", `${runId}-${n}${name}`);
}

// Whether `dir` is inside a scratch worktree.
export function isScratch(dataDir: string, dir: string): boolean {
  return path.resolve(dir).startsWith(path.join(dataDir, "scratch") + path.sep);
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

// A scratch worktree while `fn` runs: `dir` its files; `layOver` puts files of a tree (from the store) over them.
export type Scratch = {
  dir: string;
  layOver: (treeish: string, files: readonly string[], deleted?: readonly string[]) => Promise<void>;
};

// `commit` is what the worktree's HEAD names (in the checkout); `tree` what its files are, read from `store`
// (the same content when nothing was forged).
export async function withScratchWorktree<T>(opts: {
  checkoutPath: string;
  dir: string;
  commit: string;
  tree: string;
  store: VerifiedStore;
  // The folders where a dependency folder is an install (ignored-files.ts; default the root): only those
  // are linked in.
  dependencyHomes?: ReadonlySet<string>;
  fn: (scratch: Scratch) => Promise<T>;
}): Promise<T> {
  const { checkoutPath, dir, store } = opts;
  await oneAtATime(checkoutPath, async () => {
    await removeScratch(checkoutPath, dir);
    const parent = path.dirname(dir);
    fs.mkdirSync(parent, { recursive: true });
    giveTo(parent, runAsFromEnv());
    dropPlantedWorktreeEntries(checkoutPath);
    await git(["worktree", "add", "--quiet", "--detach", "--no-checkout", dir, opts.commit], { cwd: checkoutPath });
  });
  try {
    await store.fill(dir, scratchIndexOf(checkoutPath, dir), opts.tree);
    await linkDependencies(checkoutPath, dir, opts.dependencyHomes ?? new Set([""]));
    return await opts.fn({ dir, layOver: (treeish, files, deleted) => store.layOver(dir, treeish, files, deleted) });
  } finally {
    await oneAtATime(checkoutPath, () => removeScratch(checkoutPath, dir));
  }
}

// The index of the scratch worktree git has just made at `dir`: in the checkout's .git/worktrees/<name>.
function scratchIndexOf(checkoutPath: string, dir: string): string {
  const pointer = /^gitdir: (.+)$/m.exec(
    readPlainFile(path.join(dir, ".git"), 64 * 1024)?.bytes.toString("utf8") ?? "",
  );
  const gitDir = pointer ? path.resolve(dir, pointer[1].trim()) : null;
  const worktrees = fs.realpathSync(path.join(checkoutPath, ".git", "worktrees"));
  if (!gitDir || fs.realpathSync(path.dirname(gitDir)) !== worktrees)
    throw new GitError(`the scratch worktree ${dir} is not registered in the checkout's .git/worktrees`);
  return path.join(gitDir, "index");
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
  // As the run-as user, and what it may not remove (files the server wrote there) moved into the server's tmp
  // first (removeUsersTree): the scratch folder's parent is that user's.
  await removeUsersTree(dir);
  dropPlantedWorktreeEntries(checkoutPath);
  await git(["worktree", "prune"], { cwd: checkoutPath }).catch(() => undefined);
}

// git keeps a worktree's bookkeeping in the checkout's .git/worktrees/<name>: that must be a folder of the
// checkout's, never a link out of it, and an entry there that is not a folder (a link the agent planted)
// goes before git reads it — `worktree prune` would empty whatever such a link points at. The checkout, its
// `.git` and `.git/worktrees` are opened one by one without following a link and the entries listed and
// removed through that descriptor: the agent owns them all, and a `.git` swapped for a link between a check
// and a removal by path would have had root remove files wherever it led.
function dropPlantedWorktreeEntries(checkoutPath: string): void {
  const flags = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;
  let fd = fs.openSync(checkoutPath, flags);
  try {
    for (const name of [".git", "worktrees"]) {
      let next: number;
      try {
        next = fs.openSync(`/proc/self/fd/${fd}/${name}`, flags);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw new GitError(
          `the checkout's .git/worktrees is not a folder (${name}): no scratch worktree is made there`,
        );
      }
      fs.closeSync(fd);
      fd = next;
    }
    const folder = `/proc/self/fd/${fd}`;
    for (const entry of fs.readdirSync(folder, { withFileTypes: true }))
      if (!entry.isDirectory()) fs.unlinkSync(`${folder}/${entry.name}`);
  } finally {
    fs.closeSync(fd);
  }
}

async function linkDependencies(checkoutPath: string, dir: string, homes: ReadonlySet<string>): Promise<void> {
  const ignored = await git(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"], {
    cwd: checkoutPath,
  }).catch(() => "");
  for (const entry of ignored.split("\0")) {
    const rel = entry.replace(/\/$/, "");
    if (!rel || !isInstalledDependency(rel, homes) || rel.split("/").includes("..")) continue;
    // Made through descriptors of the scratch worktree's folders (its parent is the run-as user's); a name
    // already taken, or a folder missing, is passed over.
    linkInCheckout(dir, rel, path.join(checkoutPath, rel));
  }
}
