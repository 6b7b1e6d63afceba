// Test helper: a throwaway git repository (a commit on main) to use as a Work's repoUrl, and committing
// in it or in a task's worktree.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-repo-"));
  gitIn(dir, "init", "--quiet", `--initial-branch=${branch}`);
  const head = commitFiles(dir, files, "initial commit");
  return { dir, head, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
