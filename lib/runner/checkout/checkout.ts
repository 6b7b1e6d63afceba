// Checkouts: the Work's repository is cloned once (bare) into the data dir; each task gets a checkout of
// its own, a repository holding only its branch (created from the base branch when new) and what
// visibleRefs opens (task-repo.ts). Commits made there are carried back to the task branch in the clone
// after each attempt. Git work on one Work's clone is serialised (fetches and ref updates take its lock).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { branchBesideBaseProblem } from "../../gates/task-branch";
import { buildBasePack } from "./base-packs";
import {
  createCheckoutFile,
  readCheckoutFile,
  readPlainFile,
  removeCheckoutFile,
  resolveInside,
  writeCheckoutFile,
} from "./checkout-files";
import { localRepositoryProblem } from "./local-repository";
import { git, gitCaptured, GitError, gitFailure, listDriverOverrides, type ListedOverrides } from "./git";
import { type IndexFile, markRecentEntries, parseIndexData, readIndexFile } from "./index-file";
import { indexFileOf, readWorktreeHead } from "./read-head";
import { runAsFromEnv } from "../run-as";
import {
  hasManagedRefs,
  isOwnRepository,
  NEW_CHECKOUT_CONFIG,
  removeUsersTree,
  saveTaskBranch,
  stageTaskRepository,
  switchTaskBranch,
  syncVisibleRefs,
} from "./task-repo";

export type CheckoutTarget = {
  dataDir: string;
  work: { id: string; repoUrl: string; baseBranch: string | null };
  task: { id: string; branch: string };
  // Ref globs of the Work's repository the checkout may carry beyond the task branch (default none).
  visibleRefs?: readonly string[];
};

// `written`: the index git wrote as it made a new checkout (null: the checkout was there already, or its index
// cannot stand for its files: see writtenIndexOf). While nothing else has run in the checkout, its first
// fingerprint starts from it instead of from `read-tree HEAD` (checkoutState's `written`).
export type Checkout = { path: string; head: string; baseBranch: string | null; written: WrittenIndex | null };

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

// The clone's part under the Work's lock; a new checkout's files are written after it is let go
// (task-repo.ts stageTaskRepository), under a lock of the task's checkout, which the whole prepare holds: a
// second prepare of the task (a run cancelled while its checkout is made and the task dispatched again) waits
// for the first one's checkout and takes it up, never makes one of its own over it. Always the task's lock
// first, then the Work's.
export function prepareCheckout(target: CheckoutTarget): Promise<Checkout> {
  const askedAt = performance.now();
  const wt = worktreeDirOf(target.dataDir, target.task.id);
  return withLock(`checkout:${wt}`, async () => {
    const prepared = await withLock(target.work.id, () => prepareLocked(target, askedAt));
    return "finish" in prepared ? prepared.finish() : prepared;
  });
}

// The fetch (or clone) that last brought each clone up to date: from which URL, and when it started (on
// this process's clock). Forgotten whenever the clone's origin is changed, so a fetch from the Work's former
// repository never serves a checkout of the new one.
const lastFetch = new Map<string, { url: string; startedAt: number }>();

async function fetchRecorded(repoDir: string, url: string, fetch: () => Promise<unknown>): Promise<void> {
  const startedAt = performance.now();
  await fetch();
  lastFetch.set(repoDir, { url, startedAt });
}

// git's automatic maintenance after a fetch (`maintenance run --auto`: a process of its own that counts the
// clone's loose objects and packs, and almost always finds nothing to do) after the clone's first fetch in
// this process (its making, or its first fetch) and then one in MAINTAIN_EVERY, not after each: a new
// checkout's set-up is a process shorter, and a clone gathers at most that many fetches' objects before it is
// looked at.
export const MAINTAIN_EVERY = 16;
const fetchCounts = new Map<string, number>();

function maintenanceFlags(repoDir: string): string[] {
  const count = fetchCounts.get(repoDir) ?? 0;
  fetchCounts.set(repoDir, count + 1);
  return count % MAINTAIN_EVERY === 0 ? [] : ["--no-auto-maintenance"];
}

