// The review's shim folder, kept between reviews: made once, added to as programs appear on the PATH, made
// anew when someone else changed it, and still recording what the review runs.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { scratchDir } from "../../testing/scratch";
import { reviewShims } from "./review-shims";

let scratch: string;
let dataDir: string;
let tools: string;
beforeEach(() => {
  scratch = scratchDir("gatehouse-shims-");
  dataDir = path.join(scratch, "data");
  tools = path.join(scratch, "tools");
  fs.mkdirSync(dataDir);
  fs.mkdirSync(tools);
  program("greet", 'echo "hello $1"');
  program("shout", 'echo "${1^^}"');
});
afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

function program(name: string, body: string): void {
  fs.writeFileSync(path.join(tools, name), `#!/bin/bash\n${body}\n`, { mode: 0o755 });
}

const systemPath = () => (process.env.PATH ?? "/usr/bin:/bin").split(":");

// Runs `command` as a review would: the shims first on the PATH, the log in $GATEHOUSE_EXEC_LOG.
function asReview(bin: string, command: string): { out: string; logged: string[] } {
  const log = path.join(scratch, `exec-${Math.random().toString(36).slice(2)}.log`);
  fs.writeFileSync(log, "");
  const out = execFileSync("/bin/bash", ["-c", command], {
    env: { ...process.env, PATH: [bin, tools, ...systemPath()].join(":"), GATEHOUSE_EXEC_LOG: log },
    encoding: "utf8",
  });
  const logged = fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split("\t")[1]);
  return { out, logged };
}

