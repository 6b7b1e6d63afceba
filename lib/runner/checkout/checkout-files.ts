// Gatehouse's own reads and writes of a file that an agent or a check could have shaped (a checkout, a scratch
// worktree, a run's report folder): never through a symbolic link or a hard link, so a committed
// `tests/redteam -> /elsewhere` or `reports/m.json -> <data dir>/gatehouse.db` cannot carry them out of the
// root. Every step that touches such a file goes through here; none checks links on its own.
//
// How: the path is walked one name at a time from an open descriptor of the root (Linux's /proc/self/fd/<fd>/<name>
// stands in for openat), each folder opened with O_NOFOLLOW|O_DIRECTORY and the file with O_NOFOLLOW. So a link
// swapped in between a check and the open is refused too: there is no second lookup of the whole path.
import fs from "node:fs";
import path from "node:path";

export type CheckoutRead =
  | { kind: "file"; bytes: Buffer; size: number; mtimeMs: number }
  | { kind: "missing" }
  | { kind: "refused"; reason: string };

export type CheckoutWrite = { kind: "written"; path: string } | { kind: "refused"; reason: string };

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = fs.constants;
const HAS_PROC_FD = fs.existsSync("/proc/self/fd");

const LINK_REASON = "is a symbolic link: Gatehouse does not follow links in the checkout (one could lead out of it)";

