// A task's checkout is a repository of its own: its own objects, no alternates, no remote, holding only
// what the task should see of the Work's repository — its own branch (with the base commit's history) and
// the refs the Work's `visibleRefs` opens. It is filled from the Work's clone by fetching explicit refs, so
// no other branch, tag or later commit of the repository (nor another task's branch) is in it, by name or
// by object id. The task branch is carried back into the clone after each attempt (saveTaskBranch), where
// landing, the next checkout and everything else that reads the branch find it.
//
// The checkout's .git belongs to the agent (config, hooks, objects). The platform's git there is hardened
// (git.ts); carrying the branch back never runs git's transport inside it: upload-pack runs in a throwaway
// repository of the platform's whose only link to the checkout is an alternate to its object directory,
// and the clone checks every object it receives (fetch.fsckObjects).
// Call everything here under the Work's repository lock (checkout.ts), but for what stageTaskRepository
// leaves to its `finish`.
import fs from "node:fs";
import path from "node:path";
import { buildBasePack, seedFromBasePack } from "./base-packs";
import { readCheckoutFile, readCheckoutFolder, readPlainFile } from "./checkout-files";
import { git, GitError, gitCaptured } from "./git";
import { resolveRef } from "./read-head";
import { config } from "../../config/config";
import { pipeDirOf } from "../paths";
import { execCaptured } from "../process/exec-captured";
import { runAsFromEnv, type RunAsUser } from "../run-as";
import { isManagedCheckoutRef, selectVisibleRefs } from "./visible-refs";

const IDENTITY = "[user]\n\tname = Gatehouse agent\n\temail = agent@gatehouse.invalid\n";
const CORE_CONFIG =
  "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n";
// A new checkout's .git/config as Gatehouse writes it (its core settings and the platform's identity).
export const NEW_CHECKOUT_CONFIG = CORE_CONFIG + IDENTITY;
const FETCH = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head"];
const REFSPECS_PER_FETCH = 200;

// True when the checkout's .git is a directory of its own (not a pointer file, not a symlink).
export function isOwnRepository(checkoutPath: string): boolean {
  try {
    const dotGit = fs.lstatSync(path.join(checkoutPath, ".git"));
    return dotGit.isDirectory() && fs.existsSync(path.join(checkoutPath, ".git", "HEAD"));
  } catch {
    return false;
  }
}

// The paths outside a checkout that git needs to commit in it (for a sandbox to bind): none for a task's
// own repository. A scratch worktree (proof rows, review, red team) keeps its git data in the task
// checkout's .git; that directory is returned only when git's own back-link confirms the pair, so a `.git`
// file rewritten to point elsewhere never names another directory.
export function gitPathsOf(checkoutPath: string): string[] {
  const dotGit = path.join(checkoutPath, ".git");
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dotGit);
  } catch {
    return [];
  }
  if (stat.isDirectory() || !stat.isFile()) return [];
  // Files the run-as user could make FIFOs or links: read only when plain files (a FIFO would hold the event loop).
  const match = /^gitdir: (.+)$/m.exec(readPlainFile(dotGit, 64 * 1024)?.bytes.toString("utf8") ?? "");
  if (!match) return [];
  const gitDir = path.resolve(checkoutPath, match[1].trim());
  const read = (file: string) =>
    readPlainFile(path.join(gitDir, file), 64 * 1024)
      ?.bytes.toString("utf8")
      .trim() ?? null;
  const common = read("commondir");
  const backLink = read("gitdir");
  if (!common || !backLink || path.resolve(gitDir, backLink) !== dotGit) return [];
  const commonDir = path.resolve(gitDir, common);
  if (path.dirname(gitDir) !== path.join(commonDir, "worktrees")) return [];
  return [commonDir];
}

// Where a task branch starts in the clone, and its commit: the clone's own branch (the task committed
// before), the repository's branch of that name, else the base branch. One git process for all four.
async function sourceOf(repoDir: string, branch: string, baseBranch: string): Promise<{ ref: string; commit: string }> {
  const candidates = [
    `refs/heads/${branch}`,
    `refs/remotes/origin/${branch}`,
    `refs/remotes/origin/${baseBranch}`,
    `refs/heads/${baseBranch}`,
  ];
  const listed = await git(["for-each-ref", "--format=%(refname) %(objectname) %(objecttype)", ...candidates], {
    cwd: repoDir,
  });
  const found = new Map<string, string>();
  for (const line of listed.split("\n")) {
    const [ref, commit, type] = line.split(" ");
    if (type === "commit") found.set(ref, commit);
  }
  for (const ref of candidates) {
    const commit = found.get(ref);
    if (commit) return { ref, commit };
  }
  throw new GitError(`the base branch "${baseBranch}" does not exist in the repository`);
}