describe("the review's shim folder", () => {
  it("is made once for a PATH: the next review links nothing and finds the same folder", () => {
    const first = reviewShims(dataDir, [tools]);
    expect(first.linked).toBe(2);
    expect(fs.readlinkSync(path.join(first.bin, "greet"))).toBe(path.join(path.dirname(first.bin), "record-exec"));
    const inode = fs.statSync(first.bin).ino;
    const second = reviewShims(dataDir, [tools]);
    expect(second).toEqual({ bin: first.bin, linked: 0 });
    expect(fs.statSync(second.bin).ino).toBe(inode);
  });

  it("records what the review runs through it and runs the real program", () => {
    const { bin } = reviewShims(dataDir, [tools]);
    const { out, logged } = asReview(bin, "greet world && shout 'it works'");
    expect(out).toBe("hello world\nIT WORKS\n");
    expect(logged).toEqual(["greet world", "shout it\\ works"]);
  });

  it("links a program that appeared on the PATH since the last review, and records it", () => {
    const { bin } = reviewShims(dataDir, [tools]);
    program("fresh-tool", 'echo "fresh $*"');
    const next = reviewShims(dataDir, [tools]);
    expect(next.linked).toBe(1);
    expect(asReview(bin, "fresh-tool a b").logged).toEqual(["fresh-tool a b"]);
  });

  it("a different PATH gets a folder of its own", () => {
    const more = path.join(scratch, "more-tools");
    fs.mkdirSync(more);
    fs.writeFileSync(path.join(more, "extra"), "#!/bin/bash\n", { mode: 0o755 });
    const a = reviewShims(dataDir, [tools]);
    const b = reviewShims(dataDir, [tools, more]);
    expect(b.bin).not.toBe(a.bin);
    expect(fs.existsSync(path.join(a.bin, "extra"))).toBe(false);
    expect(fs.readdirSync(b.bin).sort()).toEqual(["extra", "greet", "shout"]);
  });

  it("is the platform's: only it may write there; anyone may enter and run it, whatever the umask", () => {
    const umask = process.umask(0o077);
    let bin: string;
    try {
      bin = reviewShims(dataDir, [tools]).bin;
    } finally {
      process.umask(umask);
    }
    for (const p of [
      path.dirname(path.dirname(bin)),
      path.dirname(bin),
      bin,
      path.join(path.dirname(bin), "record-exec"),
    ]) {
      const st = fs.statSync(p);
      expect(st.uid).toBe(process.getuid!());
      expect((st.mode & 0o777).toString(8)).toBe("755");
    }
  });

  it("a shim replaced behind the platform's back is made anew: the review still records that program", () => {
    const { bin } = reviewShims(dataDir, [tools]);
    const quiet = path.join(scratch, "quiet");
    fs.writeFileSync(quiet, '#!/bin/bash\nexec "$@"\n', { mode: 0o755 });
    fs.unlinkSync(path.join(bin, "greet"));
    fs.symlinkSync(quiet, path.join(bin, "greet"));
    const again = reviewShims(dataDir, [tools]);
    expect(again.bin).toBe(bin);
    expect(fs.readlinkSync(path.join(bin, "greet"))).toBe(path.join(path.dirname(bin), "record-exec"));
    expect(asReview(bin, "greet x").logged).toEqual(["greet x"]);
  });

  it("a script rewritten behind the platform's back is made anew", () => {
    const { bin } = reviewShims(dataDir, [tools]);
    const script = path.join(path.dirname(bin), "record-exec");
    fs.writeFileSync(script, '#!/bin/bash\nexec "$@"\n');
    reviewShims(dataDir, [tools]);
    expect(asReview(bin, "greet y").logged).toEqual(["greet y"]);
  });

  it("a second process on the same data dir takes up the folder the first made, linking nothing", async () => {
    const first = reviewShims(dataDir, [tools]);
    vi.resetModules();
    const other = await import("./review-shims");
    expect(other.reviewShims(dataDir, [tools])).toEqual({ bin: first.bin, linked: 0 });
  });

  it("a link removed behind the platform's back is made again, and the review records that program", () => {
    const { bin } = reviewShims(dataDir, [tools]);
    fs.unlinkSync(path.join(bin, "greet"));
    expect(reviewShims(dataDir, [tools]).linked).toBe(1);
    expect(asReview(bin, "greet z").logged).toEqual(["greet z"]);
  });

  it("a PATH folder that is a link switched to another folder with the same times is listed again", () => {
    const v1 = path.join(scratch, "v1");
    const v2 = path.join(scratch, "v2");
    const onPath = path.join(scratch, "current");
    for (const v of [v1, v2]) fs.mkdirSync(v);
    fs.writeFileSync(path.join(v1, "oldtool"), "#!/bin/bash\necho old\n", { mode: 0o755 });
    fs.writeFileSync(path.join(v2, "newtool"), "#!/bin/bash\necho new\n", { mode: 0o755 });
    // As a store of packages gives every folder: the same old times.
    for (const v of [v1, v2]) fs.utimesSync(v, 1, 1);
    fs.symlinkSync(v1, onPath);
    const { bin } = reviewShims(dataDir, [onPath]);
    fs.unlinkSync(onPath);
    fs.symlinkSync(v2, onPath);
    expect(reviewShims(dataDir, [onPath]).linked).toBe(1);
    const log = path.join(scratch, "switch.log");
    fs.writeFileSync(log, "");
    const out = execFileSync("/bin/bash", ["-c", "newtool"], {
      env: { ...process.env, PATH: [bin, onPath].join(":"), GATEHOUSE_EXEC_LOG: log },
      encoding: "utf8",
    });
    expect(out).toBe("new\n");
    expect(fs.readFileSync(log, "utf8")).toContain("\tnewtool\n");
  });

  it("made anew, it has every link before it takes the old one's place: a review running meanwhile is recorded", () => {
    const { bin } = reviewShims(dataDir, [tools]);
    fs.writeFileSync(path.join(path.dirname(bin), "record-exec"), '#!/bin/bash\nexec "$@"\n');
    // How many links the folder in place holds at each link the rebuild makes.
    const seen: number[] = [];
    const real = fs.symlinkSync;
    const watch = vi.spyOn(fs, "symlinkSync").mockImplementation((target, p) => {
      seen.push(fs.readdirSync(bin).length);
      real(target, p);
    });
    try {
      expect(reviewShims(dataDir, [tools]).linked).toBe(2);
    } finally {
      watch.mockRestore();
    }
    expect(seen).toEqual([2, 2]);
    expect(asReview(bin, "greet again").logged).toEqual(["greet again"]);
  });

  it("a FIFO in place of the script, or a file in place of bin, is made anew without the server waiting", () => {
    const { bin } = reviewShims(dataDir, [tools]);
    const script = path.join(path.dirname(bin), "record-exec");
    fs.rmSync(script);
    execFileSync("mkfifo", ["-m", "755", script]);
    reviewShims(dataDir, [tools]);
    expect(asReview(bin, "greet fifo").logged).toEqual(["greet fifo"]);
    fs.rmSync(bin, { recursive: true });
    fs.writeFileSync(bin, "", { mode: 0o755 });
    reviewShims(dataDir, [tools]);
    expect(asReview(bin, "greet file").logged).toEqual(["greet file"]);
  });

  it("a program gone from the PATH since it was linked is not counted as run", () => {
    const { bin } = reviewShims(dataDir, [tools]);
    fs.rmSync(path.join(tools, "shout"));
    const log = path.join(scratch, "gone.log");
    fs.writeFileSync(log, "");
    const ran = spawnSync("/bin/bash", ["-c", "shout hi"], {
      env: { ...process.env, PATH: [bin, tools].join(":"), GATEHOUSE_EXEC_LOG: log },
      encoding: "utf8",
    });
    expect(ran.status).toBe(127);
    expect(ran.stderr).toContain("shout: command not found");
    expect(fs.readFileSync(log, "utf8")).toBe("");
  });
});
