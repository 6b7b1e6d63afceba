import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitPathsOf } from "./git-paths";

let root: string;
let task: string;
let scratch: string;
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "ignore" });

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-git-paths-")));
  task = path.join(root, "data", "worktrees", "t1");
  fs.mkdirSync(task, { recursive: true });
  git(task, "init", "-q", "-b", "main");
  git(task, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "start");
  scratch = path.join(root, "data", "scratch", "s1");
  git(task, "worktree", "add", "-q", "--detach", scratch, "main");
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("gitPathsOf", () => {
  it("a task's checkout is a repository of its own: git needs nothing outside it", () => {
    expect(gitPathsOf(task, task)).toEqual([]);
  });

  it("a scratch worktree of the task's checkout: its own git dir writable, the task's .git read-only", () => {
    expect(gitPathsOf(scratch, task)).toEqual([
      { path: path.join(task, ".git"), mode: "ro" },
      { path: path.join(task, ".git", "worktrees", "s1"), mode: "rw" },
    ]);
  });

  it("a scratch worktree of another task's checkout, or a .git file rewritten to point elsewhere, \
opens nothing", () => {
    const other = path.join(root, "data", "worktrees", "t2");
    fs.mkdirSync(other, { recursive: true });
    git(other, "init", "-q", "-b", "main");
    expect(gitPathsOf(scratch, other)).toEqual([]);
    const planted = path.join(root, "data", "scratch", "s2");
    fs.mkdirSync(planted, { recursive: true });
    for (const target of [path.join(task, ".git"), path.join(task, ".git", "worktrees"), "/etc"]) {
      fs.writeFileSync(path.join(planted, ".git"), `gitdir: ${target}\n`);
      expect(gitPathsOf(planted, task)).toEqual([]);
    }
  });

  // The `.git` file and the folder it names are the run-as user's: a FIFO in place of one of git's files would
  // hold the server's event loop for good if opened to be read (on a regression this test hangs: a blocked
  // event loop cannot time out in-process).
  it("a FIFO where git's commondir or gitdir file is expected opens nothing, and does not wait", () => {
    const planted = path.join(root, "data", "scratch", "s3");
    const gitDir = path.join(root, "data", "scratch", "s3-git");
    fs.mkdirSync(planted, { recursive: true });
    fs.mkdirSync(gitDir, { recursive: true });
    fs.writeFileSync(path.join(planted, ".git"), `gitdir: ${gitDir}\n`);
    execFileSync("mkfifo", [path.join(gitDir, "commondir"), path.join(gitDir, "gitdir")]);
    expect(gitPathsOf(planted, task)).toEqual([]);
  });
});