// The clone holds the task branch from the start (as a worktree's branch did): landing and the next
// checkout find it even before the first commit.
// Returns the branch's commit.
async function ensureCloneBranch(repoDir: string, branch: string, baseBranch: string): Promise<string> {
  const { ref, commit } = await sourceOf(repoDir, branch, baseBranch);
  if (ref !== `refs/heads/${branch}`) await git(["update-ref", `refs/heads/${branch}`, commit, ""], { cwd: repoDir });
  return commit;
}

// A new checkout at `dir` for `branch`: a fresh repository with the branch fetched from the clone and its
// files written. With `keepFiles` (a checkout whose .git was not its own: a worktree of the clone from
// before, or a pointer an agent planted) the files in `dir` are kept as the agent's changes.
// Made in two parts: this one, under the Work's lock, does all that reads or writes the clone and the kept
// packs (the task branch set in the clone, the repository seeded and filled from it, its visible refs); the
// `finish` it returns runs outside the lock and touches only the new repository and `dir` (the files
// written from the repository's own objects, the checkout moved into place), so the checkouts of one Work's
// runs started together are written side by side — for a large repository, most of a checkout's time.
export async function stageTaskRepository(opts: {
  repoDir: string;
  dir: string;
  branch: string;
  baseBranch: string;
  visibleRefs: readonly string[];
  keepFiles: boolean;
  // A folder only the server's user reaches, on the same file system as `dir` (the data dir's tmp).
  stagingDir: string;
}): Promise<{ finish: () => Promise<void> }> {
  const { repoDir, dir, branch } = opts;
  const tip = await ensureCloneBranch(repoDir, branch, opts.baseBranch);
  const target = opts.keepFiles ? dir : `${dir}.tmp-${process.pid}-${Date.now()}`;
  const dropTarget = () => (opts.keepFiles ? undefined : removeUsersTree(target).catch(() => undefined));
  // Kept files: their `.git` pointer is gone already (checkout.ts dropGitPointer), and the new one is moved in
  // without following a link (a `.git` planted again meanwhile fails the move, never is removed by path).
  if (!opts.keepFiles) await removeUsersTree(target);
  // A fresh repository (not the agent's kept files) is the platform's until it is renamed into place.
  const isOwnConfig = !opts.keepFiles;
  try {
    const seeded = await makeRepository({ ...opts, target, tip });
    // A kept pack of the branch's very commit holds all it reaches: nothing is left to fetch.
    if (seeded !== tip)
      await git([...FETCH, "--update-head-ok", repoDir, `+refs/heads/${branch}:refs/heads/${branch}`], {
        cwd: target,
        timeoutMs: 600_000,
        isOwnConfig,
      });
    // A new .git has no tag or remote ref (one branch fetched, no tags): only visible refs are to add.
    if (opts.visibleRefs.length > 0)
      await syncVisibleRefs({ repoDir, checkoutPath: target, visibleRefs: opts.visibleRefs });
  } catch (error) {
    await dropTarget();
    throw error;
  }
  return {
    finish: async () => {
      try {
        // Fresh: write the files. Kept: the files stay, the index becomes the branch's (changes show as changes).
        await git(opts.keepFiles ? ["reset", "--quiet"] : ["reset", "--hard", "--quiet"], { cwd: target, isOwnConfig });
        if (!opts.keepFiles) {
          await removeUsersTree(dir);
          fs.renameSync(target, dir);
        }
      } catch (error) {
        await dropTarget();
        throw error;
      }
    },
  };
}

