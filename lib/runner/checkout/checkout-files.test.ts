// The one way Gatehouse reads and writes a file of a checkout, against real links: each way out (a link as the
// file, as a parent folder, dangling, relative, a hard link, `..`, absolute) is refused with a reason, and the
// file outside is neither read nor changed. (A FIFO in a report's place: lib/runner/agent-checks.test.ts.)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCheckoutFile,
  makeRunDir,
  readCheckoutFile,
  readRunFile,
  removeCheckoutFile,
  writeCheckoutFile,
  writeRunFile,
} from "./checkout-files";
import { isRoot } from "../../testing/needs-root";

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "gh-checkout-files-"));
  root = path.join(base, "checkout");
  outside = path.join(base, "outside");
  fs.mkdirSync(path.join(root, "reports", "deep"), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, "gatehouse.db"), "SQLite format 3\0secret rows");
  fs.writeFileSync(path.join(root, "reports", "ok.json"), '{"fine":true}');
  fs.writeFileSync(path.join(root, "reports", "deep", "ok.txt"), "deep");
  fs.symlinkSync(path.join(outside, "gatehouse.db"), path.join(root, "reports", "m.json"));
  fs.symlinkSync("../../outside/gatehouse.db", path.join(root, "reports", "relative.json"));
  fs.symlinkSync(path.join(outside, "nothing-yet"), path.join(root, "reports", "dangling.json"));
  fs.symlinkSync("ok.json", path.join(root, "reports", "inside-link.json"));
  fs.mkdirSync(path.join(root, "tests"));
  fs.symlinkSync(outside, path.join(root, "tests", "redteam"));
  fs.symlinkSync(outside, path.join(root, "linked"));
  fs.linkSync(path.join(outside, "gatehouse.db"), path.join(root, "reports", "hard.json"));
  fs.writeFileSync(path.join(root, "reports", "big.txt"), "x".repeat(2000));
  fs.writeFileSync(path.join(root, "a-file"), "not a folder");
});

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const LINK = "is a symbolic link: Gatehouse does not follow links in the checkout";

describe("readCheckoutFile", () => {
  it.each([
    ["reports/ok.json", { kind: "file", text: '{"fine":true}' }],
    ["./reports//deep/ok.txt", { kind: "file", text: "deep" }],
    ["reports/none.json", { kind: "missing" }],
    ["no-folder/none.json", { kind: "missing" }],
    ["reports/m.json", { kind: "refused", reason: `reports/m.json ${LINK}` }],
    ["reports/relative.json", { kind: "refused", reason: `reports/relative.json ${LINK}` }],
    ["reports/dangling.json", { kind: "refused", reason: `reports/dangling.json ${LINK}` }],
    // A link that stays inside is refused too: the rule is "no links", not "no links that leave".
    ["reports/inside-link.json", { kind: "refused", reason: `reports/inside-link.json ${LINK}` }],
    ["linked/gatehouse.db", { kind: "refused", reason: `linked ${LINK}` }],
    ["tests/redteam/gatehouse.db", { kind: "refused", reason: `tests/redteam ${LINK}` }],
    ["reports/hard.json", { kind: "refused", reason: "reports/hard.json is a hard link" }],
    ["reports", { kind: "refused", reason: "reports is not a regular file" }],
    ["a-file/x", { kind: "refused", reason: "a-file is not a folder" }],
    ["reports/big.txt", { kind: "refused", reason: "reports/big.txt is 2000 bytes, at most 1000 are read" }],
    ["../outside/gatehouse.db", { kind: "refused", reason: "contains `..`" }],
    ["/etc/passwd", { kind: "refused", reason: "is an absolute path" }],
    ["reports/\0x", { kind: "refused", reason: "contains a NUL character" }],
  ] as [string, { kind: string; text?: string; reason?: string }][])("%s → %o", (rel, want) => {
    const got = readCheckoutFile(root, rel, { maxBytes: 1000 });
    expect(got.kind).toBe(want.kind);
    if (got.kind === "file") expect(got.bytes.toString()).toBe(want.text);
    if (got.kind === "refused") {
      expect(got.reason).toContain(want.reason ?? "");
      expect(got.reason).not.toContain("secret rows");
    }
  });
});

