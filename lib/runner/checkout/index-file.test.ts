// The in-process index reader against git's own view of the same file: every entry `git ls-files --stage`
// lists (mode, id, stage, path), and the root tree `read-tree` records, for each index version git writes;
// null (so the caller asks git) for what it cannot be sure of.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gitIn, makeGitRepo } from "../../testing/git-repo";
import { markRecentEntries, readIndexFile } from "./index-file";

const repo = makeGitRepo({
  "README.md": "hello\n",
  "src/a.js": "a\n",
  "src/deeper/b.js": "b\n",
  "src/deeper/bb.js": "bb\n",
  "src/deeper/c with space.js": "c\n",
  "é/ünïcode.txt": "u\n",
  [`${"x".repeat(200)}/${"y".repeat(200)}/${"z".repeat(200)}.txt`]: "long\n",
  "run.sh": "#!/bin/sh\n",
});
fs.chmodSync(path.join(repo.dir, "run.sh"), 0o755);
gitIn(repo.dir, "add", "-A");
// A submodule entry (mode 160000) and a symbolic link (120000), both as git records them.
gitIn(repo.dir, "update-index", "--add", "--cacheinfo", `160000,${"a".repeat(40)},vendor/lib`);
fs.symlinkSync("README.md", path.join(repo.dir, "link"));
gitIn(repo.dir, "add", "link");
gitIn(repo.dir, "commit", "-qm", "files of every kind");
afterAll(() => repo.cleanup());

const indexAt = (name: string) => path.join(repo.dir, ".git", name);
// git with GIT_INDEX_FILE at `index`.
function withIndex<T>(index: string, fn: () => T): T {
  process.env.GIT_INDEX_FILE = index;
  try {
    return fn();
  } finally {
    delete process.env.GIT_INDEX_FILE;
  }
}

const gitsView = (index: string) =>
  withIndex(index, () => gitIn(repo.dir, "-c", "core.quotepath=off", "ls-files", "--stage", "-z"))
    .split("\0")
    .filter(Boolean)
    .map((line) => {
      const [meta, file] = line.split("\t");
      const [mode, id, stage] = meta.split(" ");
      return { mode: Number.parseInt(mode, 8), id, stage: Number(stage), path: file };
    });

function readTreeInto(index: string, version: number): void {
  fs.rmSync(index, { force: true });
  gitIn(repo.dir, "-c", `index.version=${version}`, "read-tree", `--index-output=${index}`, "HEAD");
}

describe("readIndexFile", () => {
  // The index it reads lies in the checkout's .git, the run-as user's to swap: a FIFO there must not hold the
  // server (a read by path would wait for a writer forever), nor a link lead it elsewhere.
  it("gives null at once for a FIFO or a link in the index's place", () => {
    const fifo = indexAt("index-fifo");
    execFileSync("mkfifo", [fifo]);
    expect(readIndexFile(fifo)).toBeNull();
    const real = indexAt("index-real");
    readTreeInto(real, 2);
    const link = indexAt("index-link");
    fs.symlinkSync(real, link);
    expect(readIndexFile(link)).toBeNull();
    expect(readIndexFile(real)).not.toBeNull();
  });

  // git writes version 3 only when an entry has extended flags (below), so these are versions 2 and 4.
  for (const version of [2, 4]) {
    it(`reads an index of version ${version} as git lists it, with HEAD's tree from its cache-tree`, () => {
      const index = indexAt(`index-v${version}`);
      readTreeInto(index, version);
      expect(fs.readFileSync(index).readUInt32BE(4)).toBe(version);
      const read = readIndexFile(index);
      expect(read).not.toBeNull();
      expect(read?.entries).toEqual(gitsView(index));
      expect(read?.entries.find((e) => e.path === "vendor/lib")?.mode).toBe(0o160000);
      expect(read?.rootTree).toBe(gitIn(repo.dir, "rev-parse", "HEAD^{tree}"));
    });
  }

  it("reads the extended flags of version 3 (an intent-to-add entry), and no root tree once it is invalidated", () => {
    const index = indexAt("index-ita");
    readTreeInto(index, 2);
    fs.writeFileSync(path.join(repo.dir, "new.txt"), "n\n");
    try {
      withIndex(index, () => gitIn(repo.dir, "add", "--intent-to-add", "new.txt"));
      expect(fs.readFileSync(index).readUInt32BE(4)).toBe(3);
      const read = readIndexFile(index);
      expect(read?.entries.map((e) => e.path)).toContain("new.txt");
      expect(read?.entries).toEqual(gitsView(index));
      // The root of the cache-tree is invalidated by the new path: no tree to report.
      expect(read?.rootTree).toBeNull();
    } finally {
      fs.rmSync(path.join(repo.dir, "new.txt"));
    }
  });

  it("gives null for what it cannot be sure of: a wrong or no checksum, a cut file, a split index", () => {
    const index = indexAt("index-bad");
    readTreeInto(index, 2);
    const good = fs.readFileSync(index);
    const flipped = Buffer.from(good);
    flipped[40] ^= 1;
    fs.writeFileSync(index, flipped);
    expect(readIndexFile(index)).toBeNull();
    fs.writeFileSync(index, good.subarray(0, good.length - 7));
    expect(readIndexFile(index)).toBeNull();
    fs.writeFileSync(index, Buffer.concat([good.subarray(0, good.length - 20), Buffer.alloc(20)]));
    expect(readIndexFile(index)).toBeNull();
    expect(readIndexFile(indexAt("no-such-index"))).toBeNull();

    const split = indexAt("index-split");
    fs.rmSync(split, { force: true });
    gitIn(repo.dir, "-c", "core.splitIndex=true", "read-tree", `--index-output=${split}`, "HEAD");
    withIndex(split, () => gitIn(repo.dir, "-c", "core.splitIndex=true", "update-index", "--split-index"));
    expect(readIndexFile(split)).toBeNull();
  });

  it("leaves an index over 1 MB to git (reading it here would hold the server's event loop)", () => {
    const big = indexAt("index-big");
    readTreeInto(big, 2);
    const blob = gitIn(repo.dir, "hash-object", "-w", "README.md");
    const lines = Array.from({ length: 12_000 }, (_, i) => `100644 ${blob}\tmany/${"f".repeat(40)}-${i}.txt`);
    const list = path.join(repo.dir, ".git", "index-info");
    fs.writeFileSync(list, `${lines.join("\n")}\n`);
    withIndex(big, () =>
      execFileSync("git", ["update-index", "--index-info"], { cwd: repo.dir, input: fs.readFileSync(list) }),
    );
    expect(fs.statSync(big).size).toBeGreaterThan(1024 * 1024);
    expect(readIndexFile(big)).toBeNull();
  });
});

