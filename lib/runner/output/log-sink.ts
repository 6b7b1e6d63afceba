// One check's log on disk, in bounded memory. The head of the output (up to half the cap, or all but
// the last 16 MB of a larger cap) is written to the log file as it arrives, small pieces gathered into
// writes of up to 64 KB. Past the head, the newest bytes are kept in a fixed in-memory ring: at the end
// it is appended after a marker saying what was dropped, so a flood costs the disk nothing beyond the
// cap and the server no more memory than the ring. Callers may reuse a chunk once write returns.
import fs from "node:fs";
import { ByteRing } from "./byte-ring";
import { messageLineOf } from "../../gates/failure-line";
import { decodeForDisplay, formatBytes } from "./text";

export const TAIL_BYTES = 16 * 1024;
// The most a log keeps in memory for its tail, whatever the cap.
export const MAX_RING_BYTES = 16 * 1024 * 1024;
const STAGE_BYTES = 64 * 1024;
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
  // Head bytes taken so far (written or staged).
  private headTaken = 0;
  private readonly stage = Buffer.allocUnsafe(STAGE_BYTES);
  private staged = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly ring: ByteRing | null;
  private readonly recent = new ByteRing(TAIL_BYTES);
  private total = 0;
  private closed = false;

  // `fd`: the log file already opened for writing (LogSink.open); else it is opened (created) here.
  constructor(
    readonly path: string,
    readonly capBytes: number,
    fd?: number,
  ) {
    this.fd = fd ?? fs.openSync(path, "w");
    const ringCap = Math.min(Math.floor(capBytes / 2), MAX_RING_BYTES);
    this.headCap = capBytes - ringCap;
    this.ring = ringCap > 0 ? new ByteRing(ringCap) : null;
  }

  // Creates the log file off the event loop (making a file is a metadata write that can take a millisecond
  // on a busy disk): a command is started meanwhile, and its first output waits in the pipe.
  static async open(path: string, capBytes: number): Promise<LogSink> {
    const fd = await new Promise<number>((resolve, reject) =>
      fs.open(path, "w", (error, opened) => (error ? reject(error) : resolve(opened))),
    );
    return new LogSink(path, capBytes, fd);
  }

  get bytesSeen(): number {
    return this.total;
  }

  write(chunk: Buffer): void {
    if (chunk.length === 0 || this.closed) return;
    this.total += chunk.length;
    this.recent.push(chunk);
    const room = this.headCap - this.headTaken;
    const head = room > 0 ? chunk.subarray(0, room) : chunk.subarray(0, 0);
    if (head.length > 0) this.writeHead(head);
    if (head.length < chunk.length) this.ring?.push(chunk.subarray(head.length));
  }

  private writeHead(data: Buffer): void {
    this.headTaken += data.length;
    if (this.staged + data.length <= STAGE_BYTES) {
      data.copy(this.stage, this.staged);
      this.staged += data.length;
      if (this.staged === STAGE_BYTES) this.flush();
      else this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_AFTER_MS).unref();
      return;
    }
    this.flush();
    if (data.length < STAGE_BYTES) this.writeHead(data);
    else writeAll(this.fd, data);
  }

  // Writes the staged head bytes to the log file (readers of a live log call this first).
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.staged === 0) return;
    writeAll(this.fd, this.stage.subarray(0, this.staged));
    this.staged = 0;
  }

  private tailBytes(): Buffer {
    return this.recent.last(TAIL_BYTES);
  }

  // The tail so far (for live views while the check runs).
  liveTail(): string {
    return decodeForDisplay(this.tailBytes(), { isCutAtStart: this.total > TAIL_BYTES });
  }

  finish(): LogSummary {
    if (this.closed) throw new Error("log already finished");
    this.flush();
    this.closed = true;
    const ringLen = this.ring?.length ?? 0;
    const dropped = this.total - this.headTaken - ringLen;
    let note: string | null = null;
    if (dropped > 0) {
      note =
        `log cut: ${formatBytes(this.total)} printed (${this.total} bytes); the stored log keeps the ` +
        `first ${formatBytes(this.headTaken)} and the last ${formatBytes(ringLen)}, ${dropped} ` +
        `bytes in between were dropped`;
      writeAll(this.fd, Buffer.from(`\n\n[gatehouse] ${note}\n\n`));
    }
    for (const view of this.ring?.views() ?? []) writeAll(this.fd, view);
    this.ring?.release();
    fs.closeSync(this.fd);
    const tailText = decodeForDisplay(this.tailBytes(), { isCutAtStart: this.total > TAIL_BYTES });
    return {
      totalBytes: this.total,
      storedBytes: this.headTaken + ringLen,
      note,
      tail: note ? `[gatehouse] ${note}\n${tailText}` : tailText,
      // The last line that is not a trailer (a warning, npm's or make's closing words): the result's message.
      message: messageLineOf(tailText),
    };
  }
}

// At most 1 MB per write(2). The kernel throttles a writer by the pages it dirtied in one call, and a
// single write of the 16 MB ring at a flood's end was paused for 45-57 ms once a few such logs sat in the
// page cache, against 5-6 ms written in 1 MB pieces (session 38).
const WRITE_BYTES = 1024 * 1024;

function writeAll(fd: number, data: Buffer): void {
  for (let offset = 0; offset < data.length; )
    offset += fs.writeSync(fd, data, offset, Math.min(WRITE_BYTES, data.length - offset));
}