// Removes a file or tree in a folder the run-as user owns (a stale checkout, a half-made one). With such a
// user, `rm -rf` runs as that user: the tree is theirs, and a link they put in it, or swap in while it is
// walked, reaches only what they may remove anyway — the server's own recursive removal walks by path, and a
// link swapped in between two of its steps would have root empty the folder it leads to. Anything but a
// folder is unlinked (a link itself, never what it leads to). Without a run-as user, the server's own. The
// path's parent must be a folder of the data dir's (worktrees, repos), which that user cannot replace.
export async function removeUsersTree(p: string): Promise<void> {
  const runAs = runAsFromEnv();
  if (!runAs) return fs.rmSync(p, { recursive: true, force: true });
  const stat = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!stat) return;
  if (!stat.isDirectory()) return fs.unlinkSync(p);
  const { dataDir } = config();
  await rmRf(p, ["--"], runAs);
  if (!fs.lstatSync(p, { throwIfNoEntry: false })) return;
  // What that user may not remove (a folder the server made in a checkout): the tree is moved whole into the
  // server's own tmp (one rename; its parent is not the user's to swap) and removed there.
  const trash = path.join(
    dataDir,
    "tmp",
    `removed-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  );
  fs.renameSync(p, trash);
  await removeServersTree(trash);
}

// Removes a tree in one of the server's own folders (data/tmp, relays, base-packs) that may hold a tree the
// run-as user made — one moved there by removeUsersTree, where a process of that user whose working folder is
// inside can still reach it. With such a user the removal is coreutils' `rm -rf` as the server (it opens each
// folder relative to the one above and checks it is the one it looked at, so a link swapped in is never
// followed), not Node's recursive removal, which walks by path. Without one, the server's own.
export async function removeServersTree(p: string): Promise<void> {
  if (!runAsFromEnv()) return fs.promises.rm(p, { recursive: true, force: true });
  const ran = await rmRf(p, ["--one-file-system", "--"], null);
  if (fs.lstatSync(p, { throwIfNoEntry: false }))
    throw new Error(`${p} could not be removed: ${ran.stderr.trim() || `rm exited ${ran.code}`}`);
}

// coreutils' `rm -rf` of `p`, as `runAs` (null: the server), through the spawner.
function rmRf(p: string, flags: readonly string[], runAs: RunAsUser | null) {
  return execCaptured("rm", ["-rf", ...flags, p], {
    cwd: "/",
    env: { PATH: "/usr/bin:/bin" },
    pipeDir: pipeDirOf(config().dataDir),
    timeoutMs: 600_000,
    runAs,
  });
}

// The new repository's .git, laid out by hand (as `git init --template=` would: initRepository) with the
// platform's identity and, from a kept pack of an earlier commit of this history, its branch pointing there, so
// the fetch that follows negotiates from it and brings only the rest; returns that commit. With a run-as user,
// who owns the worktrees folder (and, with keepFiles, the checkout), it is made in the staging folder only the
// server reaches, handed to that user as a whole and then moved into place with one rename: root never writes
// or chowns a path in a folder where a process of that user could meanwhile have put a link.
async function makeRepository(o: {
  repoDir: string;
  dir: string;
  target: string;
  branch: string;
  tip: string;
  keepFiles: boolean;
  stagingDir: string;
}): Promise<string | null> {
  const runAs = runAsFromEnv();
  let staged: string | null = null;
  if (runAs) {
    fs.mkdirSync(o.stagingDir, { recursive: true, mode: 0o700 });
    staged = fs.mkdtempSync(path.join(o.stagingDir, "repo-"));
  }
  try {
    const made = staged ? path.join(staged, "repo") : o.target;
    if (staged || !o.keepFiles) fs.mkdirSync(made, { mode: 0o755 });
    const gitDir = path.join(made, ".git");
    layOutGitDir(gitDir, o.branch);
    fs.appendFileSync(path.join(gitDir, "config"), IDENTITY);
    let seeded = await seedFromBasePack({ repoDir: o.repoDir, gitDir, tip: o.tip });
    if (!seeded) {
      await buildBasePack({ repoDir: o.repoDir, tip: o.tip });
      seeded = await seedFromBasePack({ repoDir: o.repoDir, gitDir, tip: o.tip });
    }
    if (seeded) {
      const ref = path.join(gitDir, "refs", "heads", o.branch);
      fs.mkdirSync(path.dirname(ref), { recursive: true });
      fs.writeFileSync(ref, `${seeded}\n`);
    }
    if (staged && runAs) {
      giveTree(made, runAs);
      if (o.keepFiles) moveIntoFolder(gitDir, o.dir, ".git");
      else fs.renameSync(made, o.target);
    }
    return seeded;
  } finally {
    if (staged) fs.rmSync(staged, { recursive: true, force: true });
  }
}

// Hands a tree the server made where nobody else reaches to the run-as user, links included as links.
function giveTree(dir: string, user: RunAsUser): void {
  fs.lchownSync(dir, user.uid, user.gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) giveTree(p, user);
    else fs.lchownSync(p, user.uid, user.gid);
  }
}

// Renames `from` to `folder`/`name` with `folder` opened without following a link: the folder belongs to the
// run-as user, who could have swapped it for a link to somewhere else.
function moveIntoFolder(from: string, folder: string, name: string): void {
  const fd = fs.openSync(folder, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  try {
    fs.renameSync(from, `/proc/self/fd/${fd}/${name}`);
  } finally {
    fs.closeSync(fd);
  }
}

// A new repository at `dir` (which must not exist), on `branch`, laid out as `git init --template=` lays it out
// (no template: no sample hooks, nothing the platform did not choose) — without starting git (one process
// fewer for every new task). The server's own, in a folder no other user can write.
export function initRepository(dir: string, branch: string): void {
  fs.mkdirSync(dir, { mode: 0o755 });
  layOutGitDir(path.join(dir, ".git"), branch);
}

function layOutGitDir(gitDir: string, branch: string): void {
  fs.mkdirSync(gitDir, { mode: 0o755 });
  for (const sub of ["objects", "objects/info", "objects/pack", "refs", "refs/heads", "refs/tags"])
    fs.mkdirSync(path.join(gitDir, sub), { mode: 0o755 });
  const files: [string, string][] = [
    ["HEAD", `ref: refs/heads/${branch}\n`],
    ["config", CORE_CONFIG],
  ];
  for (const [name, text] of files) fs.writeFileSync(path.join(gitDir, name), text, { flag: "wx", mode: 0o644 });
}

// Puts the checkout on `branch`, fetching it from the clone when the checkout does not have it yet.
export async function switchTaskBranch(opts: {
  repoDir: string;
  checkoutPath: string;
  branch: string;
  baseBranch: string;
}): Promise<void> {
  const { repoDir, checkoutPath, branch } = opts;
  const has = await gitCaptured(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`], {
    cwd: checkoutPath,
  });
  if (has.code !== 0) {
    await ensureCloneBranch(repoDir, branch, opts.baseBranch);
    await git([...FETCH, repoDir, `+refs/heads/${branch}:refs/heads/${branch}`], {
      cwd: checkoutPath,
      timeoutMs: 600_000,
    });
  }
  await git(["checkout", "--quiet", branch], { cwd: checkoutPath });
}