// Brings the clone up to date with its origin, unless a fetch from the same URL that started after
// `askedAt` already did: runs of one Work claimed together wait for the clone's lock in turn, and the first
// one's fetch serves those that asked before it started.
async function fetchOrigin(repoDir: string, url: string, askedAt: number): Promise<void> {
  const last = lastFetch.get(repoDir);
  if (last && last.url === url && last.startedAt >= askedAt) return;
  // The clone's config is Gatehouse's alone (no sandbox reaches it): nothing to list and switch off first.
  const args = ["fetch", "--quiet", ...maintenanceFlags(repoDir), "origin"];
  await fetchRecorded(repoDir, url, () => git(args, { cwd: repoDir, timeoutMs: 600_000, isOwnConfig: true }));
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
  if (!fs.existsSync(path.join(repoDir, "HEAD"))) {
    await fetchRecorded(repoDir, url, () => cloneBare(url, repoDir));
    // The clone's own fetch was followed by git's maintenance (see maintenanceFlags).
    fetchCounts.set(repoDir, 1);
  } else if (
    checkedOrigins.get(repoDir) !== url &&
    (await git(["config", "--get", "remote.origin.url"], { cwd: repoDir }).catch(() => "")).trim() !== url
  ) {
    lastFetch.delete(repoDir);
    await git(["remote", "set-url", "origin", url], { cwd: repoDir });
    await fetchRecorded(repoDir, url, () =>
      git(["fetch", "--quiet", "--prune", "origin"], { cwd: repoDir, timeoutMs: 600_000 }),
    );
  }
  checkedOrigins.set(repoDir, url);
  return repoDir;
}

// Readies the Work's clone before any run of it needs it (a starting worker, for the Works run lately):
// cloned when this data dir has none, with the pack a new checkout of the base branch starts from. A clone
// already here is left as it is (the next checkout fetches). "made" when it cloned.
export function warmClone(dataDir: string, work: CheckoutTarget["work"]): Promise<"made" | "kept"> {
  return withLock(work.id, async () => {
    if (fs.existsSync(path.join(repoDirOf(dataDir, work.id), "HEAD"))) return "kept";
    const repoDir = await ensureClone(dataDir, work);
    const baseBranch = work.baseBranch ?? (await remoteHeadBranch(repoDir));
    const tip = (
      await gitCaptured(["rev-parse", "--verify", "--quiet", `refs/remotes/origin/${baseBranch}^{commit}`], {
        cwd: repoDir,
      })
    ).stdout.trim();
    if (tip) await buildBasePack({ repoDir, tip });
    return "made";
  });
}

async function prepareLocked(
  { dataDir, work, task, visibleRefs = [] }: CheckoutTarget,
  askedAt: number,
): Promise<Checkout | { finish: () => Promise<Checkout> }> {
  const repoDir = await ensureClone(dataDir, work);
  // The branch a new checkout starts from (the clone's HEAD branch when the Work names none). The task's
  // branch is checked against it here too: with no base branch set, the service could not tell it.
  const baseBranch = work.baseBranch ?? clonedHeadBranch(dataDir, work.id) ?? (await remoteHeadBranch(repoDir));
  const besideBase = branchBesideBaseProblem(task.branch, baseBranch);
  if (besideBase) throw new GitError(`the task's branch: ${besideBase}`);
  const wt = worktreeDirOf(dataDir, task.id);
  const syncRefs = async () => {
    if (visibleRefs.length > 0 || hasManagedRefs(wt)) await syncVisibleRefs({ repoDir, checkoutPath: wt, visibleRefs });
  };
  if (isOwnRepository(wt)) {
    // The common case, an existing checkout on its branch, needs no git process at all (without visibleRefs).
    const known = readWorktreeHead(wt);
    if (known && known.branch === task.branch) {
      await syncRefs();
      return { path: wt, head: known.commit, baseBranch: work.baseBranch, written: null };
    }
    // A checkout on another branch (the task's branch was renamed, or the agent switched).
    await switchTaskBranch({ repoDir, checkoutPath: wt, branch: task.branch, baseBranch });
    await syncRefs();
    return { path: wt, head: await headCommit(wt), baseBranch, written: null };
  }
  // A `.git` that is not a directory of its own: a worktree of the clone (the layout before checkouts were
  // repositories of their own) or a pointer an agent planted. Its files are kept, the pointer is not.
  const keepFiles = dropGitPointer(wt);
  if (!keepFiles) await removeUsersTree(wt);
  // Worktrees of the clone are left only from the layout before (and the scratch worktrees it made).
  if (fs.existsSync(path.join(repoDir, "worktrees"))) await git(["worktree", "prune"], { cwd: repoDir });
  await fetchOrigin(repoDir, resolveRepoUrl(work.repoUrl), askedAt);
  fs.mkdirSync(path.dirname(wt), { recursive: true });
  const staged = await stageTaskRepository({
    repoDir,
    dir: wt,
    branch: task.branch,
    baseBranch,
    visibleRefs,
    keepFiles,
    stagingDir: path.join(dataDir, "tmp"),
  });
  return {
    finish: async () => {
      await staged.finish();
      return { path: wt, head: await headCommit(wt), baseBranch, written: keepFiles ? null : writtenIndexOf(wt) };
    },
  };
}