describe("markRecentEntries", () => {
  // The repository's own index, written by `add` (every entry with its file's times), in versions 2 and 4.
  for (const version of [2, 4]) {
    it(`zeroes the times of entries changed in the given second or later, in an index git still reads (version \
${version})`, () => {
      const index = indexAt(`index-marked-v${version}`);
      fs.copyFileSync(indexAt("index"), index);
      withIndex(index, () => gitIn(repo.dir, "update-index", "--index-version", String(version)));
      const data = fs.readFileSync(index);
      const times = (file: string) =>
        withIndex(file, () => gitIn(repo.dir, "ls-files", "--debug"))
          .split("\n")
          .filter((line) => /^\s+(ctime|mtime):/.test(line))
          .map((line) => line.trim());
      // Every entry but the submodule's (added by id alone) has its file's times.
      expect(times(index).filter((t) => !t.endsWith(" 0:0")).length).toBe(times(index).length - 2);

      // Nothing that new: the same bytes.
      expect(markRecentEntries(data, { sinceSec: Math.floor(Date.now() / 1000) + 3600 })?.equals(data)).toBe(true);

      const marked = markRecentEntries(data, { sinceSec: 0 });
      expect(marked).not.toBeNull();
      fs.writeFileSync(index, marked!);
      expect(times(index).length).toBe(times(indexAt("index")).length);
      expect(times(index).every((t) => t === "ctime: 0:0" || t === "mtime: 0:0")).toBe(true);
      // The entries themselves unchanged, and the checksum right (git and this reader both read it).
      expect(gitsView(index)).toEqual(gitsView(indexAt("index")));
      expect(readIndexFile(index)?.entries).toEqual(gitsView(index));
    });
  }

  it("zeroes the times of the entries it is told are the change's, however old", () => {
    const index = indexAt("index-marked-change");
    const marked = markRecentEntries(fs.readFileSync(indexAt("index")), {
      sinceSec: Math.floor(Date.now() / 1000) + 3600,
      isChange: (entry) => entry.path === "src/a.js",
    });
    fs.writeFileSync(index, marked!);
    const debug = withIndex(index, () => gitIn(repo.dir, "ls-files", "--debug", "src/a.js", "README.md"));
    const [readme, a] = debug.split(/\n(?=\S)/);
    expect(readme).toMatch(/^README\.md/);
    expect(readme).not.toContain("ctime: 0:0");
    expect(a).toMatch(/^src\/a\.js/);
    expect(a).toContain("ctime: 0:0");
    expect(a).toContain("mtime: 0:0");
  });

  it("gives null for an index it cannot vouch for (a wrong checksum)", () => {
    const data = Buffer.from(fs.readFileSync(indexAt("index")));
    data[data.length - 1] ^= 0xff;
    expect(markRecentEntries(data, { sinceSec: 0 })).toBeNull();
  });
});