describe("writeCheckoutFile", () => {
  const outsideNames = () => fs.readdirSync(outside).sort();

  it.each([
    ["tests/redteam/probe.test.js", `tests/redteam ${LINK}`],
    ["linked/new/probe.test.js", `linked ${LINK}`],
    ["reports/m.json", `reports/m.json ${LINK}`],
    ["reports/dangling.json", `reports/dangling.json ${LINK}`],
    ["reports/hard.json", "reports/hard.json is a hard link"],
    ["a-file/probe.js", "a-file is not a folder"],
    ["../outside/probe.js", "contains `..`"],
  ])("%s is refused: %s", (rel, reason) => {
    const before = outsideNames();
    const got = writeCheckoutFile(root, rel, "probe");
    expect(got).toEqual({ kind: "refused", reason: expect.stringContaining(reason) });
    expect(outsideNames()).toEqual(before);
    expect(fs.readFileSync(path.join(outside, "gatehouse.db"), "utf8")).toBe("SQLite format 3\0secret rows");
  });

  it("writes a file in new folders inside the checkout, and refuses to overwrite when exclusive", () => {
    expect(writeCheckoutFile(root, "tests/new/deeper/probe.test.js", "one", { mode: 0o600 })).toEqual({
      kind: "written",
      path: path.join(fs.realpathSync(root), "tests", "new", "deeper", "probe.test.js"),
    });
    const file = path.join(root, "tests", "new", "deeper", "probe.test.js");
    expect(fs.readFileSync(file, "utf8")).toBe("one");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(writeCheckoutFile(root, "tests/new/deeper/probe.test.js", "two", { exclusive: true })).toEqual({
      kind: "refused",
      reason: "tests/new/deeper/probe.test.js already exists",
    });
    expect(writeCheckoutFile(root, "tests/new/deeper/probe.test.js", "2")).toMatchObject({ kind: "written" });
    expect(fs.readFileSync(file, "utf8")).toBe("2");
  });

  // A scratch worktree or a checkout is the run-as user's: what the server puts there for a check that runs next
  // (a gate file put back, a red-team probe) must be that user's to write beside, not root's.
  it.runIf(isRoot)("ownedLikeRoot: the folders it makes and the file belong to the tree's owner", () => {
    const tree = path.join(base, "users-tree");
    fs.mkdirSync(path.join(tree, "kept"), { recursive: true });
    fs.chownSync(tree, 65534, 65534);
    const ownerOf = (rel: string) => {
      const { uid, gid } = fs.statSync(path.join(tree, rel));
      return [uid, gid];
    };
    expect(
      writeCheckoutFile(tree, "kept/made/deeper/conftest.py", "# put back\n", { ownedLikeRoot: true }),
    ).toMatchObject({ kind: "written" });
    expect(["kept/made", "kept/made/deeper", "kept/made/deeper/conftest.py"].map(ownerOf)).toEqual([
      [65534, 65534],
      [65534, 65534],
      [65534, 65534],
    ]);
    // A folder that was there keeps its owner; without the option what the server makes is its own.
    expect(ownerOf("kept")).toEqual([0, 0]);
    expect(writeCheckoutFile(tree, "other/file", "x")).toMatchObject({ kind: "written" });
    expect([ownerOf("other"), ownerOf("other/file")]).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });
});