// Removes a checkout's `.git` pointer (file or symlink). True when there was one, so the checkout's files are
// the agent's to keep. The checkout's folder is the run-as user's: it is opened once without following a link
// (a link in its place is no checkout: false, and the caller removes the link), and its `.git` read and
// removed through that descriptor. A pointer naming a worktree of the clone leaves that worktree's
// registration to `git worktree prune` (run next, as the run-as user: its `.git` is gone): the server removes
// nothing by a path the pointer or the clone (both the user's) could steer elsewhere.
function dropGitPointer(wt: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(wt, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  } catch {
    return false;
  }
  try {
    const dotGit = `/proc/self/fd/${fd}/.git`;
    const stat = fs.lstatSync(dotGit, { throwIfNoEntry: false });
    if (!stat || stat.isDirectory()) return false;
    fs.unlinkSync(dotGit);
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

// Carries the task branch from the task's checkout into the Work's clone (after each attempt, before a
// merge): what landing and the next checkout read. null when there is no checkout or no such branch.
export function saveCheckoutBranch(target: CheckoutTarget): Promise<string | null> {
  return withLock(target.work.id, async () => {
    const wt = worktreeDirOf(target.dataDir, target.task.id);
    const repoDir = repoDirOf(target.dataDir, target.work.id);
    if (!fs.existsSync(wt) || !fs.existsSync(path.join(repoDir, "HEAD"))) return null;
    return saveTaskBranch({ repoDir, checkoutPath: wt, branch: target.task.branch });
  });
}

async function cloneBare(url: string, repoDir: string): Promise<void> {
  fs.mkdirSync(path.dirname(repoDir), { recursive: true });
  const tmp = `${repoDir}.tmp-${process.pid}-${Date.now()}`;
  await removeUsersTree(tmp);
  try {
    await git(["clone", "--bare", "--quiet", "--", url, tmp], { timeoutMs: 1_800_000 });
    await git(["config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"], { cwd: tmp });
    // Agents commit in the worktrees; give them an identity unless the repository brings one.
    await git(["config", "user.name", "Gatehouse agent"], { cwd: tmp });
    await git(["config", "user.email", "agent@gatehouse.invalid"], { cwd: tmp });
    await git(["fetch", "--quiet", "origin"], { cwd: tmp, timeoutMs: 600_000 });
    fs.renameSync(tmp, repoDir);
  } catch (error) {
    await removeUsersTree(tmp).catch(() => undefined);
    if (error instanceof GitError)
      throw new GitError(`could not clone ${url}: ${error.message.replace(/^git clone failed: /, "")}`);
    throw error;
  }
}

// The repository's HEAD branch as this server's clone of it last saw it: what a Work without a base branch
// builds on. null before the first clone (or where only workers clone). The clone is the run-as user's:
// its HEAD is read without following a link or waiting on a FIFO, and only a branch name is taken from it.
export function clonedHeadBranch(dataDir: string, workId: string): string | null {
  let fd: number | undefined;
  try {
    const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
    fd = fs.openSync(path.join(repoDirOf(dataDir, workId), "HEAD"), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    if (!fs.fstatSync(fd).isFile()) return null;
    const buffer = Buffer.alloc(256);
    const head = buffer.toString("utf8", 0, fs.readSync(fd, buffer, 0, buffer.length, 0));
    return /^ref: refs\/heads\/([\w./-]{1,200})\n?$/.exec(head)?.[1] ?? null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export async function remoteHeadBranch(repoDir: string): Promise<string> {
  const head = (await git(["symbolic-ref", "--short", "HEAD"], { cwd: repoDir }).catch(() => "")).trim();
  if (!head) throw new GitError("the repository has no HEAD branch; set the Work's base branch");
  return head;
}

export async function headCommit(wt: string): Promise<string> {
  return readWorktreeHead(wt)?.commit ?? (await git(["rev-parse", "HEAD"], { cwd: wt })).trim();
}

// Whether the files differ from HEAD (changed, deleted or untracked, not ignored): the checkout's fingerprint
// (its files as they are on disk, hashed; see checkoutFingerprint) against HEAD's tree. Not `git status`,
// which compares the files with HEAD's trees as stored — and a subtree's object file is the agent's to
// rewrite (git does not check a subtree's hash when it reads it), so the checks could run on files that
// are not the commit recorded. A task's checkout only (its .git a directory of its own). The fingerprint
// comes with it, for what compares attempts (stage-fingerprint.ts) at the same moment.
// `keepIndex`: the index the fingerprint was written from comes with it (`index`), kept in memory for
// checkoutFingerprintSince (null when it was not asked for, or cannot be kept: submodules, over 2 MB).
// `written`: the index git wrote as it made this checkout (Checkout's `written`), when nothing has run in the
// checkout since: the fingerprint's index starts from it, not from `read-tree HEAD` (one git process fewer,
// and on a large checkout git reads again only the files written in the index's own second).
export async function checkoutState(
  wt: string,
  opts: { submodules?: ReadonlySet<string>; keepIndex?: boolean; written?: WrittenIndex | null } = {},
): Promise<{ tree: string; isDirty: boolean; index: SavedIndex | null }> {
  const { tree, headTree, index } = await fingerprintAndHead(wt, opts);
  if (headTree) return { tree, isDirty: tree !== headTree, index };
  const head = await gitCaptured(["rev-parse", "--verify", "--quiet", "HEAD^{tree}"], { cwd: wt });
  // No commit yet: changed when anything is there (the empty tree's id is the one `write-tree` gives then).
  return { tree, isDirty: head.code === 0 ? tree !== head.stdout.trim() : tree !== EMPTY_TREE, index };
}

// An index Gatehouse's own `add -A` wrote (never one the agent or a check could have touched: it is read back
// into memory before the checkout's commands run again), with the time it was written.
export type SavedIndex = { readonly bytes: Buffer; readonly mtime: Date };

// The fingerprint again, from the index an earlier fingerprint of the same checkout wrote instead of from
// HEAD's tree: each entry there holds the file's details as git saw them when it read the file (size,
// modification and change times, inode), so git reads again only the files whose details changed — and a
// change time no unprivileged process can set back. On a checkout of many files `read-tree` leaves git
// none, and it reads every file. Command-scope config holds git to comparing every detail (core.trustctime,
// core.checkStat), whatever the checkout's config says; the entries readOwnIndex marked (changed in the
// index's own second, or the change's own files) are read again whatever their details.
export async function checkoutFingerprintSince(wt: string, saved: SavedIndex): Promise<string> {
  ownGitDirectory(wt);
  return withOwnIndex(
    wt,
    true,
    (tmpIndex) => writeSavedIndex(wt, tmpIndex, saved),
    // The saved index holds no submodule (it is kept only then), and no nested repository is one.
    async (env) => (await fingerprintIn(wt, env, { submodules: new Set() }, { headIndex: null, gitlinks: [] })).tree,
  );
}

// A saved index into the platform's own index file beside the checkout's, with the time it was written.
async function writeSavedIndex(wt: string, tmpIndex: string, saved: SavedIndex): Promise<boolean> {
  // Through the descriptor alone, made new, its folders opened one by one without following a link: .git is
  // the agent's user's, and a link swapped in at any name of the path would have root write, date and chown
  // a file wherever it leads.
  const created = createCheckoutFile(wt, path.relative(wt, tmpIndex), 0o600);
  if ("reason" in created) throw new GitError(`the checkout's index could not be written: ${created.reason}`);
  const { fd } = created;
  try {
    fs.writeFileSync(fd, saved.bytes);
    fs.futimesSync(fd, saved.mtime, saved.mtime);
    // git runs as the run-as user, when there is one: the index is its to read and replace, as read-tree's is.
    const user = runAsFromEnv();
    if (user) fs.fchownSync(fd, user.uid, user.gid);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

// The index `reset --hard` has just written in a new checkout (Checkout's `written`), read before anything
// else runs there, with every entry written in the index's own second marked to be read again (as a kept
// index's are). Null when its entries may not be what `add` finds on disk: a `.gitattributes` anywhere
// (filters, eol conversion and `ident` make a file on disk differ from its blob, which a stat match would
// hide), a submodule, an entry not at stage 0, no cache-tree root (HEAD's tree), or an index this process
// does not read (see readOwnIndex).
export function writtenIndexOf(wt: string): WrittenIndex | null {
  const own = readOwnFile(path.join(wt, ".git", "index"));
  const parsed = own && parseIndexData(own.bytes);
  const headTree = parsed?.rootTree;
  if (!own || !parsed || !headTree) return null;
  const isPlain = (e: IndexFile["entries"][number]) =>
    e.stage === 0 && e.mode !== GITLINK_MODE && path.posix.basename(e.path) !== ".gitattributes";
  if (!parsed.entries.every(isPlain)) return null;
  // Without the cache-tree reset primed from HEAD's own trees, unchecked: `write-tree` builds the tree from the
  // entries, as after `read-tree HEAD` and `add` — a malformed HEAD tree (an entry twice, say) reads as changed.
  const bytes = markRecentEntries(own.bytes, { sinceSec: secondOf(own.mtime), dropCacheTree: true });
  return bytes && { bytes, mtime: own.mtime, headTree };
}

// The index a new checkout's reset wrote, kept as above, with HEAD's tree as that reset recorded it.
export type WrittenIndex = SavedIndex & { readonly headTree: string };

export async function isDirtyCheckout(wt: string): Promise<boolean> {
  return (await checkoutState(wt)).isDirty;
}

const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

// A content fingerprint of the whole checkout (tracked and untracked files, not ignored ones): the tree
// `git add -A` would write, built in an index of its own (withOwnIndex, from HEAD's entries) so the
// worktree's is left alone.
// `scratch`: a scratch worktree of Gatehouse's (its .git a file naming the task checkout's git data);
// otherwise a task's checkout, whose .git must be a directory of its own.
// `submodules`: the paths a submodule may be at (the start commit's); any other nested repository is refused.
export async function checkoutFingerprint(
  wt: string,
  opts: { scratch?: boolean; submodules?: ReadonlySet<string> } = {},
): Promise<string> {
  return (await fingerprintAndHead(wt, opts)).tree;
}

// The fingerprint, and HEAD's tree when the index `read-tree HEAD` wrote says it (its cache-tree's root);
// null when it does not (no HEAD, an index this process does not read): the caller asks git.
async function fingerprintAndHead(
  wt: string,
  opts: { scratch?: boolean; submodules?: ReadonlySet<string>; keepIndex?: boolean; written?: WrittenIndex | null },
): Promise<{ tree: string; headTree: string | null; index: SavedIndex | null }> {
  if (!opts.scratch) ownGitDirectory(wt);
  const { written } = opts;
  const fill = written ? (tmpIndex: string) => writeSavedIndex(wt, tmpIndex, written) : fillFromHead(wt);
  return withOwnIndex(wt, !opts.scratch, fill, async (env) => {
    const headIndex = readIndexFile(env.GIT_INDEX_FILE, opts.keepIndex ? MAX_SAVED_INDEX : undefined);
    const gitlinks = await gitlinksOf(wt, env, headIndex);
    const read = await fingerprintIn(wt, env, opts, { headIndex, gitlinks });
    return written ? { ...read, headTree: written.headTree } : read;
  });
}

// `start`: what the index holds before `add` (HEAD's, as parsed here when read-tree wrote it; its submodule
// entries).
async function fingerprintIn(
  wt: string,
  env: { GIT_INDEX_FILE: string },
  opts: { submodules?: ReadonlySet<string>; keepIndex?: boolean },
  start: { headIndex: IndexFile | null; gitlinks: { sha: string; path: string }[] },
): Promise<{ tree: string; headTree: string | null; index: SavedIndex | null }> {
  const { gitlinks } = start;
  // `add` asks a git started in each submodule whether it changed (under the submodule's own config, with
  // filters never listed here): HEAD's submodules leave the index first, so `add` takes each one's
  // commit as it finds it, as for a repository it has not seen, and starts nothing there.
  for (const chunk of chunksOf(gitlinks))
    await git(["update-index", "--force-remove", "--", ...chunk.map((g) => g.path)], { cwd: wt, env });
  // One listing for `add` and `write-tree`: nothing but these two runs in the checkout in between.
  const listed = await driverListingOf(wt, env);
  await addAll(wt, env, listed);
  // A submodule never initialised (its folder empty, as a new checkout leaves it) is unchanged, as git
  // itself sees it: HEAD's entry goes back (`add` found nothing there and would have it deleted).
  const unopened = gitlinks.filter((g) => isEmptyFolder(wt, g.path));
  for (const chunk of chunksOf(unopened))
    await git(["update-index", "--add", ...chunk.flatMap((g) => ["--cacheinfo", `160000,${g.sha},${g.path}`])], {
      cwd: wt,
      env,
    });
  // A repository nested in the checkout where HEAD (or, when given, the start commit) has no submodule:
  // `add` records only its commit, which the Work's repository does not hold, while the checks run its files.
  const known = opts.submodules ?? new Set(gitlinks.map((g) => g.path));
  const after = await gitlinksOf(wt, env, readIndexFile(env.GIT_INDEX_FILE));
  const nested = after.map((g) => g.path).filter((p) => !known.has(p));
  if (nested.length > 0)
    throw new GitError(
      `the checkout holds a git repository of its own at ${nested.slice(0, 3).join(", ")} (no submodule of HEAD): ` +
        "its files are no part of the commit, and the checkout is not read",
    );
  const tree = (await git(["write-tree"], { cwd: wt, env, listed })).trim();
  // Kept only when it holds no submodule (`add` would start git inside one, see above) and HEAD's entries are
  // known here (the change's files are told from them).
  const index =
    opts.keepIndex && after.length === 0 && start.headIndex ? readOwnIndex(env.GIT_INDEX_FILE, start.headIndex) : null;
  return { tree, headTree: start.headIndex?.rootTree ?? null, index };
}

// The drivers the checkout's config names (listDriverOverrides). A config that is still the one Gatehouse
// wrote (task-repo.ts) lists as it always does — what git lists depends on nothing else here but Gatehouse's own
// global settings —, so it is listed by git once in this process and known after that: a process less at the
// start and at the end of each attempt. Read as the listing would be, the moment before it (a config changed
// since is the same race as one changed after the listing). Read with no link at any name of its path: only a
// `.git` that is a folder is named to git as the repository and its common directory (git.ts, repositoryEnvOf);
// a `.git` link to a folder (a scratch's, where the red team's command runs) is left to git's own discovery,
// which follows that folder's `commondir` to another repository's config — not the bytes read here.
const NEW_CONFIG_BYTES = Buffer.from(NEW_CHECKOUT_CONFIG);
// The listing as a promise, so the checkouts of a worker's first runs, read at once, share one git process.
let newConfigListing: Promise<ListedOverrides> | null = null;

// Forgets the listing, as a process that has listed none (for tests).
export function forgetNewConfigListing(): void {
  newConfigListing = null;
}

async function driverListingOf(wt: string, env: Record<string, string>): Promise<ListedOverrides> {
  const config = readCheckoutFile(wt, ".git/config", { maxBytes: NEW_CONFIG_BYTES.length });
  if (config.kind !== "file" || !config.bytes.equals(NEW_CONFIG_BYTES)) return listDriverOverrides(wt, env);
  newConfigListing ??= listDriverOverrides(wt, env);
  const listing = newConfigListing;
  // A listing that failed is not kept: the next checkout lists again.
  return listing.catch((error: unknown) => {
    if (newConfigListing === listing) newConfigListing = null;
    throw error;
  });
}

// `add -A`, refusing a checkout with a folder git cannot read: git only warns and goes on (exit 0), keeping
// what the index held for the files under it — "could not open directory 'x/'" for a folder it cannot list
// (mode 000), "x/a.txt: Permission denied" for a tracked file in a folder it can list but not enter (0400).
// Such a folder, made by a check on a server that is not root (which runs the checks as itself), would hide a
// change to them. A file it cannot read already fails `add`. (git's messages are in English: LC_ALL=C.)
const UNREADABLE_IN_ADD = [
  /could not open directory '([^']*)'/,
  /^(?!warning: |error: |fatal: |hint: )(.+): (?:Permission denied|Operation not permitted|Input\/output error)$/m,
];

async function addAll(wt: string, env: { GIT_INDEX_FILE: string }, listed: ListedOverrides): Promise<void> {
  const args = ["add", "-A", "."];
  const added = await gitCaptured(args, { cwd: wt, env, listed });
  for (const pattern of UNREADABLE_IN_ADD) {
    const found = pattern.exec(added.stderr);
    if (found)
      throw new GitError(
        `git cannot read ${found[1].replace(/\/$/, "").slice(0, 200)} in the checkout: the checkout is not read`,
      );
  }
  if (added.code !== 0) throw gitFailure(args, added);
}

// ~20,000 files; a larger index is left (reading and marking it would hold the event loop ~1 ms per 100 KB).
const MAX_SAVED_INDEX = 2 * 1024 * 1024;

// The index git just wrote (through a rename: a file of its own, never a link), into memory, with the entries
// changed in the second it was written marked to be read again (markRecentEntries: a file rewritten in that
// same second, its size and modification time put back, would otherwise match every detail git compares
// here). Null when it is not a plain file, is too large to keep, or is not one this process reads.
function readOwnIndex(file: string, head: IndexFile): SavedIndex | null {
  const own = readOwnFile(file);
  if (!own) return null;
  const headIds = new Map(head.entries.map((e) => [e.path, e.id]));
  const bytes = markRecentEntries(own.bytes, {
    sinceSec: secondOf(own.mtime),
    isChange: (entry) => headIds.get(entry.path) !== entry.id,
  });
  return bytes && { bytes, mtime: own.mtime };
}

const secondOf = (time: Date) => Math.floor(time.getTime() / 1000);

// A file git wrote through a rename (a plain file, never followed through a link), with its modification time;
// null when it is not one, or is over MAX_SAVED_INDEX.
const readOwnFile = (file: string) => readPlainFile(file, MAX_SAVED_INDEX);

// The submodule entries (mode 160000) of the index at env.GIT_INDEX_FILE: from `parsed` when this process
// could read it, else from `git ls-files`.
async function gitlinksOf(
  wt: string,
  env: { GIT_INDEX_FILE: string },
  parsed: IndexFile | null,
): Promise<{ sha: string; path: string }[]> {
  if (parsed) return parsed.entries.filter((e) => e.mode === GITLINK_MODE).map((e) => ({ sha: e.id, path: e.path }));
  return (await git(["ls-files", "--stage", "-z"], { cwd: wt, env }))
    .split("\0")
    .filter((entry) => entry.startsWith("160000 "))
    .map((entry) => ({ sha: entry.split(" ")[1], path: entry.slice(entry.indexOf("\t") + 1) }));
}

const GITLINK_MODE = 0o160000;

// A task's checkout is read by git only through a `.git` directory of its own: a `.git` file or link (which
// the agent can plant) could lead git to another repository, another worktree or another index.
// Its `info/attributes` and `info/exclude` are refused too: git always reads them, no setting turns them off,
// and they are in no commit — `* ident` or an eol rule makes an edited file read as HEAD's, an exclude line
// hides a new file the checks load.
function ownGitDirectory(wt: string): void {
  if (!isOwnRepository(wt))
    throw new GitError(`the checkout's .git is not a directory of its own (${wt}): it is not read`);
  // Gatehouse writes in .git/info while it reads (withOwnIndex): a real folder, never a link out.
  const info = lstatOrNull(path.join(wt, ".git", "info"));
  if (info && !info.isDirectory()) throw new GitError("the checkout's .git/info is not a folder: it is not read");
  for (const file of ["attributes", "exclude"]) {
    const rules = readRules(wt, `.git/info/${file}`);
    if (rules) throw new GitError(`the checkout's .git/info/${file} has rules (${rules}): it is not read`);
  }
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}

// The rules of a gitattributes or gitignore file in the checkout (blank lines and comments are none), cut
// short; null when it has none. A link, a folder or a FIFO there counts as rules: it is read through
// descriptors without following a link (checkout-files.ts), so one swapped in after a check is never read
// through — its text goes into an error the agent reads.
function readRules(wt: string, rel: string): string | null {
  const read = readCheckoutFile(wt, rel, { maxBytes: 1024 * 1024 });
  if (read.kind === "missing") return null;
  if (read.kind === "refused") return `not a plain file: ${read.reason}`;
  const rules = read.bytes
    .toString("utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  return rules.length ? rules.slice(0, 3).join("; ").slice(0, 120) : null;
}

function isEmptyFolder(wt: string, relative: string): boolean {
  const where = path.join(wt, relative);
  return !!lstatOrNull(where)?.isDirectory() && fs.readdirSync(where).length === 0;
}

// Paths go to git on its command line, a few hundred at a time.
function chunksOf<T>(items: readonly T[], size = 200): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

let ownIndexes = 0;

// Runs `fn` with GIT_INDEX_FILE an index of the platform's, read from HEAD's tree. Not a copy of the
// worktree's index: that is the agent's to forge, and an entry whose saved file details match the file on
// disk makes git trust the file holds the entry's blob without reading it (so a tree or a status would
// show code the checks never ran). Read from a tree, no entry has file details: every file is read.
// Tracked files that match .gitignore stay tracked (they are HEAD's).
// Fills an index with HEAD's entries (no HEAD yet, a branch without commits: the index starts empty).
function fillFromHead(wt: string): (tmpIndex: string) => Promise<boolean> {
  return async (tmpIndex) =>
    (await gitCaptured(["read-tree", "HEAD"], { cwd: wt, env: { GIT_INDEX_FILE: tmpIndex } })).code === 0;
}

// Runs `fn` with GIT_INDEX_FILE an index of the platform's beside the checkout's, filled by `fill` (false:
// it could not, and the index starts empty).
// In a task's checkout (`isOwn`) every file the server makes or removes in .git is reached through descriptors
// of its folders, opened one by one without following a link (checkout-files.ts): .git is the run-as user's,
// and a link swapped in for .git or .git/info between two calls by path would have root write the saved
// attributes (the agent's text) in a folder of the agent's choosing, or remove there.
async function withOwnIndex<T>(
  wt: string,
  isOwn: boolean,
  fill: (tmpIndex: string) => Promise<boolean>,
  fn: (env: { GIT_INDEX_FILE: string }) => Promise<T>,
): Promise<T> {
  const index =
    indexFileOf(wt) ?? (await git(["rev-parse", "--path-format=absolute", "--git-path", "index"], { cwd: wt })).trim();
  // git writes it through a lock file and a rename, so a link planted at this name is replaced, not followed.
  // The name is not one an agent can tell beforehand, and one that something took is passed over: a folder
  // planted there is left, never walked.
  const tmpIndex = freeName(index);
  // Whatever is at that name goes when it is a file or a link (the link itself); a folder put there meanwhile
  // fails the read. A scratch worktree's index is in the task checkout's .git/worktrees: removed by name.
  const clear = () => {
    if (!isOwn) return fs.rmSync(tmpIndex, { force: true });
    const removed = removeCheckoutFile(wt, path.relative(wt, tmpIndex));
    if (removed.kind === "refused") throw new GitError(`the checkout's .git cannot be read: ${removed.reason}`);
  };
  // `ident` in a committed .gitattributes would read `$Id: anything $` as `$Id$`: an edit inside it would not
  // show. The repository's own info/attributes (checked to hold no rules, ownGitDirectory) outranks every
  // .gitattributes; it says `-ident` while Gatehouse reads, and is put back as it was.
  const attributesBefore = isOwn ? readOwnAttributes(wt) : null;
  try {
    clear();
    if (isOwn) replaceAttributes(wt, "* -ident\n");
    if (!(await fill(tmpIndex))) clear();
    return await fn({ GIT_INDEX_FILE: tmpIndex });
  } finally {
    // Both, whichever fails: the attributes go back even when the index cannot be removed.
    try {
      clear();
    } finally {
      if (isOwn) replaceAttributes(wt, attributesBefore);
    }
  }
}

// `base` with a suffix of this process's and a random one, at which nothing is.
function freeName(base: string): string {
  for (;;) {
    const name = `${base}.gatehouse-${process.pid}-${++ownIndexes}-${randomBytes(6).toString("hex")}`;
    if (!fs.lstatSync(name, { throwIfNoEntry: false })) return name;
  }
}

const ATTRIBUTES = ".git/info/attributes";

// The checkout's .git/info/attributes as it is (null: there is none), read without following a link.
function readOwnAttributes(wt: string): Buffer | null {
  const read = readCheckoutFile(wt, ATTRIBUTES, { maxBytes: 1024 * 1024 });
  if (read.kind === "refused") throw new GitError(`the checkout's .git cannot be read: ${read.reason}`);
  return read.kind === "file" ? read.bytes : null;
}

// Removes .git/info/attributes and, when `text` is given, makes it anew with that text (never through a link
// planted at the name or at a folder of it meanwhile: refused, and the checkout is not read).
function replaceAttributes(wt: string, text: string | Buffer | null): void {
  const removed = removeCheckoutFile(wt, ATTRIBUTES);
  const made =
    removed.kind === "refused" || text === null
      ? null
      : writeCheckoutFile(wt, ATTRIBUTES, text, { exclusive: true, ownedLikeRoot: true });
  const refused = removed.kind === "refused" ? removed : made?.kind === "refused" ? made : null;
  if (refused) throw new GitError(`the checkout's .git cannot be read: ${refused.reason}`);
}

// Resolves a check's cwd inside the checkout, refusing anything (symlinks included) that leaves it.
export function resolveInsideCheckout(wt: string, cwd: string | undefined): { path: string } | { error: string } {
  if (!cwd) return { path: wt };
  const where = resolveInside(wt, path.resolve(wt, cwd));
  if ("missing" in where) return { error: `cwd "${cwd}" does not exist in the checkout` };
  if ("outside" in where) return { error: `cwd "${cwd}" leaves the checkout (it resolves to ${where.outside})` };
  if ("refused" in where) return { error: `cwd "${cwd}": ${where.refused}` };
  if (!fs.statSync(where.real).isDirectory()) return { error: `cwd "${cwd}" is not a directory` };
  return { path: where.real };
}
