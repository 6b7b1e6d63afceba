// `_protected` judged by re-running (README, "Proof rows"): which gate files of which checks the change
// edited (lib/gates/gate-files.ts decides), and the checks that passed with the change's version run again
// in a scratch worktree of the change with the start commit's version of those files laid over it.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { restoreParts } from "../../gates/gate-file-parts";
import { editedGateFiles, gateFilesOf, type GateEdit, type GateFiles } from "../../gates/gate-files";
import { globMatcher } from "../../gates/globs";
import type { EffectiveCheck } from "../../gates/merge-checks";
import { PROTECTED, type Rerun } from "../../gates/proof";
import { removeCheckoutFile, resolveInside, writeCheckoutFile } from "../checkout/checkout-files";
import { git, type GitOptions } from "../checkout/git";
import type { AttemptContext, Change } from "./context";
import { isRerunnable, rerunAll, showRunning } from "./reruns";

export type GateJudgement = {
  hasGateFiles: boolean;
  edits: GateEdit[];
  reruns: Rerun[] | null;
  notPassing: string[];
};

// A file's text at a commit or tree, read through git from the verified store (null: not there). The gate-file rules are pure
// and synchronous, so they run over what was read so far and say what else they need; read it, repeat.
class VersionReader {
  private readonly cache = new Map<string, string | null>();
  private readonly wanted = new Set<string>();
  constructor(
    // Asked only when a file must be read (a change of checks alone may read none, and make no store).
    private readonly where: () => GitOptions,
    private readonly rev: string,
    // A folder of the server's own (it exists) for the path git is given.
    private readonly tmpDir: string,
  ) {}
  read = (file: string): string | null => {
    if (this.cache.has(file)) return this.cache.get(file)!;
    this.wanted.add(file);
    return null;
  };
  async fetchWanted(): Promise<boolean> {
    const files = [...this.wanted].filter((f) => !this.cache.has(f));
    this.wanted.clear();
    await Promise.all(
      files.map(async (file) =>
        this.cache.set(file, await readThroughLinks(this.where(), this.rev, file, this.tmpDir)),
      ),
    );
    return files.length > 0;
  }
}

// The text read for a path that a link in the tree leads out of the tree: never a file's text (it starts with
// a NUL), so a link added, removed or retargeted on the way to a gate file reads as that file edited.
const LINK_OUT = "\0gatehouse: a link out of the tree to ";

