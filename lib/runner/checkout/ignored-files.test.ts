// What goes before the checks: every file git ignores but the dependency folders and the paths kept
// (the evidence file, a stage's output). A real repository, the platform's git.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gitIn, makeGitRepo } from "../../testing/git-repo";
import { removeIgnoredFiles } from "./ignored-files";

const repo = makeGitRepo({
  ".gitignore": "node_modules/\n.venv/\n.gatehouse/\ndist/\n*.pyc\nplan/\n",
  "src/title.js": "module.exports = (s) => s;\n",
});
afterAll(() => repo.cleanup());

const write = (rel: string, text = "x\n") => {
  fs.mkdirSync(path.dirname(path.join(repo.dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(repo.dir, rel), text);
};
const exists = (rel: string) => fs.existsSync(path.join(repo.dir, rel));

describe("removeIgnoredFiles", () => {
  it("removes ignored files and folders, a self-ignoring .gitignore too, keeping dependency folders, the \
kept paths and tracked files", async () => {
    write("dist/tracked.js");
    gitIn(repo.dir, "add", "-f", "dist/tracked.js");
    gitIn(repo.dir, "commit", "-qm", "a tracked file under an ignored folder");
    for (const rel of [
      "node_modules/runner/index.js",
      "pkg/node_modules/dep/index.js",
      ".venv/lib/site.py",
      "dist/bundle.js",
      "src/__pycache__/title.cpython-311.pyc",
      ".gatehouse/evidence.md",
      ".gatehouse/notes.md",
      "plan/out.md",
      "src/title",
    ])
      write(rel);
    write("src/.gitignore", "/title\n/.gitignore\n");
    fs.symlinkSync("/etc", path.join(repo.dir, "dist", "link"));

    const removed = await removeIgnoredFiles(repo.dir, [".gatehouse/evidence.md", "plan/out.md"]);

    for (const gone of [
      "dist/bundle.js",
      "dist/link",
      "src/__pycache__",
      "src/title",
      "src/.gitignore",
      ".gatehouse/notes.md",
    ])
      expect(exists(gone), gone).toBe(false);
    for (const kept of [
      "node_modules/runner/index.js",
      "pkg/node_modules/dep/index.js",
      ".venv/lib/site.py",
      ".gatehouse/evidence.md",
      "plan/out.md",
      "dist/tracked.js",
      "src/title.js",
    ])
      expect(exists(kept), kept).toBe(true);
    expect(fs.existsSync("/etc/passwd")).toBe(true);
    expect(removed).toEqual(expect.arrayContaining(["src/title", "src/.gitignore", "src/__pycache__"]));
    expect(gitIn(repo.dir, "status", "--porcelain", "--ignored")).not.toContain("src/title");
  });
});
