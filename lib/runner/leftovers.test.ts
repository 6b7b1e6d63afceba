// A data dir after processes were killed mid-way: what they left is removed at the next start, and what a
// live process (this one, another one) may still use is kept.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { isProcessAlive, sweepLeftovers } from "./leftovers";

// Above the largest process id Linux gives (2^22): never a live process.
const DEAD = 5_000_001;
const OTHER_LIVE = 5_000_002;
let dataDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-leftovers-"));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const HOUR = 60 * 60 * 1000;

function make(rel: string, opts: { ageMs?: number; folder?: boolean } = {}): void {
  const p = path.join(dataDir, rel);
  fs.mkdirSync(opts.folder ? p : path.dirname(p), { recursive: true });
  if (opts.folder) fs.writeFileSync(path.join(p, "inside"), "x");
  else fs.writeFileSync(p, "x");
  if (opts.ageMs) {
    const then = new Date(Date.now() - opts.ageMs);
    fs.utimesSync(p, then, then);
  }
}

const exists = (rel: string) => fs.existsSync(path.join(dataDir, rel));

it("removes what stopped processes left and keeps what live ones may use", async () => {
  const me = process.pid;
  const nowMs = Date.now();
  const now36 = nowMs.toString(36);
  const left = [
    "tmp/repo-aB3dE",
    `tmp/removed-${DEAD}-1700000000000-x1`,
    `tmp/pipes/p-${DEAD}-lq2x-4`,
    "relays/save-Qw3rty",
    `base-packs/work-1/pack-1.pack.tmp-${DEAD}`,
    `worktrees/task-1.tmp-${DEAD}-1700000000000`,
    `repos/work-1.git.tmp-${DEAD}-1700000000000`,
    "repos/work-1.base-packs",
    "repos/work-1.git.save-9f8e",
    // This process's id on names made before it started: a predecessor's that had the same id.
    `tmp/pipes/p-${me}-lq2x-4`,
    `worktrees/task-3.tmp-${me}-1700000000000`,
    `base-packs/work-1/pack-3.pack.tmp-${me}`,
  ];
  const kept = [
    "tmp/repo-fresh",
    `tmp/pipes/p-${me}-${now36}-4`,
    `tmp/pipes/p-${OTHER_LIVE}-lq2x-4`,
    "relays/save-fresh",
    "base-packs/work-1/pack-1.pack",
    `base-packs/work-1/pack-2.pack.tmp-${OTHER_LIVE}`,
    `base-packs/work-1/pack-4.pack.tmp-${me}`,
    "worktrees/task-1",
    `worktrees/task-2.tmp-${me}-${nowMs}`,
    "repos/work-1.git",
  ];
  make("tmp/repo-aB3dE", { folder: true, ageMs: 2 * HOUR });
  make(`tmp/removed-${DEAD}-1700000000000-x1`, { folder: true, ageMs: 3 * HOUR });
  make(`tmp/pipes/p-${DEAD}-lq2x-4`);
  make("relays/save-Qw3rty", { folder: true, ageMs: 2 * HOUR });
  make(`base-packs/work-1/pack-1.pack.tmp-${DEAD}`);
  make(`worktrees/task-1.tmp-${DEAD}-1700000000000`, { folder: true });
  make(`repos/work-1.git.tmp-${DEAD}-1700000000000`, { folder: true });
  make("repos/work-1.base-packs", { folder: true });
  make("repos/work-1.git.save-9f8e", { folder: true });
  make("tmp/repo-fresh", { folder: true, ageMs: 5 * 60 * 1000 });
  for (const rel of kept.slice(1, 3)) make(rel);
  make("relays/save-fresh", { folder: true });
  make("base-packs/work-1/pack-1.pack");
  make(`base-packs/work-1/pack-2.pack.tmp-${OTHER_LIVE}`);
  make("worktrees/task-1", { folder: true, ageMs: 10 * HOUR });
  make(`worktrees/task-2.tmp-${me}-${nowMs}`, { folder: true });
  make(`tmp/pipes/p-${me}-lq2x-4`);
  make(`worktrees/task-3.tmp-${me}-1700000000000`, { folder: true });
  // No time in the name: a pack of this process's id last written before it started is a predecessor's.
  make(`base-packs/work-1/pack-3.pack.tmp-${me}`, { ageMs: 10 * HOUR });
  make(`base-packs/work-1/pack-4.pack.tmp-${me}`);
  make("repos/work-1.git", { folder: true, ageMs: 10 * HOUR });

  const removed = await sweepLeftovers(dataDir, { isAlive: (pid) => pid !== DEAD });

  expect([...removed].sort()).toEqual([...left].sort());
  for (const rel of left) expect(exists(rel), rel).toBe(false);
  for (const rel of kept) expect(exists(rel), rel).toBe(true);
  expect(exists("tmp/pipes")).toBe(true);
});

it("a data dir with none of these folders is swept without error", async () => {
  expect(await sweepLeftovers(dataDir)).toEqual([]);
});

it("tells a live process from one that is gone", () => {
  expect(isProcessAlive(process.pid)).toBe(true);
  expect(isProcessAlive(1)).toBe(true);
  expect(isProcessAlive(DEAD)).toBe(false);
});
