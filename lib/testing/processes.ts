// Test helpers for real processes: is a pid still a live process (zombies count as gone: in this
// container nothing reaps orphans, so a killed orphan lingers as a zombie), and waiting for a condition
// by polling it (never a fixed sleep). Tests signal processes only through the guards in
// lib/runner/process/process-group (a marker or an identity checked just before the signal).
import fs from "node:fs";
import { killMarked } from "../runner/process/process-group";

// The fields of /proc/<pid>/stat after "pid (comm)" (comm may hold spaces or parentheses, so they start after
// the last ")"): [0] state, [1] ppid, [2] pgrp, … [11] utime, [12] stime in clock ticks. null when gone.
export function procStatFields(pid: number | string): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const state = procStatFields(pid)?.[0];
  return state !== undefined && state !== "Z" && state !== "X";
}

export async function waitFor<T>(
  probe: () => T | Promise<T>,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? "a condition"}`);
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 25));
  }
}

// Waits until none of the pids is a live process; returns the ones still alive on timeout (empty = all gone).
export async function waitUntilGone(pids: number[], timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isProcessAlive);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((r) => setTimeout(r, 25));
  }
}

// Best-effort cleanup for a test that failed half-way: SIGKILL what is still alive and still carries
// the markers (NAME=value entries of its environment) the test gave it — never a pid since reused.
export function killQuietly(pids: number[], markers: string[]): void {
  for (const pid of pids) {
    try {
      killMarked(pid, markers);
    } catch {
      /* an id that may not be signalled (0, 1, this process): nothing to clean */
    }
  }
}

// Live processes whose environment or command line contains `token` (Linux /proc): how a test finds
// what a check left behind without asking the check.
export function processesCarrying(token: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const environ = fs.readFileSync(`/proc/${name}/environ`, "latin1");
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, "latin1");
      if ((environ.includes(token) || cmdline.includes(token)) && isProcessAlive(Number(name)))
        found.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return found;
}

// Live (non-zombie) processes whose process group is pgid (Linux /proc).
export function liveProcessesInGroup(pgid: number): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const fields = procStatFields(name);
    if (fields && Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") found.push(Number(name));
  }
  return found;
}
