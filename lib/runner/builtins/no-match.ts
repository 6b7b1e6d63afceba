// no_match: no line of the files matching `glob` (under the results directory) matches `pattern`. The
// search runs in a worker thread: a regular expression that backtracks for ever cannot stall the server,
// and the check's timeout or a cancel terminates the thread mid-match. A symbolic link where a match could be
// is followed one level when it points inside the results folder (the check's commands read through it, so
// its file or folder is searched under the link's name), and is an error otherwise; `.git` and
// `node_modules` are not entered, nor folders outside the glob's fixed start; the files and bytes searched are
// capped.
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import picomatch from "picomatch";
import type { BuiltinParams } from "../../gates/builtins";
import { expandPlaceholders, PlaceholderError } from "../../gates/placeholders";
import { openCheckoutRoot } from "../checkout/checkout-files";
import { MAX_FILE_BYTES, type BuiltinAnswer, type BuiltinIo } from "./builtin-io";

const MAX_FILES = 20_000;
// Folders a search opens (each link to a folder is walked again, under its own name).
const MAX_FOLDERS = 50_000;
const MAX_TOTAL_BYTES = 256 * 1024 * 1024;
const MAX_MATCHES_LOGGED = 50;

// CommonJS run by the worker (eval): walks the root, tests each line, posts what it found.
const SEARCH = `
const fs = require("node:fs");
const { parentPort, workerData } = require("node:worker_threads");
const { rootFd, globSource, globFlags, base, pattern, maxFiles, maxFolders, maxBytes, maxFileBytes, maxMatches } =
  workerData;
// Only folders on the way to the glob's fixed start (\`src\` of \`src/**/*.ts\`) or under it can hold a match.
const inScope = (rel) => !base || rel === base || rel.startsWith(base + "/") || base.startsWith(rel + "/");
const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
// Every folder and file is opened from its folder's descriptor (this thread shares the process's), none by a
// path from the root: a folder swapped for a link while this walks is refused, never followed.
const at = (fd, name) => "/proc/self/fd/" + fd + "/" + name;
function openFolder(rel) {
  let fd = fs.openSync("/proc/self/fd/" + rootFd, O_RDONLY | O_DIRECTORY);
  for (const name of rel ? rel.split("/") : []) {
    let next;
    try { next = fs.openSync(at(fd, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW); } finally { fs.closeSync(fd); }
    fd = next;
  }
  return fd;
}
function unreadable(rel, kind, error) {
  if (error.code === "ELOOP") return rel + " became a symbolic link (links are not followed)";
  if (error.code === "ENOTDIR") return rel + " is no longer a folder";
  return "the " + kind + " " + rel + " cannot be read (" + (error.code || error.message) + "): what cannot be \
searched is not taken as clean";
}
const glob = new RegExp(globSource, globFlags);
const re = new RegExp(pattern);
const matches = [];
let files = 0, bytes = 0, folders = 0, matchCount = 0, problem = null;
const textOf = (raw) => { const text = raw.toString("utf8"); return Buffer.from(text).equals(raw) ? text : null; };
const join = (rel, name) => (rel ? rel + "/" + name : name);
const isSkipped = (name) => name === ".git" || name === "node_modules";
const throughNonFolder = (shown) =>
  shown + " links through something that is not a folder (links are followed one level)";
// Searches one file (its descriptor, opened without following a link), its lines reported under \`shown\`.
// False when the search must end (\`problem\` says why).
function searchFile(fd, shown) {
  let text;
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return true;
    if (++files > maxFiles) { problem = "more than " + maxFiles + " files match the glob"; return false; }
    if (stat.size > maxFileBytes) { problem = shown + " is larger than " + maxFileBytes + " bytes"; return false; }
    bytes += stat.size;
    if (bytes > maxBytes) { problem = "the matching files hold more than " + maxBytes + " bytes"; return false; }
    text = fs.readFileSync(fd, "utf8");
  } finally { fs.closeSync(fd); }
  const lines = text.split(/\\r?\\n/);
  for (let i = 0; i < lines.length; i++) {
    if (!re.test(lines[i])) continue;
    matchCount++;
    if (matches.length < maxMatches) matches.push({ file: shown, line: i + 1, text: lines[i].slice(0, 200) });
  }
  return true;
}
// Where a link at \`linkReal\` (a real path under the root) points, as a real path under the root, or a string
// saying why it is not followed: out of the root, or through another link (every name it goes through, even
// one a later ".." undoes, must be a real folder: the kernel goes through it as the check's commands would).
class NotFollowed { constructor(why) { this.why = why; } }
function linkTarget(shown, linkReal, dirFd, name) {
  const target = textOf(fs.readlinkSync(at(dirFd, name), { encoding: "buffer" }));
  if (target === null) return new NotFollowed(shown + " links to a name that is not UTF-8 (it cannot be searched)");
  if (target.startsWith("/"))
    return new NotFollowed(shown + " is an absolute link (only relative links inside the results folder are followed)");
  const out = new NotFollowed(shown + " is a symbolic link out of the results folder (links out are not followed)");
  const parts = linkReal.split("/").slice(0, -1);
  const names = target.split("/").filter((n) => n && n !== ".");
  for (let i = 0; i < names.length; i++) {
    if (names[i] === "..") { if (parts.length === 0) return out; parts.pop(); continue; }
    parts.push(names[i]);
    if (i < names.length - 1) {
      try { fs.closeSync(openFolder(parts.join("/"))); }
      catch (e) {
        if (e.code === "ELOOP" || e.code === "ENOTDIR") return new NotFollowed(throughNonFolder(shown));
        throw e;
      }
    }
  }
  return parts.join("/");
}
// Whether a link leads to a folder (followed by the kernel to learn only that; nothing there is read).
function isFolderThrough(dirFd, name) {
  try { return fs.statSync(at(dirFd, name)).isDirectory(); } catch { return false; }
}
// Folders to walk: the path the glob is tested against (\`shown\`), the one opened (\`real\`: another for a
// folder reached through a link), and whether a link led there (links are followed one level only).
const stack = [{ shown: "", real: "", linked: false }];
outer: while (stack.length) {
  const { shown: rel, real, linked } = stack.pop();
  let dirFd, entries;
  // A folder or file that is gone since it was listed is skipped; one that is there but cannot be opened
  // (made unreadable to the server's user, swapped for a link) ends the search: it is never taken as clean.
  try { dirFd = openFolder(real); }
  catch (e) { if (e.code === "ENOENT" && rel) continue; problem = unreadable(rel || ".", "folder", e); break; }
  try {
  try { entries = fs.readdirSync("/proc/self/fd/" + dirFd, { withFileTypes: true, encoding: "buffer" }); }
  catch (e) { problem = unreadable(rel || ".", "folder", e); break; }
  if (++folders > maxFolders) { problem = "more than " + maxFolders + " folders to search"; break; }
  entries.sort((a, b) => Buffer.compare(b.name, a.name));
  for (const e of entries) {
    // A name that is not UTF-8 cannot be told apart from another here (nor tested against the glob): refused.
    const name = textOf(e.name);
    if (name === null) { problem = "a name in " + (rel || ".") + " is not UTF-8 (it cannot be searched)"; break outer; }
    const child = join(rel, name);
    if (e.isDirectory()) {
      if (!isSkipped(name) && inScope(child)) stack.push({ shown: child, real: join(real, name), linked });
      continue;
    }
    if (e.isSymbolicLink()) {
      // A link where a match of the glob could be: what the check's commands read through it is searched.
      const asFile = glob.test(child);
      const asFolder = !isSkipped(name) && inScope(child);
      if (!asFile && !asFolder) continue;
      // In reach only as a folder: a link to a file (or to nothing) holds no match of the glob.
      if (!asFile && !isFolderThrough(dirFd, name)) continue;
      if (linked) {
        problem = child + " is a link inside a linked folder (links are followed one level)";
        break outer;
      }
      let target;
      try {
        target = linkTarget(child, join(real, name), dirFd, name);
      } catch (err) { if (err.code === "ENOENT") continue; problem = unreadable(child, "link", err); break outer; }
      if (target instanceof NotFollowed) { problem = target.why; break outer; }
      // What the link leads to, looked at from its folder without following a link: only a folder or a file is
      // followed; another link is not (one level).
      const slash = target.lastIndexOf("/");
      const [folder, leaf] = [target.slice(0, Math.max(slash, 0)), target.slice(slash + 1)];
      let fd;
      try {
        const folderFd = openFolder(folder);
        try {
          const stat = leaf ? fs.lstatSync(at(folderFd, leaf)) : fs.fstatSync(folderFd);
          if (stat.isSymbolicLink()) {
            problem = child + " links to another link (links are followed one level)";
            break outer;
          }
          if (stat.isDirectory()) {
            if (asFolder) stack.push({ shown: child, real: target, linked: true });
            continue;
          }
          if (!asFile || !stat.isFile()) continue;
          fd = fs.openSync(at(folderFd, leaf), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
        } finally { fs.closeSync(folderFd); }
      } catch (err) {
        if (err.code === "ENOENT") continue;
        problem = err.code === "ELOOP" || err.code === "ENOTDIR"
          ? throughNonFolder(child) : unreadable(child, "link's target", err);
        break outer;
      }
      if (!searchFile(fd, child)) break outer;
      continue;
    }
    if (!e.isFile() || !glob.test(child)) continue;
    // Opened without following a link (one swapped in since the listing) and read through that descriptor.
    let fd;
    try { fd = fs.openSync(at(dirFd, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK); }
    catch (e) { if (e.code === "ENOENT") continue; problem = unreadable(child, "file", e); break outer; }
    if (!searchFile(fd, child)) break outer;
  }
  } finally { fs.closeSync(dirFd); }
}
parentPort.postMessage({ files: Math.min(files, maxFiles), matchCount, matches, problem });
`;

