// Ending processes: a check's whole process group, and — after a crash — anything still carrying a
// run's GATEHOUSE_RUN_ID in its environment.
import fs from "node:fs";

const holder = globalThis as unknown as { __gatehouseGroups?: Set<number> };
// Process groups started by this server and not yet ended (for shutdown).
export const activeGroups = (holder.__gatehouseGroups ??= new Set<number>());

export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

// Processes whose environment holds every one of the given NAME=value entries (Linux /proc).
export function findProcessesByEnv(entries: string[]): number[] {
  if (entries.length === 0 || !fs.existsSync("/proc/self/environ")) return [];
  const found: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    let environ: string;
    try {
      environ = fs.readFileSync(`/proc/${name}/environ`, "latin1");
    } catch {
      continue;
    }
    const vars = new Set(environ.split("\0"));
    if (entries.every((e) => vars.has(e))) found.push(Number(name));
  }
  return found;
}

// SIGKILL every process whose environment carries all the entries. Returns the pids it found.
export function killProcessesByEnv(entries: string[]): number[] {
  const pids = findProcessesByEnv(entries);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
  return pids;
}
