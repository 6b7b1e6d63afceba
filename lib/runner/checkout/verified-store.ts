// What Gatehouse judges a change by is read from objects it can trust. A task checkout's object store is
// the agent's: git never checks, when it reads a loose object or a pack, that the content matches the id
// it is filed under, so an agent can rewrite the start commit's copy of a test file — the patch the proof
// rows read would then hide the edit, `_tests-kept` would lay the forgery back as "the original", and
// `_fails-without-change` would run the start commit's code as the agent rewrote it.
//
// An attempt's verified store is a bare repository of the platform's (made by hand, outside every sandbox,
// removed with the attempt's files) whose object lookups never reach the checkout: the Work's clone as its
// alternate (every object the clone holds was hashed when it arrived: clone, fetch.fsckObjects) and, in its
// own object directory, what the checkout as the checks saw it holds beyond the start commit's tree. That
// comes as a pack git hashes object by object while indexing it (index-pack): an object whose content does
// not match its id arrives under its real id, and the tree naming the forged id points at an object the
// store does not have — reading it fails, it never shows the forgery.
//
// Scratch worktrees stay worktrees of the task checkout (what the checks run in sees no more of the
// repository than the checkout does), but their files and index are written from the verified store.
import fs from "node:fs";
import path from "node:path";
import { giveTo, type RunAsUser } from "../run-as";
import { removeCheckoutFile, resolveInside } from "./checkout-files";
import { git, gitCaptured, type GitOptions } from "./git";

// An empty pack: the 12-byte header and the 20-byte checksum.
const EMPTY_PACK_BYTES = 32;
// Commit id → tree id, as verified stores read them (the oldest goes first past the limit).
const treesOfCommits = new Map<string, string>();
const KEPT_TREES = 1000;
const treeKey = (repoDir: string, commit: string) => `${path.resolve(repoDir)}\0${commit}`;

export class VerifiedStore {
  private packs = 0;
  // Holds objects brought from the checkout (the agent's, hashed on arrival): its answers are then no longer
  // the clone's alone.
  private hasBrought = false;

  private constructor(
    readonly dir: string,
    private readonly runAs: RunAsUser | null,
    // The Work's clone it borrows from: a commit's tree is kept for that clone alone.
    private readonly repoDir: string,
  ) {}

