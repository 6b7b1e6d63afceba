// Large buffers kept for reuse between commands. Fresh memory costs a page fault per 4 KB the first
// time it is written, and on a virtual machine that is most of what a 16 MB tail ring costs a flood
// (~50 ms against ~5 ms to fill memory already mapped). A few buffers of each size are kept; the rest
// are left to the garbage collector, so what stays allocated is bounded by KEEP_BYTES.
const KEEP_BYTES = 40 * 1024 * 1024;

const free = new Map<number, Buffer[]>();
let keptBytes = 0;

// A buffer of exactly `size` bytes, with unspecified contents.
export function takeBuffer(size: number): Buffer {
  const kept = free.get(size)?.pop();
  if (kept) {
    keptBytes -= size;
    return kept;
  }
  return Buffer.allocUnsafeSlow(size);
}

// Hands a buffer from takeBuffer back; nothing may use it (or a view of it) afterwards.
export function returnBuffer(buf: Buffer): void {
  if (keptBytes + buf.length > KEEP_BYTES) return;
  const list = free.get(buf.length) ?? [];
  list.push(buf);
  free.set(buf.length, list);
  keptBytes += buf.length;
}
