// `npm run worker` (after scripts/worker.mjs has checked the configuration, waited for the database and
// applied migrations): one worker process taking runs from the queue until SIGTERM or SIGINT.
import { readyDb } from "../../db/client";
import { defaultRunnerDeps, loadLazyModules } from "../runtime";
import { openQueue } from "./boss";
import { lostAfterMsFromEnv } from "./held-runs";
import { RunWorker, workerNameFromEnv } from "./worker";
import { describeSandboxMode } from "../sandbox/mode";
import { config } from "../../config/config";

export async function runWorkerProcess(databaseUrl: string): Promise<void> {
  const db = await readyDb();
  // The server owns the schema (it applies the migrations): a worker of a newer or older install, or one
  // started before the server ever ran, says so instead of failing on its first query.
  try {
    await db.worker.count();
  } catch (error) {
    console.error(
      `gatehouse worker: the database has no Gatehouse tables of this version (` +
        `${(error as Error).message.split("\n").at(-1)}): start the server (npm start) once with this ` +
        `DATABASE_URL to apply the migrations, and run the same version of Gatehouse on every machine`,
    );
    process.exit(2);
  }
  try {
    await loadLazyModules();
  } catch (error) {
    console.error(`gatehouse worker: a module the runner needs cannot be loaded: ${(error as Error).message}`);
    process.exit(2);
  }
  const deps = defaultRunnerDeps();
  console.log(`gatehouse worker: ${describeSandboxMode(deps.sandbox, deps.runAs)}`);
  const queue = await openQueue(databaseUrl);
  const worker = await RunWorker.start({
    queue,
    deps,
    name: workerNameFromEnv(),
    concurrency: deps.concurrency,
    lostAfterMs: lostAfterMsFromEnv(),
    pollMs: config().workerPollMs,
    warmWorks: config().workerWarmWorks,
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      console.log(`gatehouse: worker ${worker.name}: ${signal}, handing back its runs`);
      void worker
        .shutdown()
        .then(() => queue.boss.stop({ graceful: false }))
        .then(
          () => process.exit(0),
          (error) => {
            console.error("gatehouse: the worker did not stop cleanly", error);
            process.exit(1);
          },
        );
    });
  }
}
