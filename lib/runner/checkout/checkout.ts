// Checkouts: the Work's repository is cloned once (bare) into the data dir; each task gets its own git
// worktree on its own branch, created from the base branch when new. Commits made there stay on the
// task branch. Git work on one Work's clone is serialised (worktree and fetch take repository locks).
import fs from "node:fs";
import path from "node:path";
import { resolveInside } from "./checkout-files";
import { localRepositoryProblem } from "./local-repository";
import { git, GitError, gitOk } from "./git";
import { readWorktreeHead } from "./read-head";
import { giveTo, runAsFromEnv } from "../run-as";

export type CheckoutTarget = {
  dataDir: string;
  work: { id: string; repoUrl: string; baseBranch: string | null };
  task: { id: string; branch: string };
};

export type Checkout = { path: string; head: string; baseBranch: string | null };

const locks = new Map<string, Promise<unknown>>();

// Git work on one Work's clone, one at a time in this process (checkouts and merges take it).
export function withRepoLock<T>(workId: string, fn: () => Promise<T>): Promise<T> {
  return withLock(workId, fn);
}

function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(key) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(fn);
  locks.set(key, next);
  // Both outcomes release the lock; `next.finally()` would be a second promise rejecting unhandled.
  const release = () => {
    if (locks.get(key) === next) locks.delete(key);
  };
  next.then(release, release);
  return next;
}

export function repoDirOf(dataDir: string, workId: string): string {
  return path.join(dataDir, "repos", `${workId}.git`);
}

export function worktreeDirOf(dataDir: string, taskId: string): string {
  return path.join(dataDir, "worktrees", taskId);
}

// Local paths are resolved against the server's directory; URLs (scheme:// or user@host:path) pass through.
export function resolveRepoUrl(repoUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repoUrl) || /^[^/]+@[^/]+:/.test(repoUrl)) return repoUrl;
  return path.resolve(repoUrl);
}

export function prepareCheckout(target: CheckoutTarget): Promise<Checkout> {
  return withLock(target.work.id, () => prepareLocked(target));
}

// Clones whose origin URL was checked in this process (a Work's repoUrl rarely changes).
const checkedOrigins = new Map<string, string>();

// The Work's bare clone, made or pointed at the Work's current repoUrl. Call under withRepoLock.
export async function ensureClone(dataDir: string, work: CheckoutTarget["work"]): Promise<string> {
  const repoDir = repoDirOf(dataDir, work.id);
  const url = resolveRepoUrl(work.repoUrl);
  // Checked at every clone or fetch, with realpath now: the path may have become a link since it was saved.
  const local = localRepositoryProblem(work.repoUrl, { dataDir, installDir: process.cwd() });
  if (local) throw new GitError(`could not clone ${work.repoUrl}: the repository ${local}`);
  if (!fs.existsSync(path.join(repoDir, "HEAD"))) await cloneBare(url, repoDir);
  else if (
    checkedOrigins.get(repoDir) !== url &&
    (await git(["config", "--get", "remote.origin.url"], { cwd: repoDir }).catch(() => "")).trim() !== url
  ) {
    await git(["remote", "set-url", "origin", url], { cwd: repoDir });
    await git(["fetch", "--quiet", "--prune", "origin"], { cwd: repoDir, timeoutMs: 600_000 });
  }
  checkedOrigins.set(repoDir, url);
  return repoDir;
}

async function prepareLocked({ dataDir, work, task }: CheckoutTarget): Promise<Checkout> {
  const repoDir = await ensureClone(dataDir, work);
  const wt = worktreeDirOf(dataDir, task.id);
  // The common case, an existing worktree on its branch, needs no git process at all.
  const known = readWorktreeHead(wt);
  if (known && known.branch === task.branch) return { path: wt, head: known.commit, baseBranch: work.baseBranch };
  if (await isWorktree(wt)) {
    // A worktree on another branch (or one whose HEAD the fast read could not follow).
    const current = known?.branch ?? (await git(["rev-parse", "--abbrev-ref", "HEAD"], { cwd: wt })).trim();
    if (current !== task.branch) await git(["checkout", "--quiet", task.branch], { cwd: wt });
    return { path: wt, head: await headCommit(wt), baseBranch: work.baseBranch };
  }
  const baseBranch = work.baseBranch ?? (await remoteHeadBranch(repoDir));
  fs.rmSync(wt, { recursive: true, force: true });
  await git(["worktree", "prune"], { cwd: repoDir });
  await git(["fetch", "--quiet", "origin"], { cwd: repoDir, timeoutMs: 600_000 });
  fs.mkdirSync(path.dirname(wt), { recursive: true });
  await addWorktree(repoDir, wt, task.branch, baseBranch);
  return { path: wt, head: await headCommit(wt), baseBranch };
}

