// Test helper: real worker processes (`node scripts/worker.mjs`) on the test's PostgreSQL schema, each
// with a data dir of its own (as on another machine), its output collected, stopped by a marker in its
// environment (lib/runner/process/process-group's guard), and a queue for the test to play the server.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { killMarked } from "../runner/process/process-group";
import { openQueue, queueSchemaOf, type QueueConnection } from "../runner/queue/boss";
import { QueueExecutor } from "../runner/queue/queue-executor";
import { setExecutor } from "../runner/runtime";
import { createHarness, type Harness } from "./runner-harness";
import { waitFor } from "./processes";

const ROOT = path.resolve(__dirname, "..", "..");

export type WorkerProcess = {
  name: string;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  signal: (signal: NodeJS.Signals) => boolean;
};

// The secret key server and workers share (set before the test seals any secret).
export function shareSecretKey(): void {
  process.env.GATEHOUSE_SECRET_KEY ??= randomBytes(32).toString("base64");
}

export function startWorkerProcess(
  name: string,
  env: Record<string, string> = {},
  command: { cmd: string; args: string[] } = {
    cmd: process.execPath,
    args: [path.join(ROOT, "scripts", "worker.mjs")],
  },
): WorkerProcess {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `gatehouse-worker-${name}-`));
  const marker = `GATEHOUSE_TEST_WORKER=${randomUUID()}`;
  const [markerName, markerValue] = marker.split("=");
  const child = spawn(command.cmd, command.args, {
    cwd: ROOT,
    env: {
      ...process.env,
      GATEHOUSE_DATA_DIR: dataDir,
      GATEHOUSE_WORKER_NAME: name,
      GATEHOUSE_CONCURRENCY: "2",
      GATEHOUSE_WORKER_LOST_SEC: "3",
      // Readying clones at start is tested on its own; elsewhere a worker starts without it.
      GATEHOUSE_WORKER_WARM: "0",
      [markerName]: markerValue,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    name,
    dataDir,
    child,
    output: () => output,
    exited,
    signal: (signal) => (child.pid ? killMarked(child.pid, [marker], signal) : false),
  };
}

export async function waitForOutput(worker: WorkerProcess, text: string, timeoutMs = 60_000): Promise<void> {
  await waitFor(() => worker.output().includes(text), {
    timeoutMs,
    what: `"${text}" from worker ${worker.name}`,
  }).catch((error: Error) => {
    throw new Error(`${error.message}; its output:\n${worker.output()}`);
  });
}

export async function stopWorkerProcess(worker: WorkerProcess): Promise<void> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) {
    worker.signal("SIGKILL");
    await worker.exited;
  }
  fs.rmSync(worker.dataDir, { recursive: true, force: true });
}

// The queue of the test's schema (the test plays the server), and dropping it afterwards.
export async function openTestQueue(): Promise<{ queue: QueueConnection; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL!;
  const queue = await openQueue(url);
  return {
    queue,
    drop: async () => {
      await queue.boss.stop({ graceful: false }).catch(() => undefined);
      const { connectionString, schema } = queueSchemaOf(url);
      const pg = (await import("pg")).default;
      const c = new pg.Client({ connectionString });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.end();
    },
  };
}

export type TestServer = { h: Harness; queue: QueueConnection; executor: QueueExecutor; close: () => Promise<void> };

// The test as the web server of workers: the shared secret key, a harness, the queue of the test's schema
// and a QueueExecutor on it as the services' executor (`watchLost`: it also marks lost workers' runs).
// `close` stops the executor, drops the queue and cleans the harness; stop the workers first.
export async function startTestServer(options: { watchLost?: boolean } = {}): Promise<TestServer> {
  shareSecretKey();
  const h = await createHarness();
  const { queue, drop } = await openTestQueue();
  const executor = new QueueExecutor(queue, h.deps, 3000);
  setExecutor(executor, h.deps);
  if (options.watchLost) executor.watchForLostWorkers();
  return {
    h,
    queue,
    executor,
    close: async () => {
      executor.close();
      await drop();
      await h.cleanup();
    },
  };
}
