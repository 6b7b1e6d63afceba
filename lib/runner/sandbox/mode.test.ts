// The sandbox binds every command's files from the data dir as the unprivileged run user: a data dir under a
// folder that user cannot pass through (as root: /root, a mkdtemp folder) would make every command fail
// one by one. The mode says so once, at start, naming the folder and the fix.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedFolderAbove, resolveSandboxMode } from "./mode";

const user = { uid: 64_123, gid: 64_123 };
let root: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-mode-")));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("closedFolderAbove", () => {
  it("names the first folder above the data dir that the run user cannot pass through", () => {
    const closed = path.join(root, "closed");
    fs.mkdirSync(path.join(closed, "inner"), { recursive: true, mode: 0o700 });
    fs.chmodSync(closed, 0o700);
    fs.chmodSync(root, 0o755);
    expect(closedFolderAbove(path.join(closed, "inner", "data"), user)).toBe(closed);
  });

  it("is null when every folder above lets others pass (mode o+x)", () => {
    const open = path.join(root, "open", "inner");
    fs.mkdirSync(open, { recursive: true });
    fs.chmodSync(path.join(root, "open"), 0o711);
    fs.chmodSync(open, 0o755);
    expect(closedFolderAbove(path.join(open, "data"), user)).toBeNull();
  });

  it("counts the folder's group when the run user is in it", () => {
    const grouped = path.join(root, "grouped");
    fs.mkdirSync(grouped, { recursive: true });
    fs.chmodSync(grouped, 0o710);
    const gid = fs.statSync(grouped).gid;
    expect(closedFolderAbove(path.join(grouped, "data"), { uid: 64_123, gid })).toBeNull();
    expect(closedFolderAbove(path.join(grouped, "data"), user)).toBe(grouped);
  });
});

describe("resolveSandboxMode with a data dir out of the run user's reach", () => {
  it("is unavailable, naming the folder, the data dir and what to do", () => {
    const closed = path.join(root, "closed");
    const mode = resolveSandboxMode({}, user, "linux", path.join(closed, "inner", "data"));
    if (!fs.existsSync("/usr/bin/bwrap")) {
      // Without bubblewrap the mode is unavailable for that reason first.
      expect(mode).toMatchObject({ kind: "unavailable", reason: expect.stringContaining("not installed") });
      return;
    }
    expect(mode.kind).toBe("unavailable");
    expect(mode.kind === "unavailable" && mode.reason).toMatch(
      new RegExp(`cannot pass through ${closed} to the data dir .*GATEHOUSE_DATA_DIR.*GATEHOUSE_SANDBOX=off`),
    );
  });
});
