// Reads a git index file (the "DIRC" format, versions 2–4) in-process: the entries' modes and paths, and the
// root tree its cache-tree extension records. The fingerprint of a checkout (checkout.ts) reads the index git
// just wrote into a private file twice; parsing it here instead of starting `git ls-files --stage` each
// time saves two git processes per fingerprint. Anything this reader does not know for certain — another
// version, a checksum that does not match (or the zeros of `index.skipHash`), a split or sparse index,
// SHA-256 ids, a truncated entry — gives null, and the caller asks git instead; so does an index over 1 MB.
import crypto from "node:crypto";
import { readPlainFile } from "./checkout-files";

type IndexEntry = { mode: number; id: string; stage: number; path: string };
export type IndexFile = {
  entries: IndexEntry[];
  // The root tree of the cache-tree extension when it is valid (as `read-tree <tree>` leaves it), else null.
  rootTree: string | null;
};

const HASH_BYTES = 20;
// ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size (4 each), the object id, the flags.
const ENTRY_FIXED_BYTES = 40 + HASH_BYTES + 2;
const EXTENDED_FLAG = 0x4000;
// Extensions whose presence means the entries here are not the whole index (split index) or not all files
// (sparse index): the caller asks git.
const INCOMPLETE = new Set(["link", "sdir"]);

// Larger indexes (~10,000 entries and up, or an agent's million untracked files after `add`) are left to git:
// reading, hashing and parsing them here would hold the server's event loop (~1 ms per 100 KB).
const MAX_BYTES = 1024 * 1024;

// `maxBytes`: a larger limit for a caller that has more to gain from reading it here (a kept index, checkout.ts).
// The file is in a folder of the checkout's (the run-as user's): read as readPlainFile reads it.
export function readIndexFile(file: string, maxBytes = MAX_BYTES): IndexFile | null {
  const read = readPlainFile(file, maxBytes);
  return read && parseIndexData(read.bytes);
}

// An index's bytes as read here (null when this reader cannot vouch for them, as above).
export function parseIndexData(data: Buffer): ReturnType<typeof parseIndex> {
  try {
    return parseIndex(data);
  } catch {
    return null;
  }
}

// The index body with its checksum (SHA-1 of the body) after it.
function sealed(body: Buffer): Buffer {
  return Buffer.concat([body, crypto.createHash("sha1").update(body).digest()]);
}

// The same index with every entry whose change or modification time falls in second `sinceSec` or later marked
// to be read again: its four time fields zeroed, so no detail saved for it can match a file (git's own rule
// for an entry as new as its index, on the modification time, made to cover the change time too — git here
// compares both to the second only). Null when this reader cannot vouch for the index (see above).
// `isChange`: an entry of the change (its id not HEAD's), also marked whatever its times: a process that keeps a
// file mapped shared and writable can change its content with no time changing (only the first write to a
// clean page sets them), and the change's files are few.
export function markRecentEntries(
  data: Buffer,
  mark: { sinceSec: number; isChange?: (entry: { path: string; id: string }) => boolean; dropCacheTree?: boolean },
): Buffer | null {
  const parsed = parseIndexData(data);
  if (!parsed) return null;
  const body = Buffer.from(data.subarray(0, data.length - HASH_BYTES));
  parsed.starts.forEach((start, i) => {
    const ctime = body.readUInt32BE(start);
    const mtime = body.readUInt32BE(start + 8);
    if (ctime >= mark.sinceSec || mtime >= mark.sinceSec || mark.isChange?.(parsed.entries[i]))
      body.fill(0, start, start + 16);
  });
  if (!mark.dropCacheTree) return sealed(body);
  // `dropCacheTree`: without the cache-tree extension (TREE), so that `write-tree` builds every tree from the
  // entries instead of handing back the ids the extension holds.
  const kept: Buffer[] = [body.subarray(0, parsed.extensionsAt)];
  for (let at = parsed.extensionsAt; at + 8 <= body.length; ) {
    const size = body.readUInt32BE(at + 4);
    if (body.toString("latin1", at, at + 4) !== "TREE") kept.push(body.subarray(at, at + 8 + size));
    at += 8 + size;
  }
  return sealed(Buffer.concat(kept));
}

