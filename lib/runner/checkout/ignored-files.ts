// Files git ignores are no part of the change: the commit that lands does not hold them, so the checks must
// not run on them. An agent could otherwise put the fix in a file a `.gitignore` of its own hides (even a
// `.gitignore` that ignores itself), or leave a stale `.pyc` or build output the checks load: every check
// passes, and the commit fails wherever it is checked out. Before the checks, every ignored file and folder
// is removed from the checkout — except the dependency folders where the project installs them
// (node_modules, .venv, venv at the root or beside a manifest the start commit holds: package.json,
// pyproject.toml, requirements.txt, setup.py, setup.cfg, Pipfile), which are what was installed, not what
// was written. A `src/node_modules/lower` holding the fix is no install, and goes.
import path from "node:path";
import { git, GitError } from "./git";
import { lstatCheckoutEntry, readCheckoutFolder, removeCheckoutTree } from "./checkout-files";

const DEPENDENCY_DIRS: ReadonlySet<string> = new Set(["node_modules", ".venv", "venv"]);
const MANIFESTS = new Set(["package.json", "pyproject.toml", "requirements.txt", "setup.py", "setup.cfg", "Pipfile"]);

// What the start commit says of the checkout, read from the Work's clone at `repoDir` (the checkout's objects
// are the agent's): the folders ("" the root) where a dependency folder is an install (the root and those
// holding a manifest), and the paths of its submodules.
type StartTreeFacts = { dependencyHomes: ReadonlySet<string>; submodules: ReadonlySet<string> };

// A commit's tree never changes: read once per run's start commit (each attempt of a run asks again), the
// last few kept.
const factsRead = new Map<string, Promise<StartTreeFacts>>();
const FACTS_KEPT = 32;

export function startTreeFacts(repoDir: string, commit: string): Promise<StartTreeFacts> {
  // Only a commit id names the same tree for ever (a ref such as HEAD moves).
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return readStartTreeFacts(repoDir, commit);
  const key = `${repoDir}\0${commit}`;
  let read = factsRead.get(key);
  if (!read) {
    read = readStartTreeFacts(repoDir, commit);
    // A failed read is not kept: the next attempt asks git again.
    read.catch(() => factsRead.delete(key));
    factsRead.set(key, read);
    if (factsRead.size > FACTS_KEPT) factsRead.delete(factsRead.keys().next().value!);
  }
  return read;
}

async function readStartTreeFacts(repoDir: string, commit: string): Promise<StartTreeFacts> {
  const listed = await git(["ls-tree", "-r", "-z", commit], { cwd: repoDir, timeoutMs: 600_000 });
  const dependencyHomes = new Set([""]);
  const submodules = new Set<string>();
  for (const entry of listed.split("\0")) {
    const file = entry.slice(entry.indexOf("\t") + 1);
    if (entry.startsWith("160000 ")) submodules.add(file);
    else if (MANIFESTS.has(path.posix.basename(file)))
      dependencyHomes.add(path.posix.dirname(file).replace(/^\.$/, ""));
  }
  return { dependencyHomes, submodules };
}

// Whether `rel` (checkout-relative) is a dependency folder where the project installs one.
export function isInstalledDependency(rel: string, homes: ReadonlySet<string>): boolean {
  return DEPENDENCY_DIRS.has(path.posix.basename(rel)) && homes.has(path.posix.dirname(rel).replace(/^\.$/, ""));
}

const LIST = ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"];

type Kept = { homes: ReadonlySet<string>; files: ReadonlySet<string> };

// Removes what git ignores in the task checkout `wt` but the installed dependency folders (`homes`) and the
// `files` kept (a stage's output: a regular file Gatehouse reads); then lists again and throws when anything
// else is left (a path too long to remove, a listing cut short): the caller must not run the checks on it.
// Returns what was removed (as git lists it: a fully ignored folder once).
export async function removeIgnoredFiles(
  wt: string,
  homes: ReadonlySet<string>,
  files: readonly string[] = [],
): Promise<string[]> {
  const kept: Kept = { homes, files: new Set(files.map((f) => path.posix.normalize(f))) };
  const removed: string[] = [];
  const listed = entriesOf(await git(LIST, { cwd: wt }));
  for (const rel of listed) if (removeKeeping(wt, rel, kept)) removed.push(rel);
  // Listed again when there was anything to remove (a listing of kept paths alone stands as it is).
  const isAllKept = removed.length === 0 && listed.every((rel) => isKeptEntry(wt, rel, kept));
  const left = isAllKept ? [] : entriesOf(await git(LIST, { cwd: wt })).filter((rel) => !isKeptEntry(wt, rel, kept));
  if (left.length > 0)
    throw new GitError(
      `files git ignores could not be removed before the checks: ${left.slice(0, 3).join(", ")}` +
        (left.length > 3 ? ` and ${left.length - 3} more` : ""),
    );
  return removed;
}

function entriesOf(listed: string): string[] {
  return listed
    .split("\0")
    .map((entry) => entry.replace(/\/$/, ""))
    .filter((rel) => rel && !rel.split("/").includes("..") && !path.isAbsolute(rel));
}

// The names in root/rel, reached by descriptors (null: not a folder there, or one reached through a link).
function namesIn(root: string, rel: string): string[] | null {
  const listed = readCheckoutFolder(root, rel);
  return listed.kind === "folder" ? listed.entries.map((d) => d.name) : null;
}

// Left after the removal and rightly so: an installed dependency folder, or a folder holding only such. (A
// path that cannot be reached without a link is not: the caller refuses to run the checks on it.)
function isKeptEntry(root: string, rel: string, kept: Kept): boolean {
  if (isInstalledDependency(rel, kept.homes)) return true;
  const stat = lstatCheckoutEntry(root, rel);
  if (stat === null) return true;
  if ("reason" in stat) return false;
  if (stat.isFile()) return kept.files.has(rel);
  const names = stat.isDirectory() ? namesIn(root, rel) : null;
  return names?.every((name) => isKeptEntry(root, path.posix.join(rel, name), kept)) ?? false;
}

// A file or link goes; a folder is emptied (its installed dependency folders kept) and goes when empty.
// Links are removed, never followed, and every step is taken by descriptors from the checkout's folder: the
// run-as user's processes may swap a folder for a link meanwhile (what cannot be reached without one stays,
// and the listing after says so). True when anything was removed.
function removeKeeping(root: string, rel: string, kept: Kept): boolean {
  return removeCheckoutTree(
    root,
    rel,
    (at, stat) => isInstalledDependency(at, kept.homes) || (stat.isFile() && kept.files.has(at)),
  );
}