  // Makes the store at `dir` (anything there before goes), borrowing the objects of the clone at `repoDir`.
  static open(opts: { dir: string; repoDir: string; runAs: RunAsUser | null }): VerifiedStore {
    const { dir, runAs } = opts;
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    for (const sub of ["", "info", "objects", "objects/info", "objects/pack", "refs", "incoming"]) {
      fs.mkdirSync(path.join(dir, sub), { recursive: true });
      giveTo(path.join(dir, sub), runAs);
    }
    fs.writeFileSync(path.join(dir, "HEAD"), "ref: refs/heads/none\n");
    fs.writeFileSync(path.join(dir, "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = true\n");
    // A file is written as its blob holds it: no line-ending, encoding, ident or filter conversion that a
    // `.gitattributes` of the change names (this file outranks every one of them). A laid-over test file
    // must be the start commit's bytes, not a CRLF copy in which `true\r` is no command.
    fs.writeFileSync(path.join(dir, "info", "attributes"), "* -text -ident -filter -working-tree-encoding\n");
    fs.writeFileSync(
      path.join(dir, "objects", "info", "alternates"),
      `${fs.realpathSync(path.join(opts.repoDir, "objects"))}\n`,
    );
    return new VerifiedStore(dir, runAs, opts.repoDir);
  }

  // git in the store (its config is the platform's alone: nothing to list and switch off).
  options(more: Omit<GitOptions, "cwd" | "isOwnConfig"> = {}): GitOptions {
    return { ...more, cwd: this.dir, isOwnConfig: true, env: { GIT_DIR: this.dir, ...more.env } };
  }

  git(args: string[], more: Omit<GitOptions, "cwd" | "isOwnConfig"> = {}): Promise<string> {
    return git(args, this.options(more));
  }

  // The tree of `commit` when a store of the clone at `repoDir` has read it already (no git process, no
  // store); else null.
  static knownTreeOf(repoDir: string, commit: string): string | null {
    return treesOfCommits.get(treeKey(repoDir, commit)) ?? null;
  }

  // The tree of `commit` as the store (through the clone) has it; null when it does not have the commit.
  // A commit's id names its tree (the tree's id is part of what the commit id hashes), and a store reads
  // commits from objects that were hashed as they arrived: the answer is kept for the process, by clone and
  // commit id (so a commit only another Work's clone holds is never taken as this one's). Asked before the
  // store brings anything, it is the clone's own answer.
  async treeOf(commit: string): Promise<string | null> {
    const key = treeKey(this.repoDir, commit);
    const known = treesOfCommits.get(key);
    if (known) return known;
    const read = await gitCaptured(["rev-parse", "--verify", "--quiet", `${commit}^{tree}`], this.options());
    if (read.code !== 0) return null;
    const tree = read.stdout.trim();
    if (!this.hasBrought && /^[0-9a-f]{40}$/.test(commit)) {
      if (treesOfCommits.size >= KEPT_TREES) treesOfCommits.delete(treesOfCommits.keys().next().value as string);
      treesOfCommits.set(key, tree);
    }
    return tree;
  }

  // Brings the objects of the tree `tree` of the checkout that `base` (a tree the store already has, read
  // from the checkout's copy only to leave its objects out) does not hold. An object `base` claims, forged,
  // is left out and then missing here; one sent forged arrives under its real id.
  async bring(checkoutPath: string, tree: string, base: string): Promise<void> {
    if (tree === base) return;
    this.hasBrought = true;
    const n = ++this.packs;
    const incoming = path.join(this.dir, "incoming");
    const revs = path.join(incoming, `revs-${n}`);
    const pack = path.join(incoming, `pack-${n}`);
    fs.writeFileSync(revs, `${tree}\n--not\n${base}\n`);
    // Written by git as its stdout (never a file git names in the checkout's .git, which is the agent's).
    fs.writeFileSync(pack, "");
    giveTo(revs, this.runAs);
    giveTo(pack, this.runAs);
    try {
      await git(["pack-objects", "--revs", "--stdout", "--quiet", "--no-reuse-delta"], {
        cwd: checkoutPath,
        stdinFile: revs,
        stdoutFile: pack,
        timeoutMs: 600_000,
        // No delta search (the pack is hashed whole on arrival anyway), whatever the agent's config asks.
        config: [
          ["pack.window", "0"],
          ["pack.depth", "0"],
          ["pack.threads", "1"],
        ],
      });
      if (fs.statSync(pack).size > EMPTY_PACK_BYTES)
        await this.git(["index-pack", "--stdin"], { stdinFile: pack, timeoutMs: 600_000 });
    } finally {
      fs.rmSync(revs, { force: true });
      fs.rmSync(pack, { force: true });
    }
  }

  // The tree `base` (which the store has) with `files` added (path → bytes), made here; its new objects are
  // copied into the task checkout `checkoutPath` too, so a commit of it can be made there. For files
  // Gatehouse itself adds to the change (the red team's probes), without reading the checkout again.
  async withFiles(base: string, files: ReadonlyMap<string, Buffer>, checkoutPath: string): Promise<string> {
    const n = ++this.packs;
    const incoming = path.join(this.dir, "incoming");
    const index = path.join(incoming, `index-${n}`);
    const paths = [...files.keys()];
    const blobs = paths.map((_, k) => path.join(incoming, `blob-${n}-${k}`));
    const pack = path.join(incoming, `pack-${n}`);
    const revs = path.join(incoming, `revs-${n}`);
    try {
      for (const [k, p] of paths.entries()) fs.writeFileSync(blobs[k], files.get(p)!);
      const env = { GIT_INDEX_FILE: index };
      await this.git(["read-tree", base], { env });
      const ids = (await this.git(["hash-object", "-w", "--no-filters", "--", ...blobs])).trim().split("\n");
      const entries = paths.flatMap((p, k) => ["--cacheinfo", `100644,${ids[k]},${p}`]);
      if (paths.length > 0) await this.git(["update-index", "--add", ...entries], { env });
      const tree = (await this.git(["write-tree"], { env })).trim();
      fs.writeFileSync(revs, `${tree}\n--not\n${base}\n`);
      fs.writeFileSync(pack, "");
      for (const file of [revs, pack]) giveTo(file, this.runAs);
      await this.git(["pack-objects", "--revs", "--stdout", "--quiet"], { stdinFile: revs, stdoutFile: pack });
      if (fs.statSync(pack).size > EMPTY_PACK_BYTES)
        await git(["index-pack", "--stdin"], { cwd: checkoutPath, stdinFile: pack, timeoutMs: 600_000 });
      return tree;
    } finally {
      for (const file of [index, pack, revs, ...blobs]) fs.rmSync(file, { force: true });
    }
  }

  // Writes the files of `treeish` into the scratch worktree `dir` (empty but for its .git), with the index
  // `indexFile` (the scratch worktree's own, which no command has reached yet) made to match them.
  async fill(dir: string, indexFile: string, treeish: string): Promise<void> {
    await git(["read-tree", "--reset", "-u", treeish], { ...this.worktreeOptions(dir, indexFile), timeoutMs: 600_000 });
  }

  // Lays `files` of `treeish` over the scratch worktree `dir` (added or changed there), and deletes
  // `deleted`. The index git needs for it is one of the store's own: nothing is written in the checkout's
  // .git, which the commands run in scratch worktrees can reach.
  async layOver(
    dir: string,
    treeish: string,
    files: readonly string[],
    deleted: readonly string[] = [],
  ): Promise<void> {
    if (files.length > 0) {
      const index = path.join(this.dir, "incoming", `index-${++this.packs}`);
      try {
        await git(["checkout", "--quiet", treeish, "--", ...files], this.worktreeOptions(dir, index));
      } finally {
        fs.rmSync(index, { force: true });
      }
    }
    // A folder on the way may be a link inside the worktree (committed, followed as a command would), never
    // one out of it (the commands run there before); the removal itself walks by descriptors from the worktree.
    // What cannot be deleted (a folder in the file's place, a link on the way) fails the re-run, as before:
    // the commands must not run with the file still there.
    for (const file of deleted) {
      const target = path.resolve(dir, file);
      if (!target.startsWith(dir + path.sep)) continue;
      const folder = resolveInside(dir, path.dirname(target));
      if ("refused" in folder) throw new Error(`the scratch worktree: ${folder.refused}`);
      if (!("real" in folder)) continue;
      const { real, realRoot } = folder;
      const removed = removeCheckoutFile(realRoot, path.relative(realRoot, path.join(real, path.basename(target))));
      if (removed.kind === "refused") throw new Error(`${file} could not be deleted: ${removed.reason}`);
    }
  }

  // git with the store's objects and the scratch worktree's files; paths are taken literally (no globs).
  // Every place git would look for a repository is named, so a `.git` the commands run in the scratch left
  // there (a folder with a config naming a filter program) is never read.
  private worktreeOptions(dir: string, indexFile: string): GitOptions {
    return {
      cwd: dir,
      isOwnConfig: true,
      env: {
        GIT_DIR: this.dir,
        GIT_COMMON_DIR: this.dir,
        GIT_OBJECT_DIRECTORY: path.join(this.dir, "objects"),
        GIT_WORK_TREE: dir,
        GIT_INDEX_FILE: indexFile,
        GIT_LITERAL_PATHSPECS: "1",
      },
    };
  }

  close(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
