// Random access by line into a log file of any size: an index of line starts, built once by scanning
// the file in 1 MB reads and extended as a live log grows. A million lines cost 8 MB of index.
import fs from "node:fs";
import { decodeForDisplay } from "../runner/output/text";

const READ = 1024 * 1024;
const MAX_LINE_CHARS = 10_000;

export class LineIndex {
  private starts = new Float64Array(1024);
  private count = 1; // line 1 starts at 0
  private scanned = 0;
  private endsWithNewline = false;

  constructor(readonly path: string) {}

  // Indexes whatever the file gained since the last call.
  refresh(): void {
    const size = fs.statSync(this.path, { throwIfNoEntry: false })?.size ?? 0;
    if (size < this.scanned) {
      this.count = 1;
      this.scanned = 0;
    }
    if (size === this.scanned) return;
    const fd = fs.openSync(this.path, "r");
    try {
      const buf = Buffer.allocUnsafe(READ);
      while (this.scanned < size) {
        const n = fs.readSync(fd, buf, 0, Math.min(READ, size - this.scanned), this.scanned);
        if (n <= 0) break;
        let at = buf.indexOf(10, 0);
        while (at !== -1 && at < n) {
          this.push(this.scanned + at + 1);
          at = buf.indexOf(10, at + 1);
        }
        this.scanned += n;
        this.endsWithNewline = buf[n - 1] === 10;
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  private push(offset: number): void {
    if (this.count === this.starts.length) {
      const grown = new Float64Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[this.count++] = offset;
  }

  get bytes(): number {
    return this.scanned;
  }

  // Lines in the file; a final newline does not start another line.
  get lines(): number {
    if (this.scanned === 0) return 0;
    return this.endsWithNewline ? this.count - 1 : this.count;
  }

  // Lines [from, from + count) (1-based), decoded for display; very long lines are cut with a note.
  read(from: number, count: number): { n: number; text: string; cut: number }[] {
    const first = Math.max(1, from);
    const last = Math.min(this.lines, first + count - 1);
    if (last < first) return [];
    const startByte = this.starts[first - 1];
    const endByte = last < this.count - 1 ? this.starts[last] : this.scanned;
    const fd = fs.openSync(this.path, "r");
    const out: { n: number; text: string; cut: number }[] = [];
    try {
      const len = endByte - startByte;
      const buf = Buffer.allocUnsafe(Math.min(len, 64 * 1024 * 1024));
      fs.readSync(fd, buf, 0, buf.length, startByte);
      for (let n = first; n <= last; n++) {
        const a = this.starts[n - 1] - startByte;
        const b = Math.min(buf.length, (n < this.count - 1 ? this.starts[n] : this.scanned) - startByte);
        let line = buf.subarray(a, Math.max(a, b));
        if (line[line.length - 1] === 10) line = line.subarray(0, line.length - 1);
        if (line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
        const text = decodeForDisplay(line.length > MAX_LINE_CHARS * 4 ? line.subarray(0, MAX_LINE_CHARS * 4) : line);
        const cut = Math.max(0, line.length - MAX_LINE_CHARS);
        out.push({
          n,
          text: text.length > MAX_LINE_CHARS ? text.slice(0, MAX_LINE_CHARS) : text,
          cut: text.length > MAX_LINE_CHARS || cut > 0 ? cut : 0,
        });
      }
    } finally {
      fs.closeSync(fd);
    }
    return out;
  }

  // The line holding a byte offset (binary search over line starts).
  lineAt(offset: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  // Lines containing the text (case-insensitive for ASCII), in order, at most `limit`; and how many in all.
  search(query: string, limit: number): { lines: number[]; total: number } {
    const needle = Buffer.from(query, "utf8").toString("latin1").toLowerCase();
    if (needle.length === 0) return { lines: [], total: 0 };
    const lines: number[] = [];
    let total = 0;
    let lastLine = 0;
    const fd = fs.openSync(this.path, "r");
    try {
      const buf = Buffer.allocUnsafe(4 * READ);
      const overlap = needle.length - 1;
      for (let pos = 0; pos < this.scanned; pos += buf.length - overlap) {
        const n = fs.readSync(fd, buf, 0, Math.min(buf.length, this.scanned - pos), pos);
        if (n <= 0) break;
        const hay = buf.toString("latin1", 0, n).toLowerCase();
        let at = hay.indexOf(needle);
        while (at !== -1) {
          const line = this.lineAt(pos + at);
          if (line !== lastLine) {
            total++;
            if (lines.length < limit) lines.push(line);
            lastLine = line;
          }
          at = hay.indexOf(needle, at + 1);
        }
        if (pos + n >= this.scanned) break;
      }
    } finally {
      fs.closeSync(fd);
    }
    return { lines, total };
  }
}

// A few recent indexes per process, so paging through a big log does not rescan it.
const holder = globalThis as unknown as { __gatehouseLineIndexes?: Map<string, LineIndex> };
holder.__gatehouseLineIndexes ??= new Map<string, LineIndex>();
const cache = holder.__gatehouseLineIndexes;

export function lineIndexFor(path: string): LineIndex {
  let index = cache.get(path);
  if (!index) {
    index = new LineIndex(path);
    cache.set(path, index);
    if (cache.size > 8) cache.delete(cache.keys().next().value!);
  } else {
    cache.delete(path);
    cache.set(path, index);
  }
  index.refresh();
  return index;
}