describe("createCheckoutFile and removeCheckoutFile", () => {
  it("create makes a new file only, never through a link, and hands back its descriptor", () => {
    const made = createCheckoutFile(root, "reports/deep/new.idx", 0o600);
    if (!("fd" in made)) throw new Error(made.reason);
    fs.writeSync(made.fd, "index bytes");
    fs.closeSync(made.fd);
    expect(fs.readFileSync(path.join(root, "reports", "deep", "new.idx"), "utf8")).toBe("index bytes");
    expect(createCheckoutFile(root, "reports/deep/new.idx", 0o600)).toEqual({
      reason: "reports/deep/new.idx already exists",
    });
    expect(createCheckoutFile(root, "reports/dangling.json", 0o600)).toEqual({
      reason: expect.stringContaining(`reports/dangling.json ${LINK}`),
    });
    expect(createCheckoutFile(root, "linked/new.idx", 0o600)).toEqual({
      reason: expect.stringContaining(`linked ${LINK}`),
    });
    expect(fs.existsSync(path.join(outside, "nothing-yet"))).toBe(false);
    expect(fs.readdirSync(outside)).toEqual(["gatehouse.db"]);
  });

  it("remove takes away a file or a link itself, refuses a folder and anything past a linked folder", () => {
    fs.writeFileSync(path.join(root, "reports", "gone.txt"), "x");
    expect(removeCheckoutFile(root, "reports/gone.txt")).toEqual({ kind: "removed" });
    expect(removeCheckoutFile(root, "reports/gone.txt")).toEqual({ kind: "missing" });
    fs.symlinkSync(path.join(outside, "gatehouse.db"), path.join(root, "reports", "to-remove.json"));
    expect(removeCheckoutFile(root, "reports/to-remove.json")).toEqual({ kind: "removed" });
    expect(fs.lstatSync(path.join(root, "reports", "to-remove.json"), { throwIfNoEntry: false })).toBeUndefined();
    expect(removeCheckoutFile(root, "linked/gatehouse.db")).toEqual({
      kind: "refused",
      reason: expect.stringContaining(`linked ${LINK}`),
    });
    expect(removeCheckoutFile(root, "reports/deep")).toEqual({ kind: "refused", reason: "reports/deep is a folder" });
    expect(fs.readFileSync(path.join(outside, "gatehouse.db"), "utf8")).toBe("SQLite format 3\0secret rows");
  });

  it("a checkout folder that is itself a link is not walked into", () => {
    const link = path.join(base, "checkout-link");
    fs.symlinkSync(outside, link);
    expect(readCheckoutFile(link, "gatehouse.db", { maxBytes: 100 })).toEqual({
      kind: "refused",
      reason: expect.stringContaining(`the folder checkout-link itself ${LINK}`),
    });
    expect(removeCheckoutFile(link, "gatehouse.db")).toMatchObject({ kind: "refused" });
    expect(fs.readFileSync(path.join(outside, "gatehouse.db"), "utf8")).toBe("SQLite format 3\0secret rows");
  });
});

// The folder above a checkout is the run-as user's (worktrees/<work>): a link it puts there in place of a
// folder would carry root's reads and writes under the checkout's name anywhere. Only a link root made (the
// admin's data dir on another disk) is followed on the way to a root.
describe("the way to the root", () => {
  it.runIf(isRoot)("a link the run-as user made above the root is refused; one root made is followed", () => {
    const users = path.join(base, "users");
    fs.mkdirSync(path.join(users, "w", "checkout"), { recursive: true });
    fs.writeFileSync(path.join(users, "w", "checkout", "f.txt"), "mine");
    fs.chownSync(users, 65534, 65534);
    const elsewhere = path.join(base, "elsewhere");
    fs.mkdirSync(path.join(elsewhere, "checkout"), { recursive: true });
    fs.writeFileSync(path.join(elsewhere, "checkout", "secret.key"), "root's key");
    fs.symlinkSync(elsewhere, path.join(users, "w2"));
    fs.lchownSync(path.join(users, "w2"), 65534, 65534);
    const planted = path.join(users, "w2", "checkout");
    expect(readCheckoutFile(planted, "secret.key", { maxBytes: 100 })).toEqual({
      kind: "refused",
      reason: expect.stringContaining(`${path.join(users, "w2")}, on the way to ${planted.replace(/\/checkout$/, "")}`),
    });
    expect(writeCheckoutFile(planted, "evidence/v1/verify.md", "# Verify")).toMatchObject({ kind: "refused" });
    expect(fs.existsSync(path.join(elsewhere, "checkout", "evidence"))).toBe(false);
    expect(removeCheckoutFile(planted, "secret.key")).toMatchObject({ kind: "refused" });
    expect(fs.readFileSync(path.join(elsewhere, "checkout", "secret.key"), "utf8")).toBe("root's key");
    // A link of root's in a folder of that user's is no better: it could be swapped for the user's own between
    // the look at it and the read of where it leads (or moved there from another folder of the user's).
    fs.symlinkSync(elsewhere, path.join(users, "w3"));
    expect(readCheckoutFile(path.join(users, "w3", "checkout"), "secret.key", { maxBytes: 100 })).toMatchObject({
      kind: "refused",
    });
    // The platform's own link on the way (in a folder only root can change) is followed.
    fs.symlinkSync(path.join(users, "w"), path.join(base, "admins-link"));
    expect(readCheckoutFile(path.join(base, "admins-link", "checkout"), "f.txt", { maxBytes: 100 })).toMatchObject({
      kind: "file",
      bytes: Buffer.from("mine"),
    });
  });

  it("a `..` in a link's target steps back from where the links before it led, as the kernel's lookup does", () => {
    const top = path.join(base, "dots");
    fs.mkdirSync(path.join(top, "real", "checkout"), { recursive: true });
    fs.writeFileSync(path.join(top, "real", "checkout", "f.txt"), "the kernel's");
    fs.mkdirSync(path.join(top, "rel", "a", "real", "checkout"), { recursive: true });
    fs.writeFileSync(path.join(top, "rel", "a", "real", "checkout", "f.txt"), "lexical");
    fs.symlinkSync("../", path.join(top, "rel", "a", "up"));
    fs.symlinkSync("up/../real", path.join(top, "rel", "a", "data"));
    const root = path.join(top, "rel", "a", "data", "checkout");
    expect(fs.readFileSync(path.join(root, "f.txt"), "utf8")).toBe("the kernel's");
    expect(readCheckoutFile(root, "f.txt", { maxBytes: 100 })).toMatchObject({ bytes: Buffer.from("the kernel's") });
  });
});

