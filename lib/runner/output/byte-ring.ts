// The last `capacity` bytes of a stream, in one fixed buffer: pushing copies in (the caller may reuse
// what it pushed), older bytes are overwritten, memory never grows. The buffer comes from the shared
// pool on first use and goes back with release().
import { returnBuffer, takeBuffer } from "./buffer-pool";

export class ByteRing {
  private buf: Buffer | null = null;
  // Where the next byte goes, and how many bytes the ring holds.
  private end = 0;
  private held = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new Error("a ring needs a positive whole capacity");
  }

  get length(): number {
    return this.held;
  }

  push(data: Buffer): void {
    if (data.length === 0) return;
    // Allocated on first use: most logs never need their ring.
    this.buf ??= takeBuffer(this.capacity);
    const buf = this.buf;
    if (data.length >= this.capacity) {
      data.copy(buf, 0, data.length - this.capacity);
      this.end = 0;
      this.held = this.capacity;
      return;
    }
    const first = Math.min(data.length, this.capacity - this.end);
    data.copy(buf, this.end, 0, first);
    if (first < data.length) data.copy(buf, 0, first);
    this.end = (this.end + data.length) % this.capacity;
    this.held = Math.min(this.capacity, this.held + data.length);
  }

  // The bytes held, oldest first, as at most two views into the ring (valid until the next push).
  views(): Buffer[] {
    if (!this.buf || this.held === 0) return [];
    if (this.held < this.capacity) return [this.buf.subarray(this.end - this.held, this.end)];
    return [this.buf.subarray(this.end), this.buf.subarray(0, this.end)].filter((v) => v.length > 0);
  }

  // Gives the buffer back to the pool; the ring is empty afterwards.
  release(): void {
    if (this.buf) returnBuffer(this.buf);
    this.buf = null;
    this.end = 0;
    this.held = 0;
  }

  // A copy of the last `n` bytes held (all of them when fewer).
  last(n: number): Buffer {
    const all = Buffer.concat(this.views());
    return all.length > n ? all.subarray(all.length - n) : all;
  }
}
