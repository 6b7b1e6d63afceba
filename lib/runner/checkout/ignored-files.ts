// Files git ignores are no part of the change: the commit that lands does not hold them, so the checks must
// not run on them. An agent could otherwise put the fix in a file a `.gitignore` of its own hides (even a
// `.gitignore` that ignores itself), or leave a stale `.pyc` or build output the checks load: every check
// passes, and the commit fails wherever it is checked out. Before the checks, every ignored file and folder
// is removed from the checkout — except the dependency folders (node_modules, .venv, venv), which are what
// was installed, not what was written.
import fs from "node:fs";
import path from "node:path";
import { git } from "./git";
import { DEPENDENCY_DIRS } from "./scratch";

// Removes what git ignores in the task checkout `wt` but the dependency folders and the `keep` paths
// (relative: the agent's evidence folder, a stage's output — files Gatehouse reads, never runs); returns
// what was removed (as git lists it: a folder whose files are all ignored once).
export async function removeIgnoredFiles(wt: string, keep: readonly string[] = []): Promise<string[]> {
  const listed = await git(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"], {
    cwd: wt,
  });
  const kept = new Set(keep.map((k) => path.posix.normalize(k).replace(/\/$/, "")));
  const removed: string[] = [];
  for (const entry of listed.split("\0")) {
    const rel = entry.replace(/\/$/, "");
    if (!rel || rel.split("/").includes("..") || path.isAbsolute(rel)) continue;
    if (removeKeeping(wt, rel, kept)) removed.push(rel);
  }
  return removed;
}

// A file or link goes; a folder is emptied (its dependency folders and kept paths kept) and goes when
// empty. Links are removed, never followed. True when anything was removed.
function removeKeeping(root: string, rel: string, kept: ReadonlySet<string>): boolean {
  if (DEPENDENCY_DIRS.has(path.posix.basename(rel)) || kept.has(rel)) return false;
  const abs = path.join(root, rel);
  const stat = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (!stat) return false;
  if (!stat.isDirectory()) {
    fs.rmSync(abs, { force: true });
    return true;
  }
  let any = false;
  for (const name of fs.readdirSync(abs)) any = removeKeeping(root, path.posix.join(rel, name), kept) || any;
  if (fs.readdirSync(abs).length === 0) {
    fs.rmdirSync(abs);
    return true;
  }
  return any;
}
