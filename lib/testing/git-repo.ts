// Test helper: a throwaway git repository (a commit on main) to use as a Work's repoUrl, and committing
// in it or in a task's worktree.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { scratchDir } from "./scratch";

const GIT_ENV = {
  GIT_AUTHOR_NAME: "Gatehouse test",
  GIT_AUTHOR_EMAIL: "test@gatehouse.invalid",
  GIT_COMMITTER_NAME: "Gatehouse test",
  GIT_COMMITTER_EMAIL: "test@gatehouse.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
};

export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd: dir,
    env: { ...process.env, ...GIT_ENV },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

// Writes the files (path → content; null deletes), stages everything and commits. Returns the new HEAD.
export function commitFiles(dir: string, files: Record<string, string | null>, message = "test change"): string {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    if (content === null) fs.rmSync(file, { force: true });
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
  }
  gitIn(dir, "add", "-A");
  gitIn(dir, "commit", "--quiet", "--allow-empty", "-m", message);
  return gitIn(dir, "rev-parse", "HEAD");
}

export type TestRepo = { dir: string; head: string; cleanup: () => void };

export function makeGitRepo(
  files: Record<string, string> = { "README.md": "a test repository\n" },
  branch = "main",
): TestRepo {
  const dir = scratchDir("gatehouse-repo-");
  // Readable by every user (mkdtemp makes it private): the sandbox's user clones it, as a Work's repository
  // on a server would be.
  fs.chmodSync(dir, 0o755);
  gitIn(dir, "init", "--quiet", `--initial-branch=${branch}`);
  const head = commitFiles(dir, files, "initial commit");
  return { dir, head, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// A bare repository (what a real remote is: pushes to its branches are accepted), made from a first commit
// of the files. `hook` installs a pre-receive hook (e.g. a protected branch that refuses every push).
export function makeBareRepo(
  files: Record<string, string> = { "README.md": "a test repository\n" },
  opts: { preReceive?: string } = {},
): TestRepo {
  const seed = makeGitRepo(files);
  const dir = `${seed.dir}.git`;
  gitIn(path.dirname(dir), "clone", "--quiet", "--bare", seed.dir, dir);
  seed.cleanup();
  if (opts.preReceive) fs.writeFileSync(path.join(dir, "hooks", "pre-receive"), opts.preReceive, { mode: 0o755 });
  return { dir, head: seed.head, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// Another person's change pushed straight to a branch of a remote (through a throwaway clone).
export function pushToRemote(remote: string, branch: string, files: Record<string, string | null>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-push-"));
  try {
    gitIn(dir, "clone", "--quiet", "--branch", branch, remote, ".");
    const head = commitFiles(dir, files, "a change pushed by someone else");
    gitIn(dir, "push", "--quiet", "origin", `HEAD:refs/heads/${branch}`);
    return head;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
