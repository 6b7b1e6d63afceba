// What git needs, outside a worktree, to commit in it: the worktree's own git dir (HEAD, index, logs) and
// the clone's objects and refs — writable — and the rest of the clone read-only. The clone's config,
// hooks and info stay read-only, so a command cannot plant a hook or a config for the next one (the
// platform's own git ignores both anyway: checkout/git.ts). Read from the worktree's `.git` file, never
// guessed, and only the run's own Work's clone is opened: a `.git` file the agent rewrote to point elsewhere
// (another Work's clone, the system) opens nothing. ("isolation" makes the checkout self-contained later:
// then only this changes.)
import fs from "node:fs";
import path from "node:path";
import type { SandboxMount } from "./policy";

const WRITABLE_IN_COMMON = ["objects", "refs", "logs"];

export function gitPathsOf(checkout: string, clone: string): SandboxMount[] {
  const gitDir = worktreeGitDir(checkout);
  const cloneDir = realPath(clone);
  if (!gitDir || !cloneDir || !isInside(gitDir, cloneDir)) return [];
  const commonFile = path.join(gitDir, "commondir");
  const common = realPath(
    fs.existsSync(commonFile) ? path.resolve(gitDir, fs.readFileSync(commonFile, "utf8").trim()) : gitDir,
  );
  if (common !== cloneDir) return [];
  const mounts: SandboxMount[] = [{ path: common, mode: "ro" }];
  for (const name of WRITABLE_IN_COMMON) {
    const p = path.join(common, name);
    // A bare clone has no reflogs yet, and a commit in its worktree writes one: made here, the clone owner's.
    if (!fs.existsSync(p)) {
      const owner = fs.statSync(common);
      fs.mkdirSync(p);
      fs.chownSync(p, owner.uid, owner.gid);
    }
    if (isDirectory(p)) mounts.push({ path: p, mode: "rw" });
  }
  if (gitDir !== common) mounts.push({ path: gitDir, mode: "rw" });
  return mounts;
}

// The git dir a worktree's `.git` file names (`gitdir: …`); null for a plain clone or no git at all.
function worktreeGitDir(checkout: string): string | null {
  const dotGit = path.join(checkout, ".git");
  const stat = fs.lstatSync(dotGit, { throwIfNoEntry: false });
  if (!stat?.isFile()) return null;
  const line = fs.readFileSync(dotGit, "utf8").split("\n")[0] ?? "";
  const match = /^gitdir: (.+)$/.exec(line.trim());
  if (!match) return null;
  return realPath(path.resolve(checkout, match[1]));
}

function isInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

function realPath(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

function isDirectory(p: string): boolean {
  return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