// A run's user owns the folder of its run's briefs: a link it plants where the platform expects a folder or a
// file (say briefs/<run>/1-review -> /etc) is refused, not written through.
describe("the run's own files under the data dir", () => {
  it("makeRunDir, writeRunFile and readRunFile refuse a planted link", () => {
    const dataDir = path.join(base, "data");
    fs.mkdirSync(path.join(dataDir, "briefs", "run1"), { recursive: true });
    fs.symlinkSync(outside, path.join(dataDir, "briefs", "run1", "1-review"));
    const planted = path.join(dataDir, "briefs", "run1", "1-review");
    expect(() => makeRunDir(dataDir, planted)).toThrow(`briefs/run1/1-review ${LINK}`);
    expect(() => writeRunFile(dataDir, path.join(planted, "brief.md"), "brief")).toThrow(LINK);
    expect(readRunFile(dataDir, path.join(planted, "gatehouse.db"), 1000)).toMatchObject({ kind: "refused" });
    expect(fs.existsSync(path.join(outside, "brief.md"))).toBe(false);
    makeRunDir(dataDir, path.join(dataDir, "briefs", "run1", "1-redteam"));
    const brief = path.join(dataDir, "briefs", "run1", "1-redteam", "brief.md");
    writeRunFile(dataDir, brief, "the brief");
    expect(readRunFile(dataDir, brief, 1000)).toMatchObject({ kind: "file", size: 9 });
    expect(fs.statSync(path.dirname(brief)).mode & 0o777).toBe(0o700);
    expect(() => writeRunFile(dataDir, "/etc/brief.md", "x")).toThrow("not inside the data dir");
  });

  // The admin's choice, not the agent's: a data dir that is a link to another disk works as before.
  it("a data dir that is itself a link is walked from where it leads", () => {
    const real = path.join(base, "data-on-another-disk");
    const linked = path.join(base, "data-link");
    fs.mkdirSync(real);
    fs.symlinkSync(real, linked);
    const brief = path.join(linked, "briefs", "run2", "1-review", "brief.md");
    makeRunDir(linked, path.dirname(brief));
    writeRunFile(linked, brief, "the brief");
    expect(readRunFile(linked, brief, 1000)).toMatchObject({ kind: "file", size: 9 });
    expect(fs.readFileSync(path.join(real, "briefs", "run2", "1-review", "brief.md"), "utf8")).toBe("the brief");
  });
});
