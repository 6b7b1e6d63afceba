// Reads a command's output pipe by polling it instead of waiting on it. A reader that sleeps on the
// pipe is woken by the kernel for nearly every write a fast command makes (a few KB each), and on a
// small machine each wake-up takes time from the command itself; a poller that looks every millisecond
// or so while output flows (backing off to MAX_DELAY_MS when it stops) drains the 1 MB pipe the spawner
// sets up in reads of 128 KB. A command printing faster than that (over ~1 GB/s: `yes | head` fills the
// pipe in 0.4 ms and then waits for the reader) is read with naps of 0.2 ms instead, a few per turn of the
// event loop: 200 MB of `yes` took 278–284 ms with the timer alone, 182–222 with the naps (median 1.07 of
// a bare `| cat > /dev/null`; `npm run bench -- runner`). The read size is cat's: a buffer that stays in
// the core's L2 cache. Reads of 1 MB (the pipe's size) spilled it on the AMD EPYC machine (512 KB of L2 a
// core), and a 200 MB `yes` flood read that way took 1.4-1.5 × the same flood read in 64-512 KB (session
// 38). Every command's output (checks, agents, git) is read this way; when the command exits its owner
// calls poll() to take the rest at once. The fd must be non-blocking. Chunks handed to onData are views
// into one reused buffer, valid only during the call.
import fs from "node:fs";
import { returnBuffer, takeBuffer } from "../output/buffer-pool";

const READ_BYTES = 128 * 1024;
const MIN_DELAY_MS = 1;
const MAX_DELAY_MS = 64;
// Read at most this much before letting the event loop run other work.
const BYTES_PER_TURN = 8 * 1024 * 1024;
// Output arriving this fast between two empty reads (a quarter of the pipe) is read with short naps instead
// of a timer (at least 1 ms, in which such a command fills the pipe and waits on it).
const FAST_BYTES = 256 * 1024;
const NAP_MS = 0.2;
const NAPS_PER_TURN = 8;
const NAP = new Int32Array(new SharedArrayBuffer(4));

export class PipePoller {
  private readonly buf = takeBuffer(READ_BYTES);
  private delay = MIN_DELAY_MS;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private isClosed = false;

  constructor(
    private readonly fd: number,
    private readonly onData: (chunk: Buffer) => void,
    // Called once when every writer has closed the pipe (not when the poller is destroyed).
    private readonly onEnd: () => void,
  ) {}

  get closed(): boolean {
    return this.isClosed;
  }

  // Reads whatever is in the pipe now; also called when the command exits, so its last output is
  // taken at once rather than on the next poll.
  readonly poll = (): void => {
    if (this.isClosed) return;
    this.cancelWake();
    let drained = 0;
    // Bytes read since the pipe was last found empty, and the naps taken this turn.
    let sinceEmpty = 0;
    let naps = 0;
    for (;;) {
      let n: number;
      try {
        n = fs.readSync(this.fd, this.buf, 0, READ_BYTES, null);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EINTR") continue;
        if (code === "EAGAIN" || code === "EWOULDBLOCK") {
          if (sinceEmpty >= FAST_BYTES) {
            // Printing faster than a timer's wait allows (the 1 MB pipe would fill and hold the command
            // up): look again after a nap of a fraction of a millisecond, a few times, then let the event
            // loop run and come straight back.
            sinceEmpty = 0;
            if (naps < NAPS_PER_TURN) {
              naps++;
              Atomics.wait(NAP, 0, 0, NAP_MS);
              continue;
            }
            this.immediate = setImmediate(this.poll);
            return;
          }
          this.timer = setTimeout(this.poll, this.delay);
          this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
          return;
        }
        // Any other failure ends the output as if it had closed.
        n = 0;
      }
      if (n === 0) {
        this.close();
        this.onEnd();
        return;
      }
      this.delay = MIN_DELAY_MS;
      this.onData(this.buf.subarray(0, n));
      if (this.isClosed) return;
      drained += n;
      sinceEmpty += n;
      if (drained >= BYTES_PER_TURN) {
        this.immediate = setImmediate(this.poll);
        return;
      }
    }
  };

  // Stops reading and closes the pipe (the output is cut off; onEnd is not called).
  destroy(): void {
    this.close();
  }

  private close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.cancelWake();
    fs.closeSync(this.fd);
    returnBuffer(this.buf);
  }

  private cancelWake(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }
}