// Moves the checkout's task branch to `commit`, which the clone's task branch already points at: the
// branch is fetched from the clone (only what it holds, as every fill of a checkout is), then the files are
// made the commit's (files it does not have removed; ignored ones such as node_modules stay).
export async function moveTaskBranch(opts: {
  repoDir: string;
  checkoutPath: string;
  branch: string;
  commit: string;
}): Promise<void> {
  const { repoDir, checkoutPath, branch, commit } = opts;
  await git([...FETCH, "--update-head-ok", repoDir, `+refs/heads/${branch}:refs/heads/${branch}`], {
    cwd: checkoutPath,
    timeoutMs: 600_000,
  });
  await git(["checkout", "--quiet", "--force", branch], { cwd: checkoutPath });
  await git(["reset", "--hard", "--quiet", commit], { cwd: checkoutPath });
  await git(["clean", "-d", "--force", "--quiet"], { cwd: checkoutPath });
}

// True when the checkout holds refs the platform manages (tags, remote branches): the fast path of a
// prepare with no visibleRefs checks this from git's files alone. They are the run-as user's: read by
// descriptors from the checkout's folder (no link followed, no FIFO waited on); anything refused answers true,
// so the refs are synced by git.
export function hasManagedRefs(checkoutPath: string): boolean {
  const nonEmpty = (rel: string, depth = 0): boolean => {
    const listed = readCheckoutFolder(checkoutPath, rel);
    if (listed.kind === "missing") return false;
    if (listed.kind === "refused" || depth > 32) return true;
    return listed.entries.some((e) => !e.isDirectory() || nonEmpty(`${rel}/${e.name}`, depth + 1));
  };
  if (nonEmpty(".git/refs/tags") || nonEmpty(".git/refs/remotes")) return true;
  const packed = readCheckoutFile(checkoutPath, ".git/packed-refs", { maxBytes: 512 * 1024 * 1024 });
  if (packed.kind === "missing") return false;
  return packed.kind === "refused" || / refs\/(tags|remotes)\//.test(packed.bytes.toString("utf8"));
}

