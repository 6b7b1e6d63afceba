// Finds a needle in a stream that arrives in chunks, across chunk boundaries, in bounded memory.
export class StreamSearch {
  private readonly needle: Buffer;
  private carry: Buffer = Buffer.alloc(0);
  found = false;

  constructor(needle: string) {
    this.needle = Buffer.from(needle, "utf8");
  }

  push(chunk: Buffer): void {
    if (this.found || this.needle.length === 0) {
      this.found = true;
      return;
    }
    const hay = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    if (hay.indexOf(this.needle) !== -1) {
      this.found = true;
      this.carry = Buffer.alloc(0);
      return;
    }
    const keep = Math.min(hay.length, this.needle.length - 1);
    this.carry = Buffer.from(hay.subarray(hay.length - keep));
  }
}