// The folder every match of the glob is under ("" when it has none, or when that cannot be told for sure: a
// negated glob, an escaped character, a `|` — which picomatch passes on into the expression as an
// alternative, so `src/*.ts|lib/*.ts` matches under lib too).
function fixedStartOf(glob: string): string {
  const scanned = picomatch.scan(glob);
  return scanned.negated || /[\\|]/.test(glob) ? "" : scanned.base.replace(/\/+$/, "");
}

type Found = {
  files: number;
  matchCount: number;
  matches: { file: string; line: number; text: string }[];
  problem: string | null;
};

export async function noMatch(p: BuiltinParams["no_match"], io: BuiltinIo): Promise<BuiltinAnswer> {
  let glob: string;
  try {
    glob = expandPlaceholders(p.glob, io.dirs);
  } catch (error) {
    if (error instanceof PlaceholderError) return { verdict: "error", message: `glob: ${error.message}` };
    throw error;
  }
  if (glob.startsWith("/") || glob.split("/").includes(".."))
    return { verdict: "error", message: `glob ${p.glob}: leaves the results directory (globs are relative to it)` };
  let globRe: RegExp;
  try {
    new RegExp(p.pattern);
    globRe = picomatch.makeRe(glob, { dot: true });
  } catch (error) {
    return { verdict: "error", message: `pattern or glob does not parse: ${(error as Error).message}` };
  }
  io.log(`searching files matching ${p.glob} for /${p.pattern}/`);
  const root = openCheckoutRoot(io.dirs.results_dir);
  if ("reason" in root) return { verdict: "error", message: `no_match: ${root.reason}` };
  const found = await new Promise<Found>((resolve, reject) => {
    const worker = new Worker(SEARCH, {
      eval: true,
      workerData: {
        rootFd: root.fd,
        globSource: globRe.source,
        globFlags: globRe.flags,
        base: fixedStartOf(glob),
        pattern: p.pattern,
        maxFiles: MAX_FILES,
        maxFolders: MAX_FOLDERS,
        maxBytes: MAX_TOTAL_BYTES,
        maxFileBytes: MAX_FILE_BYTES,
        maxMatches: MAX_MATCHES_LOGGED,
      },
      resourceLimits: { maxOldGenerationSizeMb: 512 },
      stdout: true,
      stderr: true,
    });
    const stop = () => void worker.terminate();
    io.signal.addEventListener("abort", stop, { once: true });
    worker.once("message", (m: Found) => resolve(m));
    worker.once("error", reject);
    worker.once("exit", () => {
      io.signal.removeEventListener("abort", stop);
      reject(new Error(io.signal.aborted ? "stopped" : "the search ended without an answer"));
    });
  }).finally(() => fs.closeSync(root.fd));
  if (found.problem) return { verdict: "error", message: `no_match: ${found.problem}` };
  for (const m of found.matches) io.log(`${m.file}:${m.line}: ${m.text}`);
  if (found.matchCount > found.matches.length) io.log(`… and ${found.matchCount - found.matches.length} more`);
  if (found.matchCount === 0)
    return {
      verdict: "passed",
      message:
        found.files === 0
          ? `no file matches ${p.glob}: nothing to search`
          : `no line matches /${p.pattern}/ in ${found.files} file${found.files === 1 ? "" : "s"}`,
    };
  const first = found.matches[0];
  return {
    verdict: "failed",
    message:
      `${found.matchCount} line${found.matchCount === 1 ? "" : "s"} match /${p.pattern}/, first ` +
      `${first.file}:${first.line}`,
  };
}
