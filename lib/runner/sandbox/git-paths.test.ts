import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitPathsOf } from "./git-paths";

let root: string;
let dataDir: string;
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "ignore" });

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-git-paths-")));
  dataDir = path.join(root, "data");
  const source = path.join(root, "source");
  fs.mkdirSync(source);
  git(source, "init", "-q", "-b", "main");
  git(source, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "start");
  fs.mkdirSync(path.join(dataDir, "repos"), { recursive: true });
  git(root, "clone", "-q", "--bare", source, path.join(dataDir, "repos", "w1.git"));
  git(path.join(dataDir, "repos", "w1.git"), "worktree", "add", "-q", path.join(dataDir, "worktrees", "t1"), "main");
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("gitPathsOf", () => {
  it("the worktree's git dir and the clone's objects, refs and logs writable; the clone itself read-only", () => {
    const clone = path.join(dataDir, "repos", "w1.git");
    expect(gitPathsOf(path.join(dataDir, "worktrees", "t1"), clone)).toEqual([
      { path: clone, mode: "ro" },
      { path: path.join(clone, "objects"), mode: "rw" },
      { path: path.join(clone, "refs"), mode: "rw" },
      // A bare clone has no reflogs: made for the commit's.
      { path: path.join(clone, "logs"), mode: "rw" },
      { path: path.join(clone, "worktrees", "t1"), mode: "rw" },
    ]);
  });

  it("a .git file rewritten to point at another Work's clone, or out of the data dir, opens nothing", () => {
    const clone = path.join(dataDir, "repos", "w1.git");
    const other = path.join(dataDir, "repos", "w2.git");
    git(root, "clone", "-q", "--bare", path.join(root, "source"), other);
    const wt = path.join(dataDir, "worktrees", "t2");
    fs.mkdirSync(wt, { recursive: true });
    for (const target of [other, path.join(other, "worktrees"), path.join(root, "source", ".git"), "/etc"]) {
      fs.writeFileSync(path.join(wt, ".git"), `gitdir: ${target}\n`);
      expect(gitPathsOf(wt, clone)).toEqual([]);
    }
  });
});
