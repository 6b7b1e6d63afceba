// Server start-up, once per process: database ready, runner configured, interrupted runs recovered,
// the demo created on an empty database. Signals end every check process before the server exits.
import { readyDb } from "../db/client";
import { recoverRuns } from "../runner/recovery";
import { configureRuntime, defaultRunnerDeps, killAllRunningProcesses } from "../runner/runtime";
import { bootstrapAccess } from "./bootstrap-access";
import { seedDemoIfEmpty } from "./seed-demo";

const holder = globalThis as unknown as { __gatehouseStarted?: Promise<void> };

export function startGatehouse(): Promise<void> {
  holder.__gatehouseStarted ??= start();
  return holder.__gatehouseStarted;
}

async function start(): Promise<void> {
  await readyDb();
  await bootstrapAccess();
  const { executor } = configureRuntime(defaultRunnerDeps());
  const recovery = await recoverRuns(executor);
  if (recovery.interrupted.length > 0) {
    console.log(
      `gatehouse: ended ${recovery.interrupted.length} interrupted run(s) as inconclusive; ended ${recovery.killedPids.length} left-over process(es)`,
    );
  }
  if (process.env.GATEHOUSE_DEMO !== "0") await seedDemoIfEmpty();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      killAllRunningProcesses();
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
}
