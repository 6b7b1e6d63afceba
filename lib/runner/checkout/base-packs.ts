// Making a task's checkout fast without sharing an object store: the first checkout made at a commit keeps
// a copy of the pack its fetch received (exactly the objects that commit reaches, nothing else of the
// clone's) in the data dir, keyed by the commit. A later checkout whose branch starts at or after that
// commit starts from a copy of it, with its branch ref at that commit, so the fetch that follows brings only
// what came since — instead of the whole history, which git would otherwise hash and index again for every
// task. A copy, never a hard link: the agent owns its checkout's files, and must not reach the kept pack
// or another task's. The commit must be an ancestor of the branch's start, so nothing outside the task's
// own history is ever in its checkout.
import fs from "node:fs";
import path from "node:path";
import { gitOk } from "./git";

const KEEP = 2;

export function basePacksDirOf(repoDir: string): string {
  return `${repoDir.replace(/\.git$/, "")}.base-packs`;
}

const isSha = (name: string) => /^[0-9a-f]{40,64}$/.test(name);

function packFiles(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((name) => /^pack-[0-9a-f]+\.(pack|idx|rev)$/.test(name));
  } catch {
    return [];
  }
}

// Copies a kept pack whose commit the branch's start `tip` contains into the new repository's objects;
// returns that commit (the caller points the branch at it before fetching), or null when none fits.
export async function seedFromBasePack(opts: { repoDir: string; gitDir: string; tip: string }): Promise<string | null> {
  const root = basePacksDirOf(opts.repoDir);
  let kept: string[];
  try {
    kept = fs.readdirSync(root).filter(isSha);
  } catch {
    return null;
  }
  const byAge = kept
    .map((sha) => ({ sha, mtime: fs.statSync(path.join(root, sha)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { sha } of byAge) {
    const fits =
      sha === opts.tip || (await gitOk(["merge-base", "--is-ancestor", sha, opts.tip], { cwd: opts.repoDir }));
    if (!fits) continue;
    const from = path.join(root, sha);
    const files = packFiles(from);
    if (!files.some((f) => f.endsWith(".pack")) || !files.some((f) => f.endsWith(".idx"))) continue;
    const to = path.join(opts.gitDir, "objects", "pack");
    fs.mkdirSync(to, { recursive: true });
    for (const file of files)
      fs.copyFileSync(path.join(from, file), path.join(to, file), fs.constants.COPYFILE_FICLONE);
    const now = new Date();
    fs.utimesSync(from, now, now);
    return sha;
  }
  return null;
}

// Keeps the pack a fresh checkout's fetch wrote (before anyone else touched it) as the pack of `tip`; only the
// most recently used few are kept. A fetch small enough to be unpacked as loose objects keeps nothing.
export function keepBasePack(opts: { repoDir: string; gitDir: string; tip: string }): void {
  const from = path.join(opts.gitDir, "objects", "pack");
  const files = packFiles(from);
  if (files.filter((f) => f.endsWith(".pack")).length !== 1) return;
  const root = basePacksDirOf(opts.repoDir);
  const dest = path.join(root, opts.tip);
  if (fs.existsSync(dest)) return;
  const tmp = `${dest}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  for (const file of files) fs.copyFileSync(path.join(from, file), path.join(tmp, file), fs.constants.COPYFILE_FICLONE);
  fs.renameSync(tmp, dest);
  const old = fs
    .readdirSync(root)
    .filter(isSha)
    .map((sha) => ({ sha, mtime: fs.statSync(path.join(root, sha)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)
    .slice(KEEP);
  for (const { sha } of old) fs.rmSync(path.join(root, sha), { recursive: true, force: true });
}