// Makes the checkout's tags and remote branches exactly the ones visibleRefs opens, as the clone has them.
export async function syncVisibleRefs(opts: {
  repoDir: string;
  checkoutPath: string;
  visibleRefs: readonly string[];
}): Promise<void> {
  const { repoDir, checkoutPath } = opts;
  const listRefs = async (cwd: string) =>
    (await git(["for-each-ref", "--format=%(objectname) %(refname)", "refs/tags/", "refs/remotes/"], { cwd }))
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [sha, ref] = line.split(" ");
        return { sha, ref };
      });
  const cloneRefs = opts.visibleRefs.length > 0 ? await listRefs(repoDir) : [];
  const cloneSha = new Map(cloneRefs.map((r) => [r.ref, r.sha]));
  const wanted = selectVisibleRefs(
    opts.visibleRefs,
    cloneRefs.map((r) => r.ref),
  );
  const had = new Map(
    (await listRefs(checkoutPath)).filter((r) => isManagedCheckoutRef(r.ref)).map((r) => [r.ref, r.sha]),
  );
  const wantedNames = new Set(wanted.map((r) => r.checkout));
  const stale = [...had.keys()].filter((ref) => !wantedNames.has(ref));
  const staleTags = stale.filter((r) => r.startsWith("refs/tags/")).map((r) => r.slice("refs/tags/".length));
  const staleRemotes = stale.filter((r) => r.startsWith("refs/remotes/")).map((r) => r.slice("refs/remotes/".length));
  if (staleTags.length > 0) await git(["tag", "--delete", ...staleTags], { cwd: checkoutPath });
  if (staleRemotes.length > 0) await git(["branch", "--quiet", "-r", "-D", ...staleRemotes], { cwd: checkoutPath });
  const fetches = wanted.filter((r) => had.get(r.checkout) !== cloneSha.get(r.clone));
  for (let i = 0; i < fetches.length; i += REFSPECS_PER_FETCH) {
    const refspecs = fetches.slice(i, i + REFSPECS_PER_FETCH).map((r) => `+${r.clone}:${r.checkout}`);
    await git([...FETCH, repoDir, ...refspecs], { cwd: checkoutPath, timeoutMs: 600_000 });
  }
}

// Carries the checkout's task branch into the clone (forced: an agent may rewrite its branch). Returns the
// branch's commit, or null when the checkout has no such branch (nothing to carry).
// Folders 0755 and files 0644 whatever the umask: the run-as user's git reads the relay.
function readableByAll(dir: string): void {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) readableByAll(p);
    else fs.chmodSync(p, 0o644);
  }
}

// <data dir>/relays, beside <data dir>/repos.
function relaysDirOf(repoDir: string): string {
  return path.join(path.dirname(path.dirname(repoDir)), "relays");
}

export async function saveTaskBranch(opts: {
  repoDir: string;
  checkoutPath: string;
  branch: string;
}): Promise<string | null> {
  const { repoDir, checkoutPath, branch } = opts;
  if (!isOwnRepository(checkoutPath))
    throw new GitError(`the checkout's .git is not a repository of its own; the branch "${branch}" was not saved`);
  const objects = path.join(checkoutPath, ".git", "objects");
  if (fs.existsSync(path.join(objects, "info", "alternates")))
    throw new GitError(
      `the checkout's repository borrows objects from elsewhere (.git/objects/info/alternates); the ` +
        `branch "${branch}" was not saved`,
    );
  const ref = `refs/heads/${branch}`;
  // Read from the files when they are plain (the usual case costs no git process), else ask git.
  let commit = resolveRef([path.join(checkoutPath, ".git")], ref);
  if (!commit) {
    const tip = await gitCaptured(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd: checkoutPath });
    if (tip.code !== 0) return null;
    commit = tip.stdout.trim();
  }
  if (resolveRef([repoDir], ref) === commit) return commit;
  // A bare repository made by hand (no git process, no template): the platform's config, one ref, and the
  // checkout's objects as an alternate. upload-pack runs here, never in the checkout's repository. It is made
  // in the server's folder of relays (which the run-as user may read, to fetch from, but not write), so no
  // process of that user can put a link where the server writes it.
  const relays = relaysDirOf(repoDir);
  if (fs.mkdirSync(relays, { recursive: true }) !== undefined) fs.chmodSync(relays, 0o711);
  const relay = fs.mkdtempSync(path.join(relays, "save-"));
  try {
    fs.mkdirSync(path.join(relay, "objects", "info"), { recursive: true });
    fs.mkdirSync(path.join(relay, "refs", "heads"), { recursive: true });
    fs.writeFileSync(path.join(relay, "HEAD"), "ref: refs/heads/task\n");
    fs.writeFileSync(path.join(relay, "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = true\n");
    fs.writeFileSync(path.join(relay, "refs", "heads", "task"), `${commit}\n`);
    fs.writeFileSync(path.join(relay, "objects", "info", "alternates"), `${fs.realpathSync(objects)}\n`);
    readableByAll(relay);
    await git([...FETCH, relay, `+refs/heads/task:refs/heads/${branch}`], {
      cwd: repoDir,
      timeoutMs: 600_000,
      config: [["fetch.fsckObjects", "true"]],
    });
  } finally {
    fs.rmSync(relay, { recursive: true, force: true });
  }
  return commit;
}
