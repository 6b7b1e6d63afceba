// Server start-up, once per process: database ready, runner configured, interrupted runs recovered,
// the demo created on an empty database. Signals end every check process before the server exits.
import { readyDb } from "../db/client";
import { recoverRuns } from "../runner/recovery";
import { configureRuntime, defaultRunnerDeps, killAllRunningProcesses } from "../runner/runtime";
import { isPostgresUrl } from "../config/database-url";
import { bootstrapAccess } from "./bootstrap-access";
import { seedDemoIfEmpty } from "./seed-demo";
import { config } from "../config/config";
import { describeSandboxMode } from "../runner/sandbox/mode";
import { startWebhookSweeper } from "../runner/webhook-sender";
import { sweepLeftoversInBackground } from "../runner/leftovers";

const holder = globalThis as unknown as { __gatehouseStarted?: Promise<void> };

export function startGatehouse(): Promise<void> {
  holder.__gatehouseStarted ??= start();
  return holder.__gatehouseStarted;
}

async function start(): Promise<void> {
  await readyDb();
  await bootstrapAccess();
  // Deliveries owed from before (their retries, a request cut off by the stop) are sent, in the background.
  startWebhookSweeper();
  const { databaseUrl, isDemo } = config();
  if (isPostgresUrl(databaseUrl)) return startOnQueue(databaseUrl!);
  const { executor, deps } = configureRuntime(defaultRunnerDeps());
  console.log(`gatehouse: ${describeSandboxMode(deps.sandbox, deps.runAs)}`);
  sweepLeftoversInBackground(deps.dataDir, "gatehouse");
  const recovery = await recoverRuns(executor);
  if (recovery.interrupted.length > 0) {
    console.log(
      `gatehouse: ended ${recovery.interrupted.length} interrupted run(s) as inconclusive; ` +
        `ended ${recovery.killedPids.length} left-over process(es)`,
    );
  }
  if (isDemo) await seedDemoIfEmpty();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      killAllRunningProcesses();
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
}

// PostgreSQL: the queue and its workers (an in-process one unless GATEHOUSE_WORKERS=0). A signal stops the
// in-process worker cleanly (its runs handed back or ended "worker stopped") before the server exits.
async function startOnQueue(databaseUrl: string): Promise<void> {
  // Loaded only on PostgreSQL: the embedded default never loads the queue.
  const { startQueue } = await import("./start-queue");
  const queue = await startQueue(databaseUrl);
  if (config().isDemo) await seedDemoIfEmpty();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void queue
        .shutdown()
        .catch((error) => console.error("gatehouse: stopping the worker failed", error))
        .finally(() => {
          killAllRunningProcesses();
          process.exit(signal === "SIGINT" ? 130 : 143);
        });
    });
  }
}
