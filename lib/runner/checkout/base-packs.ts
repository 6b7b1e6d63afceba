// Making a task's checkout fast without sharing an object store: the data dir keeps, per Work, the packs of
// a few commits (each exactly the objects that commit reaches, nothing else of the clone's), written from
// the clone without hashing the history again. A new checkout whose branch starts at or after such a commit
// starts from a copy of its pack, with its branch ref at that commit, so the fetch that follows brings only
// what came since — instead of the whole history, which git would otherwise hash and index again for every
// task. A copy, never a hard link: the agent owns its checkout's files, and must not reach the kept pack
// or another task's. The commit must be an ancestor of the branch's start, so nothing outside the task's
// own history is ever in its checkout.
//
// The kept packs are the server's alone (<data dir>/base-packs, which no run-as user can enter), and so is the
// repository they are written in: with them in a folder of the run-as user's, a process of that user could
// have put a link where the server copies from or writes (a pack "copied" from the data dir's secret key into
// a checkout, a ref written through a link), or a pack of its own making for other tasks to start from.
import fs from "node:fs";
import path from "node:path";
import { git, gitOk } from "./git";

const KEEP = 2;

// <data dir>/base-packs/<Work id>, beside <data dir>/repos/<Work id>.git.
function basePacksDirOf(repoDir: string): string {
  return path.join(path.dirname(path.dirname(repoDir)), "base-packs", path.basename(repoDir).replace(/\.git$/, ""));
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
    // From the server's own folder into a repository being made where only the server reaches (the caller hands
    // it over as a whole).
    for (const file of files)
      fs.copyFileSync(path.join(from, file), path.join(to, file), fs.constants.COPYFILE_FICLONE);
    const now = new Date();
    fs.utimesSync(from, now, now);
    return sha;
  }
  return null;
}

// Writes the pack of `tip` (exactly the objects it reaches) from the clone's objects: `pack-objects` runs in
// the clone as the run-as user (whose clone it is), reusing the clone's deltas, its output going to a file of
// the server's that the spawner opens before the command drops its privileges; then `index-pack` runs as the
// server on that file alone, outside any repository, and names every object by its content (an object of
// the clone's that does not match its id is refused here, not copied into every new checkout). The server's
// git never opens a path of the clone's: a link planted there (an alternates file leading to the secret key)
// reaches only what the run-as user may read. Only the most recently used few are kept.
export async function buildBasePack(opts: { repoDir: string; tip: string }): Promise<void> {
  const root = basePacksDirOf(opts.repoDir);
  const dest = path.join(root, opts.tip);
  if (fs.existsSync(dest)) return;
  // base-packs and the Work's folder in it, each made 0700 when missing.
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  const tmp = `${dest}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { mode: 0o700 });
  try {
    const revs = path.join(tmp, "revs");
    const written = path.join(tmp, "incoming.pack");
    fs.writeFileSync(revs, `${opts.tip}\n`);
    fs.writeFileSync(written, "");
    await git(["pack-objects", "--revs", "--stdout", "--quiet"], {
      cwd: opts.repoDir,
      stdinFile: revs,
      stdoutFile: written,
      timeoutMs: 1_800_000,
    });
    // Outside any repository: the pack file alone, its index written beside it; prints the pack's name.
    const name = (await git(["index-pack", written], { asServer: true, cwd: tmp, timeoutMs: 1_800_000 })).trim();
    if (!/^[0-9a-f]{40,64}$/.test(name)) throw new Error(`git index-pack named no pack (${name.slice(0, 80)})`);
    const kept = path.join(tmp, "kept");
    fs.mkdirSync(kept);
    for (const ext of ["pack", "idx"])
      fs.renameSync(path.join(tmp, `incoming.${ext}`), path.join(kept, `pack-${name}.${ext}`));
    fs.renameSync(kept, dest);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const old = fs
    .readdirSync(root)
    .filter(isSha)
    .map((sha) => ({ sha, mtime: fs.statSync(path.join(root, sha)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)
    .slice(KEEP);
  for (const { sha } of old) fs.rmSync(path.join(root, sha), { recursive: true, force: true });
}
