// Reading a check's JUnit reports off the server's event loop: a 5 MB report takes the parser most of a
// second, which on the main thread would stall every request and live log meanwhile. One worker thread,
// started on first use and kept (unreferenced while idle, so it never holds the process open), runs
// readJunitReports of lib/runner/junit-reports.ts itself — the same walk, caps and parse, so the results are
// those of the in-thread function. The worker loads that TypeScript module from the install folder through
// tsx (as `npm run worker` loads the runner): the server's own copy is inside Next's bundle, out of reach of
// a thread. Its heap is capped; a worker that dies answers each pending read with a problem, and the next
// read starts a new one.
import path from "node:path";
import { Worker } from "node:worker_threads";
import { installDir } from "../config/install-dir";
import type { JunitRead } from "./junit-reports";

type ReadOptions = { checkoutDir: string; glob: string; sinceMs: number };
type Pending = { resolve: (read: JunitRead) => void };

// CommonJS run by the worker (eval): registers tsx, loads the module, answers each request by its id.
const READER = `
const { parentPort, workerData } = require("node:worker_threads");
const req = require("node:module").createRequire(workerData.base);
req("tsx/cjs/api").register();
const { readJunitReports } = req(workerData.module);
parentPort.on("message", ({ id, options }) => {
  let read;
  try { read = readJunitReports(options); }
  catch (error) { read = { cases: [], filesRead: 0, problems: ["the reports could not be read: " + String(error && error.message || error)] }; }
  parentPort.postMessage({ id, read });
});
`;

const HEAP_MB = 768;
let shared: { worker: Worker; pending: Map<number, Pending> } | null = null;
let nextId = 1;

function failAll(pending: Map<number, Pending>, why: string) {
  for (const p of pending.values()) p.resolve({ cases: [], filesRead: 0, problems: [why] });
  pending.clear();
}

function readerThread(): { worker: Worker; pending: Map<number, Pending> } {
  if (shared) return shared;
  const root = installDir();
  const worker = new Worker(READER, {
    eval: true,
    workerData: { base: path.join(root, "package.json"), module: path.join(root, "lib/runner/junit-reports.ts") },
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    stdout: true,
    stderr: true,
  });
  const thread = { worker, pending: new Map<number, Pending>() };
  worker.on("message", ({ id, read }: { id: number; read: JunitRead }) => {
    thread.pending.get(id)?.resolve(read);
    thread.pending.delete(id);
    if (thread.pending.size === 0) worker.unref();
  });
  const end = (why: string) => {
    if (shared === thread) shared = null;
    failAll(thread.pending, why);
  };
  worker.on("error", (error) => end(`the reports could not be read: ${error.message}`));
  worker.on("exit", () => end("the reports could not be read: the reading thread stopped"));
  worker.unref();
  shared = thread;
  return thread;
}

// What readJunitReports answers, computed in the worker thread.
export function readJunitReportsOffThread(options: ReadOptions): Promise<JunitRead> {
  const thread = readerThread();
  const id = nextId++;
  return new Promise((resolve) => {
    thread.pending.set(id, { resolve });
    // Held open while a read is pending, so a process with nothing else to do waits for the answer.
    thread.worker.ref();
    thread.worker.postMessage({ id, options });
  });
}
