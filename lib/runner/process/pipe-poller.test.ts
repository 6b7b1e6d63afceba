// PipePoller on a real pipe (a FIFO opened non-blocking, as run-command opens it).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { waitFor } from "../../testing/processes";
import { fifoPoolFor } from "./fifo-pool";
import { MIN_POLLED_PIPE_BYTES, PipePoller, readOutput } from "./pipe-poller";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-poller-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function openPipe(): Promise<{ readFd: number; writeFd: number }> {
  const { readFd, path: fifo } = await fifoPoolFor(dir).takeReadEnd();
  const writeFd = fs.openSync(fifo, fs.constants.O_WRONLY);
  fs.rmSync(fifo);
  return { readFd, writeFd };
}

function collect(readFd: number) {
  const chunks: Buffer[] = [];
  let ends = 0;
  // The poller reuses its buffer: keep copies, as any consumer must.
  const poller = new PipePoller(
    readFd,
    (chunk) => chunks.push(Buffer.from(chunk)),
    () => ends++,
  );
  return { poller, text: () => Buffer.concat(chunks).toString(), bytes: () => Buffer.concat(chunks), ends: () => ends };
}

describe("PipePoller", () => {
  it("delivers everything written, in order, across pauses, then ends once when the writer closes", async () => {
    const { readFd, writeFd } = await openPipe();
    const c = collect(readFd);
    c.poller.poll();
    fs.writeSync(writeFd, "one\n");
    await waitFor(() => c.text() === "one\n");
    fs.writeSync(writeFd, "two\n");
    fs.writeSync(writeFd, "three\n");
    await waitFor(() => c.text() === "one\ntwo\nthree\n");
    expect(c.ends()).toBe(0);
    fs.closeSync(writeFd);
    await waitFor(() => c.ends() === 1);
    expect(c.poller.closed).toBe(true);
    expect(c.text()).toBe("one\ntwo\nthree\n");
  });

  it("reads more than its buffer and more than the pipe holds, byte for byte", async () => {
    const { readFd, writeFd } = await openPipe();
    const c = collect(readFd);
    c.poller.poll();
    const data = Buffer.alloc(5 * 1024 * 1024);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31) & 0xff;
    // The write end is blocking; write from a child so this process can keep reading.
    const { spawn } = await import("node:child_process");
    const source = path.join(dir, "source.bin");
    fs.writeFileSync(source, data);
    const writer = spawn("cat", [source], { stdio: ["ignore", writeFd, "inherit"] });
    fs.closeSync(writeFd);
    await waitFor(() => c.ends() === 1, { timeoutMs: 20_000, what: "the output to end" });
    await new Promise((resolve) => (writer.exitCode !== null ? resolve(null) : writer.once("exit", resolve)));
    expect(c.bytes().equals(data)).toBe(true);
  });

  it("a poll() when output is waiting reads it at once, without waiting for the next tick", async () => {
    const { readFd, writeFd } = await openPipe();
    const c = collect(readFd);
    c.poller.poll();
    fs.writeSync(writeFd, "now");
    c.poller.poll();
    expect(c.text()).toBe("now");
    fs.closeSync(writeFd);
    c.poller.poll();
    expect(c.ends()).toBe(1);
  });

  it("backs off while the pipe stays quiet", async () => {
    const { readFd, writeFd } = await openPipe();
    const reads = vi.spyOn(fs, "readSync");
    try {
      const c = collect(readFd);
      c.poller.poll();
      // The quiet half second is what is observed here.
      const started = Date.now();
      await waitFor(() => Date.now() - started >= 500);
      // At a fixed 1 ms this would be ~500 reads; doubling up to 64 ms it is about a dozen.
      expect(reads.mock.calls.length).toBeGreaterThan(3);
      expect(reads.mock.calls.length).toBeLessThan(30);
      c.poller.destroy();
    } finally {
      reads.mockRestore();
      fs.closeSync(writeFd);
    }
  });

  it("destroy stops reading and closes the pipe without reporting an end", async () => {
    const { readFd, writeFd } = await openPipe();
    const c = collect(readFd);
    c.poller.poll();
    c.poller.destroy();
    expect(c.poller.closed).toBe(true);
    // The read end is gone: writing now fails with EPIPE (Node ignores SIGPIPE).
    expect(() => fs.writeSync(writeFd, "late")).toThrow(/EPIPE/);
    fs.closeSync(writeFd);
    expect(c.ends()).toBe(0);
  });
});

describe("readOutput", () => {
  // A pipe the spawner widened is polled; one it could not (the kernel's 64 KB) is read as a socket.
  for (const [label, pipeBytes] of [
    ["a narrow pipe (as a socket)", 0],
    ["a wide pipe (polled)", MIN_POLLED_PIPE_BYTES],
  ] as const) {
    it(`${label}: delivers everything in order and ends once; destroy ends without onEnd`, async () => {
      const { readFd, writeFd } = await openPipe();
      const chunks: Buffer[] = [];
      let ends = 0;
      const reader = readOutput(
        readFd,
        pipeBytes,
        (chunk) => chunks.push(Buffer.from(chunk)),
        () => ends++,
      );
      reader.poll();
      fs.writeSync(writeFd, "alpha\n");
      await waitFor(() => Buffer.concat(chunks).toString() === "alpha\n");
      fs.writeSync(writeFd, "beta\n");
      fs.closeSync(writeFd);
      await waitFor(() => ends === 1);
      expect(Buffer.concat(chunks).toString()).toBe("alpha\nbeta\n");
      expect(reader.closed).toBe(true);

      const second = await openPipe();
      let secondEnds = 0;
      const cut = readOutput(
        second.readFd,
        pipeBytes,
        () => undefined,
        () => secondEnds++,
      );
      cut.destroy();
      expect(cut.closed).toBe(true);
      // Once the read end is really closed, writing fails (EPIPE); by then any end would have been reported.
      await waitFor(() => {
        try {
          fs.writeSync(second.writeFd, "x");
          return false;
        } catch {
          return true;
        }
      });
      fs.closeSync(second.writeFd);
      expect(secondEnds).toBe(0);
    });
  }

  it("polls only a pipe wide enough for it", async () => {
    const wide = await openPipe();
    const narrow = await openPipe();
    const polled = readOutput(
      wide.readFd,
      1024 * 1024,
      () => undefined,
      () => undefined,
    );
    const socket = readOutput(
      narrow.readFd,
      64 * 1024,
      () => undefined,
      () => undefined,
    );
    expect(polled).toBeInstanceOf(PipePoller);
    expect(socket).not.toBeInstanceOf(PipePoller);
    for (const r of [polled, socket]) r.destroy();
    for (const fd of [wide.writeFd, narrow.writeFd]) fs.closeSync(fd);
  });
});
