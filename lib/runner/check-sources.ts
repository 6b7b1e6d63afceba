// Check sources on disk (SPEC Part 2, "Check code out of the agent's reach"). When a run starts, before its
// agent, each source's ref is fetched into a cache of the run's (data/checks/<run>/cache, the server's
// alone) and its commit frozen into the run; the source's secret, if any, is used then and only then.
// After each agent step every source is cloned fresh from that cache at the frozen commit into
// data/checks/<run>/<attempt>/<name> (GATEHOUSE_CHECKS_DIR is the folder holding them), made read-only,
// and owned by the server's user, so a GATEHOUSE_RUN_AS user can read but never change it.
// All git goes through the platform's hardened git (checkout/git.ts), as the server's user.
import fs from "node:fs";
import path from "node:path";
import { type CheckSource, type FrozenCheckSource, isCommitId } from "../gates/check-sources";
import { resolveRepoUrl } from "./checkout/checkout";
import { git, gitOk } from "./checkout/git";
import type { RunAsUser } from "./run-as";
import { localRepositoryProblem } from "./checkout/local-repository";

const FROZEN_REF = "refs/heads/gatehouse-frozen";

export function runChecksDirOf(dataDir: string, runId: string): string {
  return path.join(dataDir, "checks", runId);
}

function cacheDirOf(dataDir: string, runId: string, name: string): string {
  return path.join(runChecksDirOf(dataDir, runId), "cache", `${name}.git`);
}

function attemptChecksDirOf(dataDir: string, runId: string, n: number): string {
  return path.join(runChecksDirOf(dataDir, runId), String(n));
}

// HTTP Basic credentials from a secret: "user:token" as written, a bare token as x-access-token:<token>
// (what GitHub, GitLab and Gitea accept for a token).
export function authorizationHeader(secret: string): string {
  const credentials = secret.includes(":") ? secret : `x-access-token:${secret}`;
  return `Authorization: Basic ${Buffer.from(credentials, "utf8").toString("base64")}`;
}

function nameOf(source: CheckSource): string {
  return `check source "${source.name}" (${source.url} at ${source.ref})`;
}

function gitMessage(error: unknown): string {
  return (error as Error).message.replace(/^git \S+ failed: /, "");
}

// Fetches each source whose commit is not frozen yet and freezes it; a source already frozen (a later
// attempt, a restart) is fetched again only if its cache lost the commit. Returns the sources with the
// commits resolved so far and, when one could not be reached at its ref, the reason naming it.
export async function freezeCheckSources(opts: {
  dataDir: string;
  runId: string;
  sources: readonly FrozenCheckSource[];
  secrets: Readonly<Record<string, string>>;
}): Promise<{ sources: FrozenCheckSource[]; error: string | null }> {
  const frozen: FrozenCheckSource[] = [];
  const fail = (index: number, error: string) => ({ sources: [...frozen, ...opts.sources.slice(index)], error });
  prepareRunDir(opts.dataDir, opts.runId);
  for (const [index, source] of opts.sources.entries()) {
    const cache = cacheDirOf(opts.dataDir, opts.runId, source.name);
    if (source.commit && (await hasCommit(cache, source.commit))) {
      frozen.push(source);
      continue;
    }
    if (source.secret !== undefined && !Object.hasOwn(opts.secrets, source.secret))
      return fail(index, `${nameOf(source)} names the secret ${source.secret}, which the Work no longer has`);
    // Checked again here, with realpath now: a path that became a link into the data dir since it was saved.
    const local = localRepositoryProblem(source.url, { dataDir: opts.dataDir, installDir: process.cwd() });
    if (local) return fail(index, `${nameOf(source)} is not cloned: its url ${local}`);
    try {
      const commit = await fetchIntoCache(cache, source, opts.secrets);
      if (source.commit && commit !== source.commit)
        return fail(index, `${nameOf(source)}: its frozen commit ${source.commit} is no longer in the source`);
      frozen.push({ ...source, commit });
    } catch (error) {
      fs.rmSync(cache, { recursive: true, force: true });
      return fail(index, `${nameOf(source)} could not be reached: ${gitMessage(error)}`);
    }
  }
  return { sources: frozen, error: null };
}

function prepareRunDir(dataDir: string, runId: string): void {
  // The user checks run as may pass through to its attempt's folder, but list nothing here (the cache is the
  // server's alone).
  const checksRoot = path.join(dataDir, "checks");
  fs.mkdirSync(checksRoot, { recursive: true, mode: 0o711 });
  fs.chmodSync(checksRoot, 0o711);
  const runDir = runChecksDirOf(dataDir, runId);
  fs.mkdirSync(path.join(runDir, "cache"), { recursive: true, mode: 0o700 });
  fs.chmodSync(runDir, 0o711);
  fs.chmodSync(path.join(runDir, "cache"), 0o700);
}

