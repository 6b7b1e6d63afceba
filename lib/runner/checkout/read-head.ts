// Reading a checkout's branch and commit from git's files instead of running git (each git process
// costs milliseconds a run repeats many times). Falls back to null when anything is unusual.
import fs from "node:fs";
import path from "node:path";
import { readPlainFile } from "./checkout-files";

// A plain file's text; null when it is missing or anything else (a link, a folder, a FIFO): these files are the
// run-as user's, who could swap one in between a look by path and the read (readPlainFile).
const read = (file: string): string | null => readPlainFile(file)?.bytes.toString("utf8") ?? null;

const exists = (file: string) => {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
};

// A ref's commit from git's files in these git dirs (loose, then packed); null when not found there, or when
// a loose ref is anything but a plain file holding a commit id (a symbolic ref, a link): git, asked instead,
// follows it, and packed-refs must not answer for a name git would read elsewhere.
export function resolveRef(dirs: string[], ref: string): string | null {
  for (const dir of dirs) {
    const file = path.join(dir, ref);
    if (!exists(file)) continue;
    const loose = read(file)?.trim();
    return loose && /^[0-9a-f]{40,64}$/.test(loose) ? loose : null;
  }
  for (const dir of dirs) {
    for (const line of (read(path.join(dir, "packed-refs")) ?? "").split("\n")) {
      const [sha, name] = line.trim().split(" ");
      if (name === ref && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
    }
  }
  return null;
}

// The git directory of a checkout: its own `.git` directory (a task's checkout), or the one a `.git` file
// points at (a scratch worktree). null when neither.
function gitDirOf(worktree: string): string | null {
  const dotGit = path.join(worktree, ".git");
  try {
    if (fs.lstatSync(dotGit).isDirectory()) return dotGit;
  } catch {
    return null;
  }
  const match = /^gitdir: (.+)$/m.exec(read(dotGit) ?? "");
  return match ? path.resolve(worktree, match[1].trim()) : null;
}

export function readWorktreeHead(worktree: string): { branch: string | null; commit: string } | null {
  const gitDir = gitDirOf(worktree);
  if (!gitDir) return null;
  const head = read(path.join(gitDir, "HEAD"))?.trim();
  if (!head) return null;
  const commonRel = read(path.join(gitDir, "commondir"))?.trim();
  const dirs = commonRel ? [gitDir, path.resolve(gitDir, commonRel)] : [gitDir];
  if (!head.startsWith("ref: ")) return /^[0-9a-f]{40,64}$/.test(head) ? { branch: null, commit: head } : null;
  const ref = head.slice(5);
  const commit = resolveRef(dirs, ref);
  return commit ? { branch: ref.replace(/^refs\/heads\//, ""), commit } : null;
}

// The index file of a checkout whose `.git` is a directory of its own; null otherwise (a `.git` file's
// pointer is not followed here: git, which checks where it leads, is asked instead).
export function indexFileOf(worktree: string): string | null {
  const dotGit = path.join(worktree, ".git");
  try {
    return fs.lstatSync(dotGit).isDirectory() ? path.join(dotGit, "index") : null;
  } catch {
    return null;
  }
}
