// A dispatch on PostgreSQL queues its run inside the transaction that inserts it (lib/db/by-id.ts transaction,
// QueueExecutor.enqueueWithin): the pg-boss job and the NOTIFY that wakes workers take effect at its commit,
// and a transaction that fails leaves neither. Run by `npm run test:pg` only.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../../auth/actor";
import { transaction } from "../../db/by-id";
import { getDb } from "../../db/client";
import { dispatchTask } from "../../services/runs";
import { check, makeScenario } from "../../testing/runner-harness";
import { waitFor } from "../../testing/processes";
import { startTestServer, type TestServer } from "../../testing/worker-process";
import { listenForRuns, queueSchemaOf } from "./boss";

let server: TestServer;
let admin: pg.Client;
let stopListening: () => Promise<void>;
// The payloads of the wake-ups the listener got, in the order the database delivered them.
const wakes: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  admin = new pg.Client({ connectionString: server.queue.url });
  await admin.connect();
  stopListening = await listenForRuns(server.queue.url, (message?: { payload?: string }) => {
    wakes.push(message?.payload ?? "");
  });
});

afterAll(async () => {
  await stopListening?.();
  await admin?.end();
  await server?.close();
});

async function jobsFor(runId: string): Promise<number> {
  const { schema } = queueSchemaOf(process.env.DATABASE_URL!);
  const { rows } = await admin.query(`SELECT count(*)::int AS n FROM "${schema}".job WHERE data->>'runId' = $1`, [
    runId,
  ]);
  return rows[0].n;
}

// Waits for a wake-up sent by another connection with `marker` as its payload: every wake-up committed before it
// has been delivered by then (PostgreSQL delivers them in the order their transactions committed).
async function deliveredUpTo(marker: string): Promise<string[]> {
  await admin.query("SELECT pg_notify('gatehouse_run_queued', $1)", [marker]);
  await waitFor(async () => wakes.includes(marker), { timeoutMs: 10_000, what: `wake-up ${marker}` });
  return wakes.splice(0);
}

describe("a dispatch on the PostgreSQL queue", () => {
  it("queues the run's job and wakes the workers when its transaction commits, not before", async () => {
    const s = await makeScenario(server.h, { checkDefaults: [check("ok", "true")] });
    wakes.length = 0;
    let runId = "";
    await transaction(getDb(), async (tx) => {
      runId = "run-committed-later";
      expect(await server.executor.enqueueWithin(runId, tx)).toBe(true);
      // Not yet: neither the job (another connection cannot see it) nor the wake-up.
      expect(await jobsFor(runId)).toBe(0);
      expect(await deliveredUpTo("before-commit")).toEqual(["before-commit"]);
    });
    expect(await jobsFor(runId)).toBe(1);
    expect(await deliveredUpTo("after-commit")).toEqual(["", "after-commit"]);

    // A real dispatch: its run's job is there, one, and its wake-up came.
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    expect(await jobsFor(run.id)).toBe(1);
    expect(await deliveredUpTo("after-dispatch")).toEqual(["", "after-dispatch"]);
  });

  it("leaves no job and no wake-up when the transaction fails after queueing", async () => {
    wakes.length = 0;
    await expect(
      transaction(getDb(), async (tx) => {
        await server.executor.enqueueWithin("run-never-committed", tx);
        throw new Error("the audit row could not be written");
      }),
    ).rejects.toThrow("the audit row could not be written");
    expect(await jobsFor("run-never-committed")).toBe(0);
    expect(await deliveredUpTo("after-rollback")).toEqual(["after-rollback"]);
  });
});
