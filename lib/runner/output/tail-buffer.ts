// The last N bytes of a stream, in a fixed buffer: memory stays bounded whatever a check prints.
export class TailBuffer {
  private readonly buf: Buffer;
  private start = 0;
  private length = 0;

  constructor(readonly capacity: number) {
    this.buf = Buffer.alloc(capacity);
  }

  push(chunk: Buffer): void {
    const cap = this.capacity;
    if (chunk.length >= cap) {
      chunk.copy(this.buf, 0, chunk.length - cap);
      this.start = 0;
      this.length = cap;
      return;
    }
    let writeAt = (this.start + this.length) % cap;
    let offset = 0;
    while (offset < chunk.length) {
      const n = Math.min(chunk.length - offset, cap - writeAt);
      chunk.copy(this.buf, writeAt, offset, offset + n);
      offset += n;
      writeAt = (writeAt + n) % cap;
    }
    const overflow = Math.max(0, this.length + chunk.length - cap);
    this.length = Math.min(cap, this.length + chunk.length);
    this.start = (this.start + overflow) % cap;
  }

  bytes(): Buffer {
    if (this.start + this.length <= this.capacity) return Buffer.from(this.buf.subarray(this.start, this.start + this.length));
    return Buffer.concat([this.buf.subarray(this.start), this.buf.subarray(0, (this.start + this.length) % this.capacity)]);
  }
}
