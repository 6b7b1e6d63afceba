// The job queue (pg-boss on the Gatehouse database): one queue of run ids. A job only says "advance this
// run"; which worker executes it is decided by the conditional claim on the run row (lib/db/workers), so a
// duplicate job, a retried one or one for a run that is gone is harmless: it is dropped and logged.
import { PgBoss } from "pg-boss";
import pg from "pg";
import type { TransactionSql } from "../../db/by-id";

export const RUN_QUEUE = "gatehouse-runs";
// Wakes idle workers the moment a run is queued (they also poll, every GATEHOUSE_WORKER_POLL_MS, as a
// floor: a NOTIFY does not pass a connection pooler in transaction mode).
const WAKE_CHANNEL = "gatehouse_run_queued";

export type QueueConnection = { boss: PgBoss; url: string };

// pg-boss keeps its tables in a schema of its own: `gatehouse_queue`, or `<schema>_queue` when
// DATABASE_URL names a schema (?schema=…), so two installations in one database do not share a queue.
export function queueSchemaOf(databaseUrl: string): { connectionString: string; schema: string } {
  const parsed = new URL(databaseUrl);
  const appSchema = parsed.searchParams.get("schema");
  parsed.searchParams.delete("schema");
  return { connectionString: parsed.toString(), schema: appSchema ? `${appSchema}_queue` : "gatehouse_queue" };
}

export async function openQueue(databaseUrl: string): Promise<QueueConnection> {
  const { connectionString, schema } = queueSchemaOf(databaseUrl);
  const boss = new PgBoss({ connectionString, schema, max: 4, application_name: "gatehouse-queue" });
  boss.on("error", (error) => console.error(`gatehouse: queue: ${(error as Error).message}`));
  await boss.start();
  // A job is done as soon as a worker claims its run (the run row tracks the rest), so it never needs
  // long: one a worker took and then died with is offered again after a minute.
  await boss.createQueue(RUN_QUEUE, { expireInSeconds: 60, retryLimit: 3, deleteAfterSeconds: 3600 }).catch(() => {
    // already there (another process made it first)
  });
  return { boss, url: connectionString };
}

// `within`: sent on a transaction's connection (a dispatch's), the job and the NOTIFY take effect at its commit,
// so a worker woken by it always finds the run; without, on pg-boss's pool and the waker's connection.
export async function sendRunJob(queue: QueueConnection, runId: string, within?: TransactionSql): Promise<void> {
  if (within) {
    await queue.boss.send(RUN_QUEUE, { runId }, { db: within });
    await within.executeSql(`NOTIFY ${WAKE_CHANNEL}`);
    return;
  }
  await queue.boss.send(RUN_QUEUE, { runId });
  await wakeWorkers(queue.url);
}

let waker: pg.Client | null = null;
let wakerReady: Promise<pg.Client> | null = null;

async function wakeWorkers(url: string): Promise<void> {
  try {
    wakerReady ??= (async () => {
      const client = new pg.Client({ connectionString: url, application_name: "gatehouse-wake" });
      client.on("error", () => {
        waker = null;
        wakerReady = null;
      });
      await client.connect();
      waker = client;
      return client;
    })();
    const client = await wakerReady;
    await client.query(`NOTIFY ${WAKE_CHANNEL}`);
  } catch {
    // Workers poll anyway; a failed wake-up only costs latency.
    wakerReady = null;
    await waker?.end().catch(() => undefined);
    waker = null;
  }
}

// Resolves `onWake` whenever a run is queued; returns a function that stops listening.
export async function listenForRuns(url: string, onWake: () => void): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url, application_name: "gatehouse-worker-listen" });
  client.on("error", () => undefined);
  await client.connect();
  client.on("notification", onWake);
  await client.query(`LISTEN ${WAKE_CHANNEL}`);
  return () => client.end().catch(() => undefined);
}
