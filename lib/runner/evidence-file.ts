// Reads `.gatehouse/evidence.md` from the checkout: a regular file inside it (a symlink pointing elsewhere is
// not evidence), at most 1 MB; null when there is none.
import fs from "node:fs";
import path from "node:path";
import { EVIDENCE_FILE } from "../gates/evidence";

const MAX_BYTES = 1024 * 1024;

export function readEvidenceFile(checkoutPath: string): string | null {
  const file = path.join(checkoutPath, EVIDENCE_FILE);
  const dir = fs.lstatSync(path.dirname(file), { throwIfNoEntry: false });
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!dir?.isDirectory() || !stat?.isFile()) return null;
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_BYTES));
    const n = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, n).toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}
