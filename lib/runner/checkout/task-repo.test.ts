// A new task's repository is made without starting git (task-repo.ts initRepository): it must be the
// repository `git init --template=` makes, file for file, and one git works in as in its own.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasManagedRefs, initRepository } from "./task-repo";

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-init-"));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// Every path under `dir` with its type, permissions and (for files) its text.
function layoutOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const abs = path.join(dir, rel);
    const stat = fs.lstatSync(abs);
    const mode = (stat.mode & 0o777).toString(8);
    if (stat.isDirectory()) {
      out.push(`${rel}/ ${mode}`);
      for (const name of fs.readdirSync(abs).sort()) walk(path.join(rel, name));
    } else out.push(`${rel} ${mode} ${JSON.stringify(fs.readFileSync(abs, "utf8"))}`);
  };
  walk(".");
  return out;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t.invalid", ...args], { cwd, encoding: "utf8" }).trim();

describe("initRepository", () => {
  it("lays a repository out as `git init --template=` does, on the branch given", () => {
    const byGit = path.join(root, "by-git");
    const byHand = path.join(root, "by-hand");
    execFileSync("git", ["init", "--quiet", "--template=", "--initial-branch=gatehouse/task-9", byGit]);
    initRepository(byHand, "gatehouse/task-9");
    expect(layoutOf(byHand)).toEqual(layoutOf(byGit));
  });

  it("is a repository git commits in, on that branch", () => {
    const dir = path.join(root, "works");
    initRepository(dir, "gatehouse/task-10");
    fs.writeFileSync(path.join(dir, "a.txt"), "a\n");
    git(dir, "add", "a.txt");
    git(dir, "commit", "--quiet", "-m", "first");
    expect(git(dir, "rev-parse", "--abbrev-ref", "HEAD")).toBe("gatehouse/task-10");
    expect(git(dir, "rev-parse", "--show-toplevel")).toBe(fs.realpathSync(dir));
    expect(git(dir, "fsck", "--strict")).toBe("");
  });

  it("refuses a folder that is already there (it never writes into another repository)", () => {
    const dir = path.join(root, "there");
    fs.mkdirSync(dir);
    expect(() => initRepository(dir, "main")).toThrow(/EEXIST/);
  });
});

// A checkout's .git is the run-as user's: a FIFO in place of packed-refs must not hold the server's event loop
// (on a regression this test hangs: a blocked event loop cannot time out in-process).
describe("hasManagedRefs", () => {
  it("reads packed-refs only when it is a plain file: a FIFO there is not waited on (git syncs the refs)", () => {
    const wt = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-managed-refs-"));
    try {
      initRepository(path.join(wt, "checkout"), "main");
      const gitDir = path.join(wt, "checkout", ".git");
      fs.writeFileSync(path.join(gitDir, "packed-refs"), `# pack-refs\n${"a".repeat(40)} refs/tags/v1\n`);
      expect(hasManagedRefs(path.join(wt, "checkout"))).toBe(true);
      fs.rmSync(path.join(gitDir, "packed-refs"));
      execFileSync("mkfifo", [path.join(gitDir, "packed-refs")]);
      expect(hasManagedRefs(path.join(wt, "checkout"))).toBe(true);
    } finally {
      fs.rmSync(wt, { recursive: true, force: true });
    }
  });
});
