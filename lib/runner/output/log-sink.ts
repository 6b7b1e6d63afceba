// One check's log on disk, in bounded memory. Output is gathered into writes of up to 1 MB (a flood
// costs a few hundred system calls, not tens of thousands). Past the cap, the head stays in the log file
// and the tail goes to an on-disk ring; at the end the ring is appended after a marker saying what was
// dropped. The tail (last 16 KB) is kept as references to the latest chunks, never copied per chunk.
import fs from "node:fs";
import { decodeForDisplay, formatBytes, lastNonEmptyLine } from "./text";

export const TAIL_BYTES = 16 * 1024;
const FLUSH_BYTES = 1024 * 1024;
const FLUSH_AFTER_MS = 100;

export type LogSummary = {
  totalBytes: number;
  storedBytes: number;
  // Says what the stored log dropped, or null when the log is whole.
  note: string | null;
  // The last 16 KB as text (preceded by the note when the log was cut).
  tail: string;
  message: string | null;
};

export class LogSink {
  private readonly fd: number;
  private readonly headCap: number;
  private readonly ringCap: number;
  private ringFd: number | null = null;
  private ringPos = 0;
  private ringLen = 0;
  private headWritten = 0;
  private total = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  // The newest chunks, at least TAIL_BYTES of them (oldest first).
  private recent: Buffer[] = [];
  private recentBytes = 0;
  private closed = false;

  constructor(
    readonly path: string,
    readonly capBytes: number,
  ) {
    this.fd = fs.openSync(path, "w");
    this.headCap = Math.floor(capBytes / 2);
    this.ringCap = capBytes - this.headCap;
  }

  get bytesSeen(): number {
    return this.total;
  }

  write(chunk: Buffer): void {
    if (chunk.length === 0 || this.closed) return;
    this.total += chunk.length;
    this.recent.push(chunk);
    this.recentBytes += chunk.length;
    while (this.recent.length > 1 && this.recentBytes - this.recent[0].length >= TAIL_BYTES) this.recentBytes -= this.recent.shift()!.length;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    else if (!this.flushTimer) this.flushTimer = setTimeout(() => this.flush(), FLUSH_AFTER_MS).unref();
  }

  // Writes what is gathered (without first copying it into one buffer): to the head of the log while
  // it has room, the rest to the tail ring.
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.pendingBytes === 0) return;
    const chunks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    let i = 0;
    if (this.headWritten < this.headCap) {
      const head: Buffer[] = [];
      let room = this.headCap - this.headWritten;
      for (; i < chunks.length && room > 0; i++) {
        const chunk = chunks[i];
        if (chunk.length <= room) {
          head.push(chunk);
          room -= chunk.length;
        } else {
          head.push(chunk.subarray(0, room));
          chunks[i] = chunk.subarray(room);
          room = 0;
          break;
        }
      }
      const n = writeAllv(this.fd, head, null);
      this.headWritten += n;
    }
    for (; i < chunks.length; i++) this.writeRing(chunks[i]);
  }

  private writeRing(data: Buffer): void {
    if (this.ringFd === null) this.ringFd = fs.openSync(`${this.path}.ring`, "w+");
    let offset = 0;
    let rest = data.length;
    // Only the last ringCap bytes of a huge write can survive.
    if (rest > this.ringCap) {
      this.ringPos = (this.ringPos + (rest - this.ringCap)) % this.ringCap;
      offset = rest - this.ringCap;
      rest = this.ringCap;
    }
    while (rest > 0) {
      const n = Math.min(rest, this.ringCap - this.ringPos);
      writeAll(this.ringFd, data, offset, n, this.ringPos);
      offset += n;
      rest -= n;
      this.ringPos = (this.ringPos + n) % this.ringCap;
      this.ringLen = Math.min(this.ringCap, this.ringLen + n);
    }
  }

  private tailBytes(): Buffer {
    const all = this.recent.length === 1 ? this.recent[0] : Buffer.concat(this.recent);
    return all.length > TAIL_BYTES ? all.subarray(all.length - TAIL_BYTES) : all;
  }

  // The tail so far (for live views while the check runs).
  liveTail(): string {
    return decodeForDisplay(this.tailBytes(), { isCutAtStart: this.total > TAIL_BYTES });
  }

  finish(): LogSummary {
    if (this.closed) throw new Error("log already finished");
    this.flush();
    this.closed = true;
    const dropped = this.total - this.headWritten - this.ringLen;
    let note: string | null = null;
    if (this.ringFd !== null) {
      if (dropped > 0) {
        note = `log cut: ${formatBytes(this.total)} printed (${this.total} bytes); the stored log keeps the first ${formatBytes(this.headWritten)} and the last ${formatBytes(this.ringLen)}, ${dropped} bytes in between were dropped`;
        writeAll(this.fd, Buffer.from(`\n\n[gatehouse] ${note}\n\n`), 0, undefined, null);
      }
      this.copyRingInOrder();
      fs.closeSync(this.ringFd);
      fs.rmSync(`${this.path}.ring`, { force: true });
      this.ringFd = null;
    }
    fs.closeSync(this.fd);
    const tailText = decodeForDisplay(this.tailBytes(), { isCutAtStart: this.total > TAIL_BYTES });
    this.recent = [];
    return {
      totalBytes: this.total,
      storedBytes: this.headWritten + this.ringLen,
      note,
      tail: note ? `[gatehouse] ${note}\n${tailText}` : tailText,
      message: lastNonEmptyLine(tailText),
    };
  }

  private copyRingInOrder(): void {
    const ringFd = this.ringFd!;
    const isWrapped = this.ringLen === this.ringCap;
    const segments: [number, number][] = isWrapped
      ? [
          [this.ringPos, this.ringCap - this.ringPos],
          [0, this.ringPos],
        ]
      : [[0, this.ringLen]];
    const buf = Buffer.alloc(1024 * 1024);
    for (const [start, length] of segments) {
      let pos = start;
      let rest = length;
      while (rest > 0) {
        const n = fs.readSync(ringFd, buf, 0, Math.min(buf.length, rest), pos);
        if (n <= 0) break;
        writeAll(this.fd, buf, 0, n, null);
        pos += n;
        rest -= n;
      }
    }
  }
}

// Writes every buffer in order (one system call for many chunks); returns the bytes written.
function writeAllv(fd: number, buffers: Buffer[], position: number | null): number {
  let total = 0;
  const list = buffers.filter((b) => b.length > 0);
  while (list.length > 0) {
    // At most IOV_MAX (1024) buffers a call.
    const n = fs.writevSync(fd, list.slice(0, 1024), position ?? undefined);
    total += n;
    if (position !== null) position += n;
    let done = n;
    while (list.length > 0 && done >= list[0].length) done -= list.shift()!.length;
    if (done > 0) list[0] = list[0].subarray(done);
  }
  return total;
}

function writeAll(fd: number, buf: Buffer, offset: number, length: number | undefined, position: number | null): void {
  let rest = length ?? buf.length - offset;
  let pos = position;
  while (rest > 0) {
    const n = fs.writeSync(fd, buf, offset, rest, pos);
    offset += n;
    rest -= n;
    if (pos !== null) pos += n;
  }
}
