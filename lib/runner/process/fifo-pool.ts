// Real pipes for check output. Node gives children socketpairs, on which `> /dev/stdout`, `tee
// /dev/stderr` and `cat /dev/stdout` fail (ENXIO); scripts expect pipes. Node cannot create a pipe
// pair, but it can open a FIFO: FIFOs are made in batches (one `mkfifo` per batch), each is opened once
// for reading and once for writing (by whoever starts the command), then unlinked, leaving a pipe only
// this check holds.
import fs from "node:fs";
import path from "node:path";
import { launch } from "./spawner";
import { config } from "../../config/config";
import { isInside } from "../checkout/checkout-files";
import { realPathOf } from "../sandbox/real-path";

// A run takes ~20 (each git command's output, the sandbox's control pipes, each check's): a batch lasts a few
// runs, so the refill's process is rarely part of a run's set-up (32 made one for every ~1.5 runs).
const BATCH = 128;

export type ReadEnd = { readFd: number; path: string };

export class FifoPool {
  private ready: string[] = [];
  private counter = 0;
  private filling: Promise<void> | null = null;

  constructor(private readonly dir: string) {}

  private async fill(): Promise<void> {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const stamp = `${process.pid}-${Date.now().toString(36)}`;
    const paths = Array.from({ length: BATCH }, () => path.join(this.dir, `p-${stamp}-${this.counter++}`));
    // Through the spawner like every other command: the server never forks itself (a fork makes every
    // page it then writes fault once, ~80 ms for a 16 MB log ring on a virtual machine).
    const launched = await launch({
      file: "mkfifo",
      args: ["-m", "600", ...paths],
      cwd: this.dir,
      env: { PATH: config().hostPath ?? "/usr/bin:/bin" },
      stdinPath: null,
      outPath: "/dev/null",
    });
    if ("error" in launched) throw new Error(`mkfifo could not start: ${launched.error}`);
    const exit = await launched.exited;
    if (exit.code !== 0) throw new Error(`mkfifo failed (exit ${exit.code ?? exit.signal})`);
    this.ready.push(...paths);
  }

  // Opens a fresh FIFO's read end (non-blocking, so it does not wait for a writer). Whoever starts the
  // command opens the write end by path; the caller then unlinks the path.
  async takeReadEnd(): Promise<ReadEnd> {
    while (this.ready.length === 0) {
      this.filling ??= this.fill().finally(() => {
        this.filling = null;
      });
      await this.filling;
    }
    const fifo = this.ready.shift()!;
    let readFd: number;
    try {
      readFd = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    } catch (error) {
      // The folder was removed under the pool (a data dir cleaned up): the batch is gone, make a new one.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      this.ready = [];
      return this.takeReadEnd();
    }
    if (this.ready.length < BATCH / 4 && !this.filling) {
      this.filling = this.fill()
        .catch(() => undefined)
        .finally(() => {
          this.filling = null;
        });
    }
    return { readFd, path: fifo };
  }

  // Once no batch is being made (one started in the background may still be adding FIFOs to the folder).
  async settled(): Promise<void> {
    while (this.filling) await this.filling.catch(() => undefined);
  }
}

const pools = new Map<string, FifoPool>();

// Forgets the pools of `dir` and the folders below it once the batches they are making are made: a data dir
// removed while a refill's `mkfifo` still writes into it fails with ENOTEMPTY (a test's cleanup did).
export async function closeFifoPoolsUnder(dir: string): Promise<void> {
  // By the name given and the real one (the runner's data dir is a real path: config.ts).
  const roots = [path.resolve(dir), realPathOf(dir)];
  for (const [poolDir, pool] of pools) {
    if (!roots.some((root) => isInside(root, poolDir))) continue;
    pools.delete(poolDir);
    await pool.settled();
  }
}

export function fifoPoolFor(dir: string): FifoPool {
  let pool = pools.get(dir);
  if (!pool) {
    pool = new FifoPool(dir);
    pools.set(dir, pool);
  }
  return pool;
}
