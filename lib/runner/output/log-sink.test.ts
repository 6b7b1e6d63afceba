// LogSink on its own: chunks handed in are views the caller reuses (as the pipe poller does), so
// everything kept must be copied; the head goes to disk as it comes, the tail ring only at the end.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LogSink, MAX_RING_BYTES, TAIL_BYTES } from "./log-sink";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-sink-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const logPath = () => path.join(dir, `log-${n++}`);

// Writes `data` through one reused scratch buffer, `size` bytes at a time, scribbling over it after each write.
function writeThroughScratch(sink: LogSink, data: Buffer, size: number): void {
  const scratch = Buffer.alloc(size);
  for (let at = 0; at < data.length; at += size) {
    const len = data.copy(scratch, 0, at, Math.min(data.length, at + size));
    sink.write(scratch.subarray(0, len));
    scratch.fill(0x21);
  }
}

describe("LogSink", () => {
  it("stores a log under the cap whole even though the caller reuses its buffer", () => {
    const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => `line ${i}\n`).join(""));
    const p = logPath();
    const sink = new LogSink(p, 1024 * 1024);
    writeThroughScratch(sink, data, 777);
    const summary = sink.finish();
    expect(fs.readFileSync(p)).toEqual(data);
    expect(summary.note).toBeNull();
    expect(summary.totalBytes).toBe(data.length);
    expect(summary.storedBytes).toBe(data.length);
    expect(summary.message).toBe("line 4999");
  });

  it("past the cap keeps the first and last half, with the note between them, from reused buffers", () => {
    const cap = 64 * 1024;
    const data = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `${i}\n`).join(""));
    const p = logPath();
    const sink = new LogSink(p, cap);
    writeThroughScratch(sink, data, 4096 + 3);
    const summary = sink.finish();
    const stored = fs.readFileSync(p);
    const head = data.subarray(0, cap / 2);
    const tail = data.subarray(data.length - cap / 2);
    const marker = Buffer.from(`\n\n[gatehouse] ${summary.note}\n\n`);
    expect(stored).toEqual(Buffer.concat([head, marker, tail]));
    expect(summary.storedBytes).toBe(cap);
    expect(summary.note).toContain(`${data.length - cap} bytes in between were dropped`);
    expect(summary.tail.endsWith("39999\n")).toBe(true);
  });

  it("the head is on disk as it arrives (after flush), the tail while running comes from memory", () => {
    const p = logPath();
    const sink = new LogSink(p, 1024 * 1024);
    sink.write(Buffer.from("first line\n"));
    sink.flush();
    expect(fs.readFileSync(p, "utf8")).toBe("first line\n");
    sink.write(Buffer.from("second line\n"));
    expect(sink.liveTail()).toBe("first line\nsecond line\n");
    expect(sink.bytesSeen).toBe(23);
    sink.finish();
    expect(fs.readFileSync(p, "utf8")).toBe("first line\nsecond line\n");
  });

  it("a large cap keeps at most MAX_RING_BYTES of tail in memory; the rest of the cap is head", () => {
    // Half of this cap would be more than the ring may hold.
    const cap = 2 * MAX_RING_BYTES + 8 * 1024 * 1024;
    const head = cap - MAX_RING_BYTES;
    const p = logPath();
    const sink = new LogSink(p, cap);
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const total = cap + 2 * chunk.length;
    for (let written = 0; written < total; written += chunk.length) sink.write(chunk);
    const end = Buffer.from("\nTHE END\n");
    sink.write(end);
    const summary = sink.finish();
    expect(summary.storedBytes).toBe(cap);
    expect(summary.note).toContain(`the first ${head / 1024 / 1024}.0 MB`);
    expect(summary.note).toContain(`the last ${(MAX_RING_BYTES / 1024 / 1024).toFixed(1)} MB`);
    expect(summary.message).toBe("THE END");
    const size = fs.statSync(p).size;
    expect(size).toBe(cap + Buffer.byteLength(`\n\n[gatehouse] ${summary.note}\n\n`));
    expect(Buffer.byteLength(summary.tail)).toBeLessThanOrEqual(TAIL_BYTES + Buffer.byteLength(summary.note!) + 32);
  });

  it("refuses to finish twice", () => {
    const sink = new LogSink(logPath(), 1024);
    sink.finish();
    expect(() => sink.finish()).toThrow(/already finished/);
  });
});
