// What a process of this data dir leaves when it stops mid-way (killed, the machine off) and nothing else
// would ever remove: a repository being laid out in tmp, a relay a branch was carried through, a base pack
// half built, the output pipes of its pool, a half-made checkout or clone, and the folders of layouts before
// (repos/<work>.base-packs, repos/<work>.git.save-*). Removed when a server or worker starts on the data dir.
// What a live process may still be using is left: a name that carries a process id is removed only when
// that process is gone, one that does not only when it is over an hour old (each lasts seconds while used).
import fs from "node:fs";
import path from "node:path";
import { removeUsersTree } from "./checkout/task-repo";
import { pipeDirOf } from "./paths";

const STALE_MS = 60 * 60 * 1000;

export type Sweep = { now?: number; isAlive?: (pid: number) => boolean };

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it lives, as another user's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const entriesOf = (dir: string) => {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
};

// Returns the paths removed (relative to the data dir).
export async function sweepLeftovers(dataDir: string, opts: Sweep = {}): Promise<string[]> {
  const now = opts.now ?? Date.now();
  const isAlive = opts.isAlive ?? isProcessAlive;
  const removed: string[] = [];
  const pidGone = (name: string, pattern: RegExp) => {
    const pid = Number(pattern.exec(name)?.[1]);
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid);
  };
  const isOld = (p: string) => {
    const stat = fs.lstatSync(p, { throwIfNoEntry: false });
    return !!stat && now - stat.mtimeMs > STALE_MS;
  };
  // The server's own folders (tmp, relays, base-packs: only it reaches them): removed by the server.
  const own = (p: string) => {
    fs.rmSync(p, { recursive: true, force: true });
    removed.push(path.relative(dataDir, p));
  };
  // The run-as user's (worktrees, repos): removed as that user (removeUsersTree).
  const users = async (p: string) => {
    await removeUsersTree(p);
    removed.push(path.relative(dataDir, p));
  };

  const tmp = path.join(dataDir, "tmp");
  const pipes = pipeDirOf(dataDir);
  for (const name of entriesOf(tmp)) {
    const p = path.join(tmp, name);
    if (p !== pipes && isOld(p)) own(p);
  }
  for (const name of entriesOf(pipes)) if (pidGone(name, /^p-(\d+)-/)) own(path.join(pipes, name));
  const relays = path.join(dataDir, "relays");
  for (const name of entriesOf(relays))
    if (name.startsWith("save-") && isOld(path.join(relays, name))) own(path.join(relays, name));
  const packs = path.join(dataDir, "base-packs");
  for (const work of entriesOf(packs))
    for (const name of entriesOf(path.join(packs, work)))
      if (pidGone(name, /\.tmp-(\d+)$/)) own(path.join(packs, work, name));
  for (const folder of ["worktrees", "repos"]) {
    const dir = path.join(dataDir, folder);
    for (const name of entriesOf(dir)) {
      const p = path.join(dir, name);
      const isOldLayout = folder === "repos" && (/\.base-packs$/.test(name) || /\.git\.save-/.test(name));
      if (isOldLayout || pidGone(name, /\.tmp-(\d+)-\d+$/)) await users(p);
    }
  }
  return removed;
}

// At start, in the background: what is removed is said once; a failure only logged.
export function sweepLeftoversInBackground(dataDir: string, who: string): void {
  sweepLeftovers(dataDir).then(
    (removed) => {
      if (removed.length > 0)
        console.log(`${who}: removed ${removed.length} leftover(s) of stopped processes from the data dir`);
    },
    (error: Error) => console.error(`${who}: could not sweep the data dir's leftovers: ${error.message}`),
  );
}