async function cloneBare(url: string, repoDir: string): Promise<void> {
  fs.mkdirSync(path.dirname(repoDir), { recursive: true });
  const tmp = `${repoDir}.tmp-${process.pid}-${Date.now()}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  try {
    await git(["clone", "--bare", "--quiet", "--", url, tmp], { timeoutMs: 1_800_000 });
    await git(["config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"], { cwd: tmp });
    // Agents commit in the worktrees; give them an identity unless the repository brings one.
    await git(["config", "user.name", "Gatehouse agent"], { cwd: tmp });
    await git(["config", "user.email", "agent@gatehouse.invalid"], { cwd: tmp });
    await git(["fetch", "--quiet", "origin"], { cwd: tmp, timeoutMs: 600_000 });
    fs.renameSync(tmp, repoDir);
  } catch (error) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (error instanceof GitError)
      throw new GitError(`could not clone ${url}: ${error.message.replace(/^git clone failed: /, "")}`);
    throw error;
  }
}

export async function remoteHeadBranch(repoDir: string): Promise<string> {
  const head = (await git(["symbolic-ref", "--short", "HEAD"], { cwd: repoDir }).catch(() => "")).trim();
  if (!head) throw new GitError("the repository has no HEAD branch; set the Work's base branch");
  return head;
}

async function isWorktree(dir: string): Promise<boolean> {
  if (!fs.existsSync(path.join(dir, ".git"))) return false;
  return gitOk(["rev-parse", "--is-inside-work-tree"], { cwd: dir });
}

async function addWorktree(repoDir: string, wt: string, branch: string, baseBranch: string): Promise<void> {
  const hasRef = (ref: string) => gitOk(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd: repoDir });
  if (await hasRef(`refs/heads/${branch}`)) {
    await git(["worktree", "add", "--quiet", wt, branch], { cwd: repoDir });
    return;
  }
  const from = (await hasRef(`refs/remotes/origin/${branch}`))
    ? `refs/remotes/origin/${branch}`
    : (await hasRef(`refs/remotes/origin/${baseBranch}`))
      ? `refs/remotes/origin/${baseBranch}`
      : (await hasRef(`refs/heads/${baseBranch}`))
        ? `refs/heads/${baseBranch}`
        : null;
  if (!from) throw new GitError(`the base branch "${baseBranch}" does not exist in the repository`);
  await git(["worktree", "add", "--quiet", "--no-track", "-b", branch, wt, from], { cwd: repoDir });
}

export async function headCommit(wt: string): Promise<string> {
  return readWorktreeHead(wt)?.commit ?? (await git(["rev-parse", "HEAD"], { cwd: wt })).trim();
}

export async function isDirtyCheckout(wt: string): Promise<boolean> {
  return (await git(["status", "--porcelain", "--untracked-files=normal"], { cwd: wt })).trim().length > 0;
}

// A content fingerprint of the whole checkout (tracked and untracked files, not ignored ones): the tree
// `git add -A` would write, built in a copy of the index so the worktree's own index is left alone.
export async function checkoutFingerprint(wt: string): Promise<string> {
  const index = (await git(["rev-parse", "--path-format=absolute", "--git-path", "index"], { cwd: wt })).trim();
  const tmpIndex = `${index}.gatehouse-${process.pid}`;
  try {
    if (fs.existsSync(index)) {
      fs.copyFileSync(index, tmpIndex);
      giveTo(tmpIndex, runAsFromEnv());
    }
    const env = { GIT_INDEX_FILE: tmpIndex };
    await git(["add", "-A", "."], { cwd: wt, env });
    return (await git(["write-tree"], { cwd: wt, env })).trim();
  } finally {
    fs.rmSync(tmpIndex, { force: true });
  }
}

// Resolves a check's cwd inside the checkout, refusing anything (symlinks included) that leaves it.
export function resolveInsideCheckout(wt: string, cwd: string | undefined): { path: string } | { error: string } {
  if (!cwd) return { path: wt };
  const where = resolveInside(wt, path.resolve(wt, cwd));
  if ("missing" in where) return { error: `cwd "${cwd}" does not exist in the checkout` };
  if ("outside" in where) return { error: `cwd "${cwd}" leaves the checkout (it resolves to ${where.outside})` };
  if (!fs.statSync(where.real).isDirectory()) return { error: `cwd "${cwd}" is not a directory` };
  return { path: where.real };
}
