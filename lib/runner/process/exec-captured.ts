// Running a short platform command (git) through the spawner and collecting its output: the server
// never forks itself, so its event loop is not blocked while a process starts.
import fs from "node:fs";
import { fifoPoolFor } from "./fifo-pool";
import { readOutput } from "./pipe-poller";
import { launch, type RunAs } from "./spawner";
import { signalGroup } from "./process-group";

export type Captured = { code: number | null; stdout: string; stderr: string };

const MAX_OUTPUT = 64 * 1024 * 1024;

// Everything written to the pipe until it closes (at most MAX_OUTPUT is kept). Read as it arrives, not
// polled: git prints little, and its end should be seen at once.
function collect(fd: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    readOutput(
      fd,
      0,
      (chunk) => {
        size += chunk.length;
        if (size <= MAX_OUTPUT) chunks.push(chunk);
      },
      () => resolve(Buffer.concat(chunks)),
    );
  });
}

export async function execCaptured(
  file: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; pipeDir: string; timeoutMs: number; runAs?: RunAs | null },
): Promise<Captured> {
  const pool = fifoPoolFor(opts.pipeDir);
  const out = await pool.takeReadEnd();
  const err = await pool.takeReadEnd();
  const launched = await launch({
    file,
    args,
    cwd: opts.cwd,
    env: opts.env,
    stdinPath: null,
    outPath: out.path,
    errPath: err.path,
    runAs: opts.runAs,
  });
  fs.rmSync(out.path, { force: true });
  fs.rmSync(err.path, { force: true });
  if ("error" in launched) {
    fs.closeSync(out.readFd);
    fs.closeSync(err.readFd);
    throw new Error(`${file} could not start: ${launched.error}`);
  }
  const timer = setTimeout(() => signalGroup(launched.pid, "SIGKILL"), opts.timeoutMs);
  const [exit, stdout, stderr] = await Promise.all([launched.exited, collect(out.readFd), collect(err.readFd)]);
  clearTimeout(timer);
  return { code: exit.code, stdout: stdout.toString("utf8"), stderr: stderr.toString("utf8") };
}