async function hasCommit(cache: string, commit: string): Promise<boolean> {
  if (!fs.existsSync(path.join(cache, "HEAD"))) return false;
  return gitOk(["cat-file", "-e", `${commit}^{commit}`], { cwd: cache, asServer: true });
}

// Into a fresh bare cache: the ref (or, for a commit id, every branch and tag, then the commit itself as a
// last try). The commit is kept as the cache's only branch, which the clones check out.
async function fetchIntoCache(
  cache: string,
  source: FrozenCheckSource,
  secrets: Readonly<Record<string, string>>,
): Promise<string> {
  fs.rmSync(cache, { recursive: true, force: true });
  await git(["init", "--bare", "--quiet", cache], { asServer: true });
  const url = resolveRepoUrl(source.url);
  const network = {
    cwd: cache,
    asServer: true,
    timeoutMs: 600_000,
    httpHeader: source.secret !== undefined ? authorizationHeader(secrets[source.secret]) : undefined,
  };
  const wanted = source.commit ?? (isCommitId(source.ref) ? source.ref : null);
  let commit: string;
  if (wanted) {
    await git(
      ["fetch", "--quiet", "--no-tags", "--", url, "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"],
      network,
    );
    if (!(await gitOk(["cat-file", "-e", `${wanted}^{commit}`], { cwd: cache, asServer: true })))
      await git(["fetch", "--quiet", "--no-tags", "--", url, wanted], network).catch(() => {
        throw new Error(`no commit ${wanted} in the source`);
      });
    commit = wanted;
  } else {
    await git(["fetch", "--quiet", "--no-tags", "--", url, source.ref], network).catch((error: Error) => {
      throw new Error(`no ref "${source.ref}" there, or the source is out of reach (${gitMessage(error)})`);
    });
    commit = (await git(["rev-parse", "--verify", "FETCH_HEAD^{commit}"], { cwd: cache, asServer: true })).trim();
  }
  await git(["update-ref", FROZEN_REF, commit], { cwd: cache, asServer: true });
  await git(["symbolic-ref", "HEAD", FROZEN_REF], { cwd: cache, asServer: true });
  return commit;
}

// A fresh clone of each source at its frozen commit, read-only, for one attempt's checks. Returns the
// folder holding them (GATEHOUSE_CHECKS_DIR), or the reason naming the source that could not be cloned.
export async function cloneCheckSources(opts: {
  dataDir: string;
  runId: string;
  n: number;
  sources: readonly FrozenCheckSource[];
  runAs: RunAsUser | null;
}): Promise<{ dir: string } | { error: string }> {
  const dir = attemptChecksDirOf(opts.dataDir, opts.runId, opts.n);
  removeReadOnlyTree(dir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const source of opts.sources) {
    const dest = path.join(dir, source.name);
    try {
      if (!source.commit) throw new Error("its commit was not frozen when the run started");
      const cache = cacheDirOf(opts.dataDir, opts.runId, source.name);
      await git(["clone", "--quiet", "--no-hardlinks", "--", cache, dest], { asServer: true, timeoutMs: 600_000 });
      // Checks see where the code came from, not the platform's cache.
      await git(["remote", "set-url", "origin", source.url], { cwd: dest, asServer: true });
      const head = (await git(["rev-parse", "HEAD"], { cwd: dest, asServer: true })).trim();
      if (head !== source.commit) throw new Error(`the clone is at ${head}, not the frozen ${source.commit}`);
    } catch (error) {
      return { error: `check source "${source.name}" could not be cloned: ${gitMessage(error)}` };
    }
  }
  makeReadOnly(dir);
  // With a run-as user: the server's, readable by that user's group, closed to everyone else.
  if (opts.runAs) {
    fs.chownSync(dir, process.getuid?.() ?? 0, opts.runAs.gid);
    fs.chmodSync(dir, 0o550);
  }
  return { dir };
}

// chmod a-w (and a+rX, whatever the server's umask) over the whole tree; symlinks are left as they are.
function makeReadOnly(root: string): void {
  const walk = (p: string) => {
    const stat = fs.lstatSync(p);
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(p)) walk(path.join(p, entry));
      fs.chmodSync(p, 0o555);
    } else fs.chmodSync(p, stat.mode & 0o111 ? 0o555 : 0o444);
  };
  walk(root);
}

// Removes a tree made read-only (the server's user may not be root, who alone ignores the modes).
export function removeReadOnlyTree(root: string): void {
  if (!fs.existsSync(root)) return;
  const walk = (p: string) => {
    const stat = fs.lstatSync(p);
    if (!stat.isDirectory()) return;
    fs.chmodSync(p, 0o700);
    for (const entry of fs.readdirSync(p)) walk(path.join(p, entry));
  };
  walk(root);
  fs.rmSync(root, { recursive: true, force: true });
}
