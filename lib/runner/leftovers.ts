// What a process of this data dir leaves when it stops mid-way (killed, the machine off) and nothing else
// would ever remove: a repository being laid out in tmp, a relay a branch was carried through, a base pack
// half built, the output pipes of its pool, a half-made checkout or clone, and the folders of layouts before
// (repos/<work>.base-packs, repos/<work>.git.save-*). Removed when a server or worker starts on the data dir.
// What a live process may still be using is left: a name that carries a process id is removed only when
// that process is gone, one that does not only when it is over an hour old (each lasts seconds while used).
import fs from "node:fs";
import path from "node:path";
import { removeServersTree, removeUsersTree } from "./checkout/task-repo";
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

// Returns the paths removed (relative to the data dir). One that cannot be removed is said and passed over.
export async function sweepLeftovers(dataDir: string, opts: Sweep = {}): Promise<string[]> {
  const now = opts.now ?? Date.now();
  const isAlive = opts.isAlive ?? isProcessAlive;
  // This process's own names made before it started are a predecessor's with the same id (a container's
  // server is often process 1 at every start).
  const startedAt = now - process.uptime() * 1000;
  const removed: string[] = [];
  // `pattern` captures the process id and, when the name has one, the time it was made (ms, or base 36).
  const pidGone = (p: string, pattern: RegExp, base = 10) => {
    const m = pattern.exec(path.basename(p));
    const pid = Number(m?.[1]);
    if (!Number.isInteger(pid) || pid <= 0) return false;
    if (pid !== process.pid) return !isAlive(pid);
    // A name without its time: when the entry was last changed.
    const madeAt = m?.[2] ? Number.parseInt(m[2], base) : (fs.lstatSync(p, { throwIfNoEntry: false })?.mtimeMs ?? now);
    return madeAt < startedAt;
  };
  const isOld = (p: string) => {
    const stat = fs.lstatSync(p, { throwIfNoEntry: false });
    return !!stat && now - stat.mtimeMs > STALE_MS;
  };
  const remove = async (p: string, how: (p: string) => Promise<void>) => {
    try {
      await how(p);
      removed.push(path.relative(dataDir, p));
    } catch (error) {
      console.error(`gatehouse: leftover ${p} could not be removed: ${(error as Error).message}`);
    }
  };

  // The server's own folders (tmp, relays, base-packs: only it reaches them), removed by the server; the run-as
  // user's (worktrees, repos) as that user (removeUsersTree).
  const tmp = path.join(dataDir, "tmp");
  const pipes = pipeDirOf(dataDir);
  for (const name of entriesOf(tmp)) {
    const p = path.join(tmp, name);
    if (p !== pipes && isOld(p)) await remove(p, removeServersTree);
  }
  for (const name of entriesOf(pipes))
    if (pidGone(path.join(pipes, name), /^p-(\d+)-([0-9a-z]+)-/, 36))
      // A pipe is a file: unlinked, no process started for it.
      await remove(path.join(pipes, name), (p) => fs.promises.rm(p, { force: true }));
  const relays = path.join(dataDir, "relays");
  for (const name of entriesOf(relays))
    if (name.startsWith("save-") && isOld(path.join(relays, name)))
      await remove(path.join(relays, name), removeServersTree);
  const packs = path.join(dataDir, "base-packs");
  for (const work of entriesOf(packs))
    for (const name of entriesOf(path.join(packs, work)))
      if (pidGone(path.join(packs, work, name), /\.tmp-(\d+)$/))
        await remove(path.join(packs, work, name), removeServersTree);
  for (const folder of ["worktrees", "repos"]) {
    const dir = path.join(dataDir, folder);
    for (const name of entriesOf(dir)) {
      const isOldLayout = folder === "repos" && (/\.base-packs$/.test(name) || /\.git\.save-/.test(name));
      if (isOldLayout || pidGone(path.join(dir, name), /\.tmp-(\d+)-(\d+)$/))
        await remove(path.join(dir, name), removeUsersTree);
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
