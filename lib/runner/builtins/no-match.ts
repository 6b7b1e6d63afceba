// no_match: no line of the files matching `glob` (under the results directory) matches `pattern`. The
// search runs in a worker thread: a regular expression that backtracks for ever cannot stall the server,
// and the check's timeout or a cancel terminates the thread mid-match. Symlinks are not followed, `.git`
// and `node_modules` are not entered, nor folders outside the glob's fixed start, and the files and bytes
// searched are capped.
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import picomatch from "picomatch";
import type { BuiltinParams } from "../../gates/builtins";
import { expandPlaceholders, PlaceholderError } from "../../gates/placeholders";
import { openCheckoutRoot } from "../checkout/checkout-files";
import { MAX_FILE_BYTES, type BuiltinAnswer, type BuiltinIo } from "./builtin-io";

const MAX_FILES = 20_000;
const MAX_TOTAL_BYTES = 256 * 1024 * 1024;
const MAX_MATCHES_LOGGED = 50;

// CommonJS run by the worker (eval): walks the root, tests each line, posts what it found.
const SEARCH = `
const fs = require("node:fs");
const { parentPort, workerData } = require("node:worker_threads");
const { rootFd, globSource, globFlags, base, pattern, maxFiles, maxBytes, maxFileBytes, maxMatches } = workerData;
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
let files = 0, bytes = 0, matchCount = 0, problem = null;
const stack = [""];
outer: while (stack.length) {
  const rel = stack.pop();
  let dirFd, entries;
  // A folder or file that is gone since it was listed is skipped; one that is there but cannot be opened
  // (made unreadable to the server's user, swapped for a link) ends the search: it is never taken as clean.
  try { dirFd = openFolder(rel); }
  catch (e) { if (e.code === "ENOENT" && rel) continue; problem = unreadable(rel || ".", "folder", e); break; }
  try {
  try { entries = fs.readdirSync("/proc/self/fd/" + dirFd, { withFileTypes: true }); }
  catch (e) { problem = unreadable(rel || ".", "folder", e); break; }
  entries.sort((a, b) => (a.name < b.name ? 1 : -1));
  for (const e of entries) {
    const child = rel ? rel + "/" + e.name : e.name;
    if (e.isDirectory()) {
      if (e.name !== ".git" && e.name !== "node_modules" && inScope(child)) stack.push(child);
      continue;
    }
    if (!e.isFile() || !glob.test(child)) continue;
    if (++files > maxFiles) { problem = "more than " + maxFiles + " files match the glob"; break outer; }
    // Opened without following a link (one swapped in since the listing) and read through that descriptor.
    let fd;
    try { fd = fs.openSync(at(dirFd, e.name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK); }
    catch (e) { if (e.code === "ENOENT") continue; problem = unreadable(child, "file", e); break outer; }
    let text;
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) continue;
      if (stat.size > maxFileBytes) { problem = child + " is larger than " + maxFileBytes + " bytes"; break outer; }
      bytes += stat.size;
      if (bytes > maxBytes) { problem = "the matching files hold more than " + maxBytes + " bytes"; break outer; }
      text = fs.readFileSync(fd, "utf8");
    } finally { fs.closeSync(fd); }
    const lines = text.split(/\\r?\\n/);
    for (let i = 0; i < lines.length; i++) {
      if (!re.test(lines[i])) continue;
      matchCount++;
      if (matches.length < maxMatches) matches.push({ file: child, line: i + 1, text: lines[i].slice(0, 200) });
    }
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
