// On PostgreSQL: runs go through the pg-boss queue to workers. The server's executor enqueues; unless
// GATEHOUSE_WORKERS=0, the server also runs a worker in-process, so one machine still needs one command.
import { recoverRuns } from "../runner/recovery";
import { defaultRunnerDeps, setExecutor } from "../runner/runtime";
import { openQueue } from "../runner/queue/boss";
import { lostAfterMsFromEnv } from "../runner/queue/held-runs";
import { QueueExecutor } from "../runner/queue/queue-executor";
import { RunWorker, workerNameFromEnv } from "../runner/queue/worker";
import { config } from "../config/config";

export async function startQueue(databaseUrl: string): Promise<{ shutdown: () => Promise<void> }> {
  const deps = defaultRunnerDeps();
  const lostAfterMs = lostAfterMsFromEnv();
  const queue = await openQueue(databaseUrl);
  const executor = new QueueExecutor(queue, deps, lostAfterMs);
  setExecutor(executor, deps);
  executor.watchForLostWorkers();
  // Runs no worker holds: "running" ones (left by a server that executed them itself) end interrupted,
  // queued ones are enqueued again (a duplicate job is dropped by the claim).
  const recovery = await recoverRuns(executor);
  if (recovery.interrupted.length > 0)
    console.log(`gatehouse: ended ${recovery.interrupted.length} interrupted run(s) as inconclusive`);
  const inProcess = config().hasLocalWorker;
  const worker = inProcess
    ? await RunWorker.start({
        queue,
        deps,
        name: workerNameFromEnv(),
        concurrency: deps.concurrency,
        lostAfterMs,
        pollMs: config().workerPollMs,
        warmWorks: config().workerWarmWorks,
      })
    : null;
  if (!worker)
    console.log("gatehouse: GATEHOUSE_WORKERS=0: serving the dashboard and API; runs go to `npm run worker`");
  return {
    shutdown: async () => {
      await worker?.shutdown();
      executor.close();
      await queue.boss.stop({ graceful: false }).catch(() => undefined);
    },
  };
}