// A relative path of plain names, or why it is not one.
function namesOf(rel: string): string[] | { reason: string } {
  if (rel.includes("\0")) return { reason: "contains a NUL character" };
  if (path.isAbsolute(rel)) return { reason: "is an absolute path, not a path inside the checkout" };
  const names = rel.split(/[/\\]+/).filter((n) => n !== "" && n !== ".");
  if (names.length === 0) return { reason: "names no file" };
  if (names.includes("..")) return { reason: "contains `..` (it would leave the checkout)" };
  return names;
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? "unknown error";

// A name under an open folder, as a path that reaches it through the descriptor (Linux: openat's stand-in).
const nameAt = (dirFd: number, dirPath: string, name: string) =>
  HAS_PROC_FD ? `/proc/self/fd/${dirFd}/${name}` : path.join(/* turbopackIgnore: true */ dirPath, name);

// An open folder itself, as a path (to list it).
const folderAt = (fd: number, dirPath: string) => (HAS_PROC_FD ? `/proc/self/fd/${fd}` : dirPath);

// Opens one name under an open folder without following a link in its place.
function openAt(dirFd: number, dirPath: string, name: string, flags: number, mode?: number): number {
  const where = nameAt(dirFd, dirPath, name);
  if (!HAS_PROC_FD && fs.lstatSync(where, { throwIfNoEntry: false })?.isSymbolicLink())
    throw Object.assign(new Error("symbolic link"), { code: "ELOOP" });
  return fs.openSync(where, flags | O_NOFOLLOW, mode);
}

type Owner = { uid: number; gid: number };
type Walk =
  | { fd: number; dirPath: string; last: string; shown: (i?: number) => string; owner: Owner | null }
  | { reason: string }
  | null;

// Who the folders and files the server makes under root are given to when `likeRoot` is asked (root's owner
// when the server runs as root and the tree is another user's: a checkout or a scratch worktree is the run-as
// user's, whose check that runs there next may write into a folder the server made); null: nobody.
function ownerFor(rootFd: number, likeRoot: boolean | undefined): Owner | null {
  if (!likeRoot || process.getuid?.() !== 0) return null;
  const { uid, gid } = fs.fstatSync(rootFd);
  return uid === 0 ? null : { uid, gid };
}

// Linux's O_PATH (not among Node's constants): a folder opened only to be walked from, which needs no read
// permission on it (a server not running as root may only search a folder above its data dir).
const O_PATH = HAS_PROC_FD ? 0o10000000 : O_RDONLY;

// A link on the way to a root is followed only when it sits in a folder the run-as user cannot change: owned by
// root or by the server's own user, writable by nobody else. Whoever made the link, one in a folder that user
// can write could be swapped between the look at it and the read of where it leads (or put there: a link of
// root's moved in from another folder of that user's), and lead root's writes anywhere.
const isPlatformFolder = (stat: fs.Stats) =>
  (stat.uid === 0 || stat.uid === process.getuid?.()) && (stat.mode & 0o022) === 0;
const MAX_HOPS = 40;

// Opens the folder at absolute path `dir`, and its real path. Opened by path first; when the folder reached is
// not the one the path names (a link was followed), walked again from / one name at a time, following only a
// link in a folder of the platform's (a `..` in a link's target steps back up the folders walked, as the
// kernel's lookup does). Missing: throws ENOENT; anything else it cannot open is a reason.
function openTrustedFolder(dir: string): { fd: number; dirPath: string } | { reason: string } {
  try {
    const fd = fs.openSync(/* turbopackIgnore: true */ dir, O_PATH | O_DIRECTORY);
    const real = HAS_PROC_FD ? fs.readlinkSync(`/proc/self/fd/${fd}`) : fs.realpathSync(dir);
    if (real === dir && HAS_PROC_FD) return { fd, dirPath: dir };
    fs.closeSync(fd);
  } catch (error) {
    if (codeOf(error) === "ENOENT") throw error;
  }
  const walked: { fd: number; name: string }[] = [{ fd: fs.openSync("/", O_PATH | O_DIRECTORY), name: "" }];
  const atPath = () => walked.map((w) => w.name).join("/") || "/";
  const names = dir.split("/").filter((n) => n !== "" && n !== ".");
  try {
    for (let hops = 0; names.length > 0; ) {
      const name = names.shift() as string;
      const at = walked[walked.length - 1];
      if (name === "..") {
        if (walked.length > 1) fs.closeSync((walked.pop() as { fd: number }).fd);
        continue;
      }
      try {
        walked.push({ fd: openAt(at.fd, atPath(), name, O_PATH | O_DIRECTORY), name });
      } catch (error) {
        const where = nameAt(at.fd, atPath(), name);
        const shown = path.join(atPath(), name);
        if (!fs.lstatSync(where, { throwIfNoEntry: false })?.isSymbolicLink()) {
          if (codeOf(error) === "ENOENT") throw error;
          return { reason: `${shown}, on the way to ${dir}, cannot be opened (${codeOf(error)})` };
        }
        if (!isPlatformFolder(fs.fstatSync(at.fd))) return { reason: `${shown}, on the way to ${dir}, ${LINK_REASON}` };
        if (++hops > MAX_HOPS) return { reason: `${dir}: more than ${MAX_HOPS} links on the way` };
        const target = fs.readlinkSync(where);
        if (target.startsWith("/")) while (walked.length > 1) fs.closeSync((walked.pop() as { fd: number }).fd);
        names.unshift(...target.split("/").filter((n) => n !== "" && n !== "."));
      }
    }
    const dirPath = atPath();
    return { fd: (walked.pop() as { fd: number }).fd, dirPath };
  } finally {
    for (const w of walked) fs.closeSync(w.fd);
  }
}

// Where root really is, its folders above it reached through no link but the platform's own (root's last name
// is not looked at: a walk from it refuses a link there).
function realRootPath(root: string): { path: string } | { reason: string } {
  const parent = openTrustedFolder(path.dirname(path.resolve(root)));
  if ("reason" in parent) return parent;
  fs.closeSync(parent.fd);
  return { path: path.join(parent.dirPath, path.basename(root)) };
}

// Opens the folders of `rel` under root one by one (creating them when `create` is set: given to root's owner,
// through the folder's own descriptor, when `ownedLikeRoot`); null: one is missing.
function walkFolders(root: string, rel: string, create: { mode: number; ownedLikeRoot?: boolean } | null): Walk {
  const names = namesOf(rel);
  if (!Array.isArray(names)) return { reason: `"${rel}" ${names.reason}` };
  const shown = (i = names.length) => names.slice(0, i).join("/");
  // The root itself is opened without following a link too, from its parent reached through no link but the
  // platform's own: a checkout's folder is in one the run-as user owns, where a link could be put in its place.
  const parent = openTrustedFolder(path.dirname(path.resolve(root)));
  if ("reason" in parent) return parent;
  let dirPath = path.join(parent.dirPath, path.basename(root));
  let fd: number;
  try {
    fd = openAt(parent.fd, parent.dirPath, path.basename(root), O_RDONLY | O_DIRECTORY);
  } catch (error) {
    // Looked at through the parent's descriptor: a swap back since the open cannot make this throw.
    const code = codeOf(error);
    if (
      code === "ELOOP" ||
      fs.lstatSync(nameAt(parent.fd, parent.dirPath, path.basename(root)), { throwIfNoEntry: false })?.isSymbolicLink()
    )
      return { reason: `the folder ${path.basename(root)} itself ${LINK_REASON}` };
    if (code === "ENOENT") throw error;
    return { reason: `the folder ${path.basename(root)} cannot be opened (${code})` };
  } finally {
    fs.closeSync(parent.fd);
  }
  let owner: Owner | null = null;
  try {
    owner = ownerFor(fd, create?.ownedLikeRoot);
    for (let i = 0; i < names.length - 1; i++) {
      const name = names[i];
      let next: number;
      try {
        next = openAt(fd, dirPath, name, O_RDONLY | O_DIRECTORY);
      } catch (error) {
        const code = codeOf(error);
        if (code === "ENOENT" && create) {
          try {
            fs.mkdirSync(nameAt(fd, dirPath, name), create.mode);
            next = openAt(fd, dirPath, name, O_RDONLY | O_DIRECTORY);
            if (owner) fs.fchownSync(next, owner.uid, owner.gid);
          } catch (again) {
            return { reason: reasonAt(dirPath, name, shown(i + 1), codeOf(again)) };
          }
        } else if (code === "ENOENT") return null;
        else return { reason: reasonAt(dirPath, name, shown(i + 1), code) };
      }
      fs.closeSync(fd);
      fd = next;
      dirPath = path.join(/* turbopackIgnore: true */ dirPath, name);
    }
    const walk = { fd, dirPath, last: names[names.length - 1], shown, owner };
    fd = -1;
    return walk;
  } finally {
    if (fd !== -1) fs.closeSync(fd);
  }
}

// Why a name could not be opened: a link in its place (ELOOP for a file, ENOTDIR or EEXIST for a folder),
// something else in a folder's place, or another error.
function reasonAt(dirPath: string, name: string, shown: string, code: string): string {
  const stat = fs.lstatSync(path.join(dirPath, name), { throwIfNoEntry: false });
  if (stat?.isSymbolicLink() || code === "ELOOP") return `${shown} ${LINK_REASON}`;
  if (code === "ENOTDIR" || code === "EEXIST") return `${shown} is not a folder`;
  return `${shown} cannot be opened (${code})`;
}

// Why the file a walk ends at could not be created: something already there (a link is said as a link), or
// another reason.
function creationRefusal(walk: { dirPath: string; last: string; shown: () => string }, code: string): string {
  return code === "EEXIST" && !fs.lstatSync(path.join(walk.dirPath, walk.last)).isSymbolicLink()
    ? `${walk.shown()} already exists`
    : reasonAt(walk.dirPath, walk.last, walk.shown(), code);
}

// Reads root/rel: a regular file with one name, at most maxBytes, reached without a link; never throws for
// what the checkout holds.
// `cut`: a larger file gives its first maxBytes instead of a refusal.
export function readCheckoutFile(root: string, rel: string, opts: { maxBytes: number; cut?: boolean }): CheckoutRead {
  const walk = walkFolders(root, rel, null);
  if (walk === null) return { kind: "missing" };
  if ("reason" in walk) return { kind: "refused", reason: walk.reason };
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO in the file's place must not hang the run.
    fd = openAt(walk.fd, walk.dirPath, walk.last, O_RDONLY | O_NONBLOCK);
  } catch (error) {
    const code = codeOf(error);
    return code === "ENOENT"
      ? { kind: "missing" }
      : { kind: "refused", reason: reasonAt(walk.dirPath, walk.last, walk.shown(), code) };
  } finally {
    fs.closeSync(walk.fd);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { kind: "refused", reason: `${walk.shown()} is not a regular file` };
    if (stat.nlink > 1)
      return {
        kind: "refused",
        reason: `${walk.shown()} is a hard link (another name of a file that may be elsewhere)`,
      };
    if (stat.size > opts.maxBytes && !opts.cut)
      return { kind: "refused", reason: `${walk.shown()} is ${stat.size} bytes, at most ${opts.maxBytes} are read` };
    const buffer = Buffer.alloc(opts.maxBytes + 1);
    let length = 0;
    for (;;) {
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > opts.maxBytes && opts.cut)
        return { kind: "file", bytes: buffer.subarray(0, opts.maxBytes), size: length, mtimeMs: stat.mtimeMs };
      if (length > opts.maxBytes)
        return { kind: "refused", reason: `${walk.shown()} grew past the ${opts.maxBytes} bytes read` };
    }
    return { kind: "file", bytes: buffer.subarray(0, length), size: length, mtimeMs: stat.mtimeMs };
  } catch (error) {
    return { kind: "refused", reason: `${walk.shown()} cannot be read (${codeOf(error)})` };
  } finally {
    fs.closeSync(fd);
  }
}

