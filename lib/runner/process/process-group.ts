// Signalling processes without hitting the wrong one. A pid or group id is only a number: once its
// process is gone and reaped, the number is reused (pid_max wraps; on a busy machine soon), and a group
// id of 0 or 1 is fatal: kill(-0) signals the caller's own group, kill(-1) every process there is. So:
// - A command's process group is signalled only by its shim in the spawner (spawner.c, signal_group),
//   which is the command's parent and has not reaped it, so the id is surely still the command's; here
//   a command is asked to end through its `signal` function, never by number.
// - Every other signal from TypeScript goes through this module: signalGroup, for a group a test
//   started itself and identified (pid + start time) at once; killMarked, for a process found by the
//   markers in its environment, checked again just before the signal. Both refuse ids 0, 1, negatives,
//   this process and its own group.
import fs from "node:fs";

// The commands running now (for shutdown: each is asked to end its group).
export type RunningCommand = { signal: (signal: NodeJS.Signals) => void };
const holder = globalThis as unknown as { __gatehouseCommands?: Set<RunningCommand> };
holder.__gatehouseCommands ??= new Set<RunningCommand>();
export const runningCommands = holder.__gatehouseCommands;

// A process as it was when it was started: its pid and its start time (clock ticks after boot), which
// a process that later gets the same pid does not share.
export type ProcessIdentity = { pid: number; startTime: string };

type Stat = { state: string; pgrp: number; startTime: string };

// /proc/<pid>/stat: "pid (comm) state ppid pgrp session ... starttime(22) ..."; comm may hold ") ".
function readStat(pid: number | "self"): Stat | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0], pgrp: Number(fields[2]), startTime: fields[19] };
}

export function ownProcessGroup(): number {
  const stat = readStat("self");
  if (!stat) throw new Error("cannot read /proc/self/stat: refusing to signal anything");
  return stat.pgrp;
}

// The identity of a live process now (null when it is gone or a zombie).
export function identify(pid: number): ProcessIdentity | null {
  const stat = readStat(pid);
  return stat && stat.state !== "Z" && stat.state !== "X" ? { pid, startTime: stat.startTime } : null;
}

// Throws unless `id` may be signalled at all: an integer above 1, not this process, not its group.
function assertSignallable(id: number, what: string): void {
  if (!Number.isInteger(id) || id <= 1) throw new Error(`refusing to signal ${what} ${id}: not a real ${what} id`);
  if (id === process.pid) throw new Error(`refusing to signal ${what} ${id}: it is this process`);
  if (id === ownProcessGroup()) throw new Error(`refusing to signal ${what} ${id}: it is this process's own group`);
}

// Signals the process group led by `leader`, only while that very process (same start time) still leads
// it. Throws on an id that may never be signalled (0, 1, negative, this process or its own group); false
// when the group is not the one started (leader gone, or its pid now someone else's).
export function signalGroup(leader: ProcessIdentity, signal: NodeJS.Signals): boolean {
  assertSignallable(leader.pid, "process group");
  const stat = readStat(leader.pid);
  if (!stat || stat.startTime !== leader.startTime || stat.pgrp !== leader.pid) return false;
  try {
    process.kill(-leader.pid, signal);
    return true;
  } catch {
    return false;
  }
}

// The NAME=value entries of a process's environment (null when it cannot be read).
function environmentOf(pid: number): Set<string> | null {
  try {
    return new Set(fs.readFileSync(`/proc/${pid}/environ`, "latin1").split("\0"));
  } catch {
    return null;
  }
}

// Signals pid only if its environment carries every marker, and it is still the same process after the
// check (same start time before and after reading the environment: a pid reused in between fails it).
// Throws on an id that may never be signalled; false when the process is not the one meant or is gone.
export function killMarked(pid: number, markers: string[], signal: NodeJS.Signals = "SIGKILL"): boolean {
  assertSignallable(pid, "process");
  if (markers.length === 0) throw new Error("refusing to signal a process without a marker to check");
  const before = identify(pid);
  const environment = before && environmentOf(pid);
  if (!environment || !markers.every((m) => environment.has(m))) return false;
  const after = identify(pid);
  if (!after || after.startTime !== before.startTime) return false;
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

// Live processes whose environment holds every one of the given NAME=value entries (Linux /proc).
export function findProcessesByEnv(entries: string[]): number[] {
  if (entries.length === 0 || !fs.existsSync("/proc/self/environ")) return [];
  const found: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    const environment = environmentOf(Number(name));
    if (environment && entries.every((e) => environment.has(e)) && identify(Number(name))) found.push(Number(name));
  }
  return found;
}

// SIGKILL every process whose environment carries all the entries. Returns the pids it killed.
export function killProcessesByEnv(entries: string[]): number[] {
  return findProcessesByEnv(entries).filter((pid) => {
    try {
      return killMarked(pid, entries);
    } catch {
      // An id that may never be signalled (this process's own group): left alone.
      return false;
    }
  });
}