// A file's text at `rev` as git would reach it on disk: through the links the tree holds on the way (`cat-file
// --batch --follow-symlinks`: a gate path behind a folder the change made a link, or one the start commit had,
// is the file the link leads to); LINK_OUT for a link out of the tree; null for nothing there (missing, a
// dangling link, a loop, a tree, a submodule). One path per git process, so nothing git prints for one (a link's
// target is printed as stored, newlines and all) can be read as another's answer. A path git would take as
// relative to a folder (./, ../) or that cannot go on one line is read by its name alone, as before.
async function readThroughLinks(where: GitOptions, rev: string, file: string, tmpDir: string): Promise<string | null> {
  const byName = () => git(["cat-file", "blob", `${rev}:${file}`], where).catch(() => null);
  if (/[\r\n]/.test(file) || /^\.\.?\//.test(file)) return byName();
  const input = path.join(tmpDir, `gate-path-${process.pid}-${randomBytes(6).toString("hex")}`);
  fs.writeFileSync(input, `${rev}:${file}\n`, { mode: 0o600 });
  let answer: string;
  try {
    answer = await git(["cat-file", "--batch", "--follow-symlinks"], { ...where, stdinFile: input });
  } catch {
    return byName();
  } finally {
    fs.rmSync(input, { force: true });
  }
  const header = answer.slice(0, answer.indexOf("\n") >>> 0);
  const [first, type] = header.split(" ");
  if (first === "symlink") return `${LINK_OUT}${answer.slice(header.length + 1, -1)}`;
  if (!/^[0-9a-f]{40,64}$/.test(first) || type !== "blob") return null;
  // The blob's bytes follow the header, and one newline ends them.
  return answer.slice(header.length + 1, -1);
}

// Gate files of every check at both versions (what decides a check now, and what decided it at the start).
async function gateFilesOfChecks(
  ctx: AttemptContext,
  checks: readonly EffectiveCheck[],
  start: VersionReader,
  head: VersionReader,
): Promise<Map<string, GateFiles>> {
  const isTest = globMatcher(ctx.run.proof?.testPatterns ?? []);
  for (let round = 0; ; round++) {
    const all = new Map<string, GateFiles>();
    for (const check of checks) {
      const now = gateFilesOf(check, head.read, isTest);
      const then = gateFilesOf(check, start.read, isTest);
      const refs = [
        ...now.refs,
        ...then.refs.filter((r) => !now.refs.some((n) => n.path === r.path && n.part === r.part)),
      ];
      const globs = [...now.globs, ...then.globs.filter((g) => !now.globs.some((n) => n.glob === g.glob))];
      all.set(check.id, { refs, globs });
    }
    const [a, b] = await Promise.all([start.fetchWanted(), head.fetchWanted()]);
    if ((!a && !b) || round >= 8 || ctx.signal.aborted) return all;
  }
}

export async function judgeGateEdits(ctx: AttemptContext, change: Change): Promise<GateJudgement> {
  const tmpDir = path.join(ctx.deps.dataDir, "tmp");
  const start = new VersionReader(() => change.store.options(), ctx.run.startCommit!, tmpDir);
  const head = new VersionReader(() => change.store.options(), change.tree, tmpDir);
  const checks = ctx.run.checks.filter((c) => isRerunnable(c) && c.use === undefined);
  const gateFiles = await gateFilesOfChecks(ctx, checks, start, head);
  const hasGateFiles = [...gateFiles.values()].some((g) => g.refs.length > 0 || g.globs.length > 0);
  const edits = editedGateFiles({
    changes: change.changes,
    gateFiles,
    readStart: start.read,
    readHead: head.read,
    matches: (glob, file) => globMatcher([glob])(file),
  });
  // Runner configuration the change added or deleted was never fetched: read both versions for the restore.
  for (const e of edits) {
    start.read(e.path);
    head.read(e.path);
  }
  await Promise.all([start.fetchWanted(), head.fetchWanted()]);
  if (edits.length === 0) return { hasGateFiles, edits, reruns: null, notPassing: [] };
  const affected = new Set(edits.flatMap((e) => e.checks));
  const rows = ctx.results.view();
  const passedNow = (id: string) => rows.find((r) => r.checkId === id)?.verdict === "passed";
  const toRerun = checks.filter((c) => affected.has(c.id) && passedNow(c.id));
  const notPassing = checks.filter((c) => affected.has(c.id) && !passedNow(c.id)).map((c) => c.id);
  if (toRerun.length === 0) return { hasGateFiles, edits, reruns: null, notPassing };
  showRunning(ctx, PROTECTED, new Date(), "running the checks with their gate files as they were…");
  const reruns = await ctx.withScratch(PROTECTED, "change", async ({ dir }) => {
    const notRestored = new Map<string, string>();
    // Where each edit was put back, as the worktree's folders really are: two gate paths the change made one
    // file (a folder turned into a link to another) cannot both hold their start text.
    const restoredAt = new Map<string, GateEdit>();
    for (const e of edits) {
      const [then, now] = [start.read(e.path), head.read(e.path)];
      // Behind a link out of the tree at either version: there is no start text to put back in the worktree.
      const isOutside = [then, now].some((t) => t?.startsWith(LINK_OUT));
      const restored = isOutside
        ? { problem: "a link on its way leads out of the tree" }
        : restoreGateFile(dir, e.path, restoreParts(then, now, e.parts));
      const other = "at" in restored ? restoredAt.get(restored.at) : undefined;
      const problem =
        "problem" in restored
          ? restored.problem
          : other
            ? `it is the same file as ${other.path} through a link the change made`
            : null;
      if ("at" in restored) restoredAt.set(restored.at, e);
      if (!problem) continue;
      for (const id of e.checks) notRestored.set(id, `${e.path}: ${problem}`);
      for (const id of other?.checks ?? []) notRestored.set(id, `${other!.path}: the same file as ${e.path}`);
    }
    // A check whose gate file could not be put back is not run with the change's version: it fails the row
    // (never judged as passing with the original).
    const cannot = toRerun.filter((c) => notRestored.has(c.id));
    const ran = await rerunAll(
      ctx,
      toRerun.filter((c) => !notRestored.has(c.id)),
      dir,
      PROTECTED,
    );
    return [
      ...cannot.map((c) => ({
        checkId: c.id,
        verdict: "error",
        exitCode: null,
        message: `its gate file could not be put back as it was (${notRestored.get(c.id)})`,
        tail: null,
      })),
      ...ran,
    ];
  });
  return { hasGateFiles, edits, reruns, notPassing };
}

// Puts a gate file back in the scratch worktree as the start commit had it (`text` null: it did not exist).
// Its folders are taken as they really are — a link the change committed that leads to another folder of the
// worktree is followed, as the check itself would follow it — and then walked by descriptors from the
// worktree's folder (itself never followed: its parent is the run-as user's, who could put a link in its
// place), so nothing swapped in meanwhile is followed. Returns where it was put (relative to the worktree), or
// why it could not be.
function restoreGateFile(dir: string, rel: string, text: string | null): { at: string } | { problem: string } {
  let folder = path.resolve(dir, path.dirname(rel));
  const missing: string[] = [];
  while (!fs.existsSync(folder) && folder !== dir) {
    missing.unshift(path.basename(folder));
    folder = path.dirname(folder);
  }
  const where = resolveInside(dir, folder);
  if ("refused" in where) return { problem: where.refused };
  if ("outside" in where) return { problem: `its folder leads out of the worktree (to ${where.outside})` };
  if ("missing" in where) return { problem: "its folder went away" };
  const root = where.realRoot;
  const at = path.join(path.relative(root, where.real), ...missing, path.basename(rel));
  const removed = removeCheckoutFile(root, at);
  if (removed.kind === "refused") return { problem: removed.reason };
  if (text === null) return { at };
  const written = writeCheckoutFile(root, at, text, { exclusive: true, ownedLikeRoot: true });
  return written.kind === "refused" ? { problem: written.reason } : { at };
}
