// What goes before the checks: every file git ignores but the dependency folders where the project installs
// them and a stage's output. A real repository, the platform's git.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gitIn, makeGitRepo } from "../../testing/git-repo";
import { removeIgnoredFiles, startTreeFacts } from "./ignored-files";

const repo = makeGitRepo({
  ".gitignore": "node_modules/\n.venv/\n.gatehouse/\ndist/\n*.pyc\nplan/\n",
  "src/title.js": "module.exports = (s) => s;\n",
  "pkg/package.json": "{}\n",
});
afterAll(() => repo.cleanup());

const write = (rel: string, text = "x\n") => {
  fs.mkdirSync(path.dirname(path.join(repo.dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(repo.dir, rel), text);
};
const exists = (rel: string) => fs.existsSync(path.join(repo.dir, rel));

describe("removeIgnoredFiles", () => {
  it("removes ignored files and folders, a self-ignoring .gitignore and a dependency folder where nothing is \
installed too, keeping installed dependency folders, a stage's output and tracked files", async () => {
    write("dist/tracked.js");
    gitIn(repo.dir, "add", "-f", "dist/tracked.js");
    gitIn(repo.dir, "commit", "-qm", "a tracked file under an ignored folder");
    const homes = (await startTreeFacts(path.join(repo.dir, ".git"), "HEAD")).dependencyHomes;
    expect([...homes].sort()).toEqual(["", "pkg"]);
    for (const rel of [
      "node_modules/runner/index.js",
      "pkg/node_modules/dep/index.js",
      "src/node_modules/lower/index.js",
      ".venv/lib/site.py",
      "dist/bundle.js",
      "src/__pycache__/title.cpython-311.pyc",
      ".gatehouse/evidence.md",
      "plan/out.md",
      "plan/other.md",
      "src/title",
    ])
      write(rel);
    write("src/.gitignore", "/title\n/.gitignore\n");
    fs.symlinkSync("/etc", path.join(repo.dir, "dist", "link"));

    const removed = await removeIgnoredFiles(repo.dir, homes, ["plan/out.md"]);

    for (const gone of [
      "dist/bundle.js",
      "dist/link",
      "src/__pycache__",
      "src/title",
      "src/.gitignore",
      "src/node_modules",
      ".gatehouse/evidence.md",
      "plan/other.md",
    ])
      expect(exists(gone), gone).toBe(false);
    for (const kept of [
      "node_modules/runner/index.js",
      "pkg/node_modules/dep/index.js",
      ".venv/lib/site.py",
      "plan/out.md",
      "dist/tracked.js",
      "src/title.js",
    ])
      expect(exists(kept), kept).toBe(true);
    expect(fs.existsSync("/etc/passwd")).toBe(true);
    expect(removed).toEqual(expect.arrayContaining(["src/title", "src/.gitignore", "src/__pycache__"]));
  });

  // Each step is taken from the folder above it by descriptor, so a path longer than the system's limit is no
  // obstacle (before, its removal by path failed with ENAMETOOLONG).
  it("removes an ignored path deeper than a path may be", async () => {
    write("deep/.gitignore", "*\n");
    const deep = "d".repeat(200);
    execFileSync("bash", ["-c", `cd deep && for i in $(seq 25); do mkdir ${deep} && cd ${deep}; done && touch f`], {
      cwd: repo.dir,
    });
    try {
      expect(await removeIgnoredFiles(repo.dir, new Set([""]))).toContain("deep");
      expect(exists("deep")).toBe(false);
    } finally {
      execFileSync("rm", ["-rf", "deep"], { cwd: repo.dir });
    }
  });

  // Each level holds a descriptor and a stack frame: a tree nested thousands deep is left, and no check runs.
  it("an ignored tree deeper than 256 folders is left, and the checks do not run on it", async () => {
    execFileSync(
      "bash",
      ["-c", "mkdir -p dist/deep && cd dist/deep && for i in $(seq 300); do mkdir a && cd a; done && touch f"],
      {
        cwd: repo.dir,
      },
    );
    try {
      await expect(removeIgnoredFiles(repo.dir, new Set([""]))).rejects.toThrow(/could not be removed.*dist/);
    } finally {
      execFileSync("rm", ["-rf", "dist/deep"], { cwd: repo.dir });
    }
  });

  it.runIf(process.getuid?.() === 0)(
    "throws when an ignored path cannot be removed (on a read-only mount), so no check \
runs on it",
    async () => {
      const mountPoint = path.join(repo.dir, "dist", "mounted");
      fs.mkdirSync(mountPoint, { recursive: true });
      execFileSync("mount", ["-t", "tmpfs", "gatehouse-test", mountPoint]);
      write("dist/mounted/built.js");
      execFileSync("mount", ["-o", "remount,ro", mountPoint]);
      try {
        await expect(removeIgnoredFiles(repo.dir, new Set([""]))).rejects.toThrow(/could not be removed.*dist/);
      } finally {
        execFileSync("umount", [mountPoint]);
        execFileSync("rm", ["-rf", "dist"], { cwd: repo.dir });
      }
    },
  );
});