// A regular file at `file`, opened without following a link at its own name and without waiting on a FIFO (the
// open alone would wait for a writer), then checked through the same descriptor: for what git keeps in a
// checkout's .git, the run-as user's to swap between a look by path and a read. Its bytes and modification
// time; null when it is missing, anything but a regular file, or over `maxBytes`.
export function readPlainFile(
  file: string,
  maxBytes = Number.POSITIVE_INFINITY,
): { bytes: Buffer; mtime: Date } | null {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return null;
    return { bytes: fs.readFileSync(fd), mtime: stat.mtime };
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

export type CheckoutListing =
  | { kind: "folder"; files: string[] }
  | { kind: "missing" }
  | { kind: "refused"; reason: string };

// The regular files directly in root/rel (sorted; links, folders and anything else left out), the folder
// reached without a link like every read here.
export function listCheckoutFolder(root: string, rel: string): CheckoutListing {
  const read = readCheckoutFolder(root, rel);
  if (read.kind !== "folder") return read;
  return {
    kind: "folder",
    files: read.entries
      .filter((d) => d.isFile())
      .map((d) => d.name)
      .sort(),
  };
}

// A descriptor of root itself, reached as every walk here reaches it (for a search that walks on from it).
export function openCheckoutRoot(root: string): { fd: number } | { reason: string } {
  const walk = walkFolders(root, ".keep", null);
  if (walk === null) return { reason: `${root} is missing` };
  return "reason" in walk ? walk : { fd: walk.fd };
}

// Every entry directly in root/rel ("" or "." for root itself), the folder reached without a link.
export function readCheckoutFolder(
  root: string,
  rel: string,
): { kind: "folder"; entries: fs.Dirent[] } | { kind: "missing" } | { kind: "refused"; reason: string } {
  const walk = walkFolders(root, rel === "" ? ".keep" : `${rel}/.keep`, null);
  if (walk === null) return { kind: "missing" };
  if ("reason" in walk) return { kind: "refused", reason: walk.reason };
  try {
    return { kind: "folder", entries: fs.readdirSync(folderAt(walk.fd, walk.dirPath), { withFileTypes: true }) };
  } catch (error) {
    return { kind: "refused", reason: `${rel || "."} cannot be listed (${codeOf(error)})` };
  } finally {
    fs.closeSync(walk.fd);
  }
}

// Opens root/rel as a new file (nothing may be in its place, a link included) in folders that exist, reached
// without a link: its descriptor, for a caller that sets more than its bytes (its times, its owner).
export function createCheckoutFile(root: string, rel: string, mode: number): { fd: number } | { reason: string } {
  const walk = walkFolders(root, rel, null);
  if (walk === null) return { reason: `"${rel}": a folder of it is missing` };
  if ("reason" in walk) return walk;
  try {
    return { fd: openAt(walk.fd, walk.dirPath, walk.last, O_WRONLY | O_CREAT | O_EXCL, mode) };
  } catch (error) {
    return { reason: creationRefusal(walk, codeOf(error)) };
  } finally {
    fs.closeSync(walk.fd);
  }
}

export type CheckoutRemove = { kind: "removed" } | { kind: "missing" } | { kind: "refused"; reason: string };

// Removes root/rel when it is a file or a link (the link itself, never what it leads to), reached without a
// link; a folder in its place is refused, not walked (what is in it is the agent's to shape while it is).
export function removeCheckoutFile(root: string, rel: string): CheckoutRemove {
  const walk = walkFolders(root, rel, null);
  if (walk === null) return { kind: "missing" };
  if ("reason" in walk) return { kind: "refused", reason: walk.reason };
  try {
    fs.unlinkSync(nameAt(walk.fd, walk.dirPath, walk.last));
    return { kind: "removed" };
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT") return { kind: "missing" };
    const isFolder = code === "EISDIR" || code === "EPERM";
    return { kind: "refused", reason: `${walk.shown()} ${isFolder ? "is a folder" : `cannot be removed (${code})`}` };
  } finally {
    fs.closeSync(walk.fd);
  }
}

// Removes root/rel — a file or a link itself, or a folder with everything in it — but what `keep` keeps (by its
// path under root and what it is; a folder holding something kept stays). Every folder is opened from the one
// above it without following a link, and every name removed through its folder's descriptor: a folder swapped
// for a link meanwhile is neither entered nor removed through. What cannot be removed is left (the caller
// looks again). True when anything was removed.
export function removeCheckoutTree(root: string, rel: string, keep: (rel: string, stat: fs.Stats) => boolean): boolean {
  const walk = walkFolders(root, rel, null);
  if (walk === null || "reason" in walk) return false;
  try {
    return removeAt(walk.fd, walk.dirPath, walk.last, rel, keep);
  } finally {
    fs.closeSync(walk.fd);
  }
}

// Deeper than this, a tree is left where it is (the caller fails closed): each level holds a descriptor and a
// stack frame, and a tree the run-as user nests thousands deep must not hold the event loop or overflow.
const MAX_TREE_DEPTH = 256;

function removeAt(
  dirFd: number,
  dirPath: string,
  name: string,
  rel: string,
  keep: (rel: string, stat: fs.Stats) => boolean,
  depth = 0,
): boolean {
  if (depth > MAX_TREE_DEPTH) return false;
  const where = nameAt(dirFd, dirPath, name);
  const stat = fs.lstatSync(where, { throwIfNoEntry: false });
  if (!stat || keep(rel, stat)) return false;
  try {
    if (!stat.isDirectory()) {
      fs.unlinkSync(where);
      return true;
    }
  } catch {
    return false;
  }
  let fd: number;
  try {
    fd = openAt(dirFd, dirPath, name, O_RDONLY | O_DIRECTORY);
  } catch {
    return false;
  }
  const folderPath = path.join(/* turbopackIgnore: true */ dirPath, name);
  const names = () => fs.readdirSync(folderAt(fd, folderPath));
  let any = false;
  try {
    for (const child of names()) any = removeAt(fd, folderPath, child, `${rel}/${child}`, keep, depth + 1) || any;
    if (names().length > 0) return any;
  } catch {
    return any;
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.rmdirSync(where);
    return true;
  } catch {
    return any;
  }
}

// What root/rel itself is (a link is not followed), its folders reached without a link; null: missing.
export function lstatCheckoutEntry(root: string, rel: string): fs.Stats | null | { reason: string } {
  const walk = walkFolders(root, rel, null);
  if (walk === null || "reason" in walk) return walk;
  try {
    return fs.lstatSync(nameAt(walk.fd, walk.dirPath, walk.last), { throwIfNoEntry: false }) ?? null;
  } finally {
    fs.closeSync(walk.fd);
  }
}

// Makes a link at root/rel to `target` in folders that exist, reached without a link; false when something is
// already there or a folder is missing or refused.
export function linkInCheckout(root: string, rel: string, target: string): boolean {
  const walk = walkFolders(root, rel, null);
  if (walk === null || "reason" in walk) return false;
  try {
    fs.symlinkSync(target, nameAt(walk.fd, walk.dirPath, walk.last));
    return true;
  } catch {
    return false;
  } finally {
    fs.closeSync(walk.fd);
  }
}

// Writes root/rel, creating its folders, never through a link (a link in a folder's or the file's place is
// refused, not replaced). `exclusive`: an existing file is refused rather than overwritten. `ownedLikeRoot`:
// the folders it makes and the file belong to root's owner (given through their descriptors, never by path).
export function writeCheckoutFile(
  root: string,
  rel: string,
  content: Uint8Array | string,
  opts: { mode?: number; exclusive?: boolean; ownedLikeRoot?: boolean } = {},
): CheckoutWrite {
  const walk = walkFolders(root, rel, { mode: 0o755, ownedLikeRoot: opts.ownedLikeRoot });
  if (walk === null) return { kind: "refused", reason: `"${rel}": a folder could not be made` };
  if ("reason" in walk) return { kind: "refused", reason: walk.reason };
  let fd: number;
  try {
    fd = openAt(
      walk.fd,
      walk.dirPath,
      walk.last,
      O_WRONLY | O_CREAT | (opts.exclusive ? O_EXCL : 0),
      opts.mode ?? 0o644,
    );
  } catch (error) {
    return { kind: "refused", reason: creationRefusal(walk, codeOf(error)) };
  } finally {
    fs.closeSync(walk.fd);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { kind: "refused", reason: `${walk.shown()} is not a regular file` };
    // Truncating a second name of a file would change the file wherever its other name is.
    if (stat.nlink > 1)
      return {
        kind: "refused",
        reason: `${walk.shown()} is a hard link (another name of a file that may be elsewhere)`,
      };
    const { owner } = walk;
    if (owner && (stat.uid !== owner.uid || stat.gid !== owner.gid)) fs.fchownSync(fd, owner.uid, owner.gid);
    fs.ftruncateSync(fd, 0);
    const bytes = typeof content === "string" ? Buffer.from(content) : content;
    for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
    return { kind: "written", path: path.join(walk.dirPath, walk.last) };
  } finally {
    fs.closeSync(fd);
  }
}

export const isInside = (root: string, p: string) => p === root || p.startsWith(root + path.sep);

export type ResolvedInside =
  | { real: string; realRoot: string }
  | { missing: true }
  | { outside: string }
  | { refused: string };

// Where a path under root really is, for the places that follow a link that stays inside (a check's cwd, a
// built-in's file under the results directory): outside names the real path a link leads to. Root itself is
// reached through no link the run-as user could have made (refused: why not), and is no link itself.
export function resolveInside(root: string, candidate: string): ResolvedInside {
  const trusted = realRootPath(root);
  if ("reason" in trusted) return { refused: trusted.reason };
  const realRoot = trusted.path;
  if (fs.lstatSync(realRoot, { throwIfNoEntry: false })?.isSymbolicLink())
    return { refused: `the folder ${path.basename(root)} itself ${LINK_REASON}` };
  let real: string;
  try {
    real = fs.realpathSync(candidate);
  } catch {
    // Missing, or a dangling link: a link (even dangling) that points out is refused, not "not found".
    const link = fs.lstatSync(candidate, { throwIfNoEntry: false });
    if (link?.isSymbolicLink()) {
      const target = path.resolve(path.dirname(candidate), fs.readlinkSync(candidate));
      if (!isInside(realRoot, target)) return { outside: target };
    }
    return { missing: true };
  }
  return isInside(realRoot, real) ? { real, realRoot } : { outside: real };
}
// The run's own folders and files under the data dir (briefs, report files, the review's shims): a run's user
// may own the folder a file is in, so it could have put a link where a folder or a file is expected. Walked
// from the data dir like a checkout, a link is refused and thrown (the platform made these paths).
function underDataDir(dataDir: string, p: string): string {
  const rel = path.relative(dataDir, p);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) throw new Error(`${p} is not inside the data dir`);
  return rel;
}

// The data dir as the walk's root: resolved first (it is the admin's, and may be a link to another disk);
// the walk opens its root without following a link.
const realDataDir = (dataDir: string) => fs.realpathSync(dataDir);

// Makes the folder (and those above it, below the data dir) without following a link.
export function makeRunDir(dataDir: string, dir: string, mode = 0o700): void {
  const walk = walkFolders(realDataDir(dataDir), path.join(underDataDir(dataDir, dir), "_"), { mode });
  if (walk === null) throw new Error(`${dir}: a folder could not be made`);
  if ("reason" in walk) throw new Error(`${dir}: ${walk.reason}`);
  fs.closeSync(walk.fd);
}

export function writeRunFile(dataDir: string, file: string, content: Uint8Array | string, mode = 0o600): string {
  const written = writeCheckoutFile(realDataDir(dataDir), underDataDir(dataDir, file), content, { mode });
  if (written.kind === "refused") throw new Error(`${file}: ${written.reason}`);
  return written.path;
}

// A file a run's process wrote for the platform (a report): read the same way.
export function readRunFile(dataDir: string, file: string, maxBytes: number): CheckoutRead {
  return readCheckoutFile(realDataDir(dataDir), underDataDir(dataDir, file), { maxBytes });
}
