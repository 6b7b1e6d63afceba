// Running a short platform command (git) through the spawner and collecting its output: the server
// never forks itself, so its event loop is not blocked while a process starts.
import fs from "node:fs";
import { fifoPoolFor } from "./fifo-pool";
import { PipePoller } from "./pipe-poller";
import { launch, type RunAs } from "./spawner";

export type Captured = { code: number | null; stdout: string; stderr: string };

const MAX_OUTPUT = 64 * 1024 * 1024;
// After the command has exited (and the shim has ended all it left), how long a pipe may stay open —
// held by a process outside the command's tree — before it is cut off.
const CLOSE_GRACE_MS = 1000;

// Collects everything written to the pipe until it closes (at most MAX_OUTPUT is kept), polled like a
// check's output; `finish` takes what is left at once when the command has exited.
function collect(fd: number): { text: Promise<string>; finish: () => void } {
  const chunks: Buffer[] = [];
  let size = 0;
  let done: (text: string) => void;
  const text = new Promise<string>((resolve) => (done = resolve));
  const end = () => done(Buffer.concat(chunks).toString("utf8"));
  const poller = new PipePoller(
    fd,
    (chunk) => {
      size += chunk.length;
      // The poller reuses its buffer: keep a copy.
      if (size <= MAX_OUTPUT) chunks.push(Buffer.from(chunk));
    },
    end,
  );
  poller.poll();
  const finish = () => {
    poller.poll();
    if (poller.closed) return;
    setTimeout(() => {
      if (poller.closed) return;
      poller.destroy();
      end();
    }, CLOSE_GRACE_MS);
  };
  return { text, finish };
}

export async function execCaptured(
  file: string,
  args: string[],
  opts: {
    cwd: string;
    env: Record<string, string>;
    pipeDir: string;
    timeoutMs: number;
    runAs?: RunAs | null;
    // A file the command reads as its standard input (none: it reads nothing).
    stdinFile?: string;
    // An existing file its standard output goes to (then the captured stdout is empty).
    stdoutFile?: string;
  },
): Promise<Captured> {
  const pool = fifoPoolFor(opts.pipeDir);
  const out = opts.stdoutFile ? null : await pool.takeReadEnd();
  const err = await pool.takeReadEnd();
  const launched = await launch({
    file,
    args,
    cwd: opts.cwd,
    env: opts.env,
    stdinPath: opts.stdinFile ?? null,
    outPath: out?.path ?? opts.stdoutFile!,
    errPath: err.path,
    runAs: opts.runAs,
  });
  if (out) fs.rmSync(out.path, { force: true });
  fs.rmSync(err.path, { force: true });
  if ("error" in launched) {
    if (out) fs.closeSync(out.readFd);
    fs.closeSync(err.readFd);
    throw new Error(`${file} could not start: ${launched.error}`);
  }
  const stdout = out ? collect(out.readFd) : null;
  const stderr = collect(err.readFd);
  const timer = setTimeout(() => launched.signal("SIGKILL"), opts.timeoutMs);
  const exit = await launched.exited;
  clearTimeout(timer);
  stdout?.finish();
  stderr.finish();
  return { code: exit.code, stdout: stdout ? await stdout.text : "", stderr: await stderr.text };
}