function parseIndex(data: Buffer): (IndexFile & { starts: number[]; extensionsAt: number }) | null {
  if (data.length < 12 + HASH_BYTES || data.toString("latin1", 0, 4) !== "DIRC") return null;
  const body = data.subarray(0, data.length - HASH_BYTES);
  const trailer = data.subarray(data.length - HASH_BYTES);
  if (!crypto.createHash("sha1").update(body).digest().equals(trailer)) return null;
  const version = body.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = body.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  const starts: number[] = [];
  let at = 12;
  let previous = "";
  for (let i = 0; i < count; i++) {
    const start = at;
    starts.push(start);
    if (at + ENTRY_FIXED_BYTES > body.length) return null;
    const mode = body.readUInt32BE(at + 24);
    const id = body.toString("hex", at + 40, at + 40 + HASH_BYTES);
    const flags = body.readUInt16BE(at + 40 + HASH_BYTES);
    at += ENTRY_FIXED_BYTES;
    if (flags & EXTENDED_FLAG) {
      if (version < 3) return null;
      at += 2;
    }
    let name: string;
    if (version === 4) {
      const [strip, next] = readOffsetVarint(body, at);
      if (strip > previous.length) return null;
      const end = body.indexOf(0, next);
      if (end < 0) return null;
      name = previous.slice(0, previous.length - strip) + body.toString("latin1", next, end);
      at = end + 1;
    } else {
      const end = body.indexOf(0, at);
      if (end < 0) return null;
      name = body.toString("latin1", at, end);
      // Entries are padded with 1–8 NULs to a multiple of 8 bytes from their start.
      at = start + ((end - start + 8) & ~7);
    }
    previous = name;
    entries.push({ mode, id, stage: (flags >> 12) & 3, path: Buffer.from(name, "latin1").toString("utf8") });
  }
  let rootTree: string | null = null;
  const extensionsAt = at;
  while (at + 8 <= body.length) {
    const signature = body.toString("latin1", at, at + 4);
    const size = body.readUInt32BE(at + 4);
    const content = at + 8;
    if (content + size > body.length) return null;
    if (INCOMPLETE.has(signature)) return null;
    if (signature === "TREE") rootTree = rootOfCacheTree(body.subarray(content, content + size));
    at = content + size;
  }
  if (at !== body.length) return null;
  return { entries, rootTree, starts, extensionsAt };
}

// The first record of a TREE extension is the root: "" NUL, "<entries> <subtrees>\n", then its id when the
// entry count is not -1 (invalidated).
function rootOfCacheTree(tree: Buffer): string | null {
  if (tree.length === 0 || tree[0] !== 0) return null;
  const newline = tree.indexOf(0x0a, 1);
  if (newline < 0) return null;
  const [entryCount] = tree.toString("latin1", 1, newline).split(" ");
  if (!/^\d+$/.test(entryCount) || newline + 1 + HASH_BYTES > tree.length) return null;
  return tree.toString("hex", newline + 1, newline + 1 + HASH_BYTES);
}

// Git's "offset" varint (index v4's prefix lengths): big-endian groups of 7 bits, each continuation adding one.
function readOffsetVarint(buf: Buffer, at: number): [number, number] {
  let byte = buf[at++];
  if (byte === undefined) throw new Error("truncated");
  let value = byte & 0x7f;
  while (byte & 0x80) {
    byte = buf[at++];
    if (byte === undefined || value > 0xffffff) throw new Error("truncated");
    value = ((value + 1) << 7) | (byte & 0x7f);
  }
  return [value, at];
}
