// The conditional updates a run goes through (its claim, its status, a worker's heartbeat) are single
// statements: true when the row matched, false when it did not — also inside a transaction, which goes on
// after a miss (a decision made twice at once is refused by the second, not by a broken transaction).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDb } from "../testing/test-db";
import { createTestDbWithRun } from "../testing/seeded-rows";
import { findRun, updateRunIfStatus } from "./runs";
import {
  beatWorker,
  claimRun,
  findClaimStates,
  insertWorker,
  markWorkerGone,
  releaseRun,
  releaseRunAtEnd,
} from "./workers";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDbWithRun();
});
afterAll(async () => t.cleanup());

describe("conditional updates of one row", () => {
  it("change the row when it matches and report whether it did", async () => {
    expect(await updateRunIfStatus({ id: "r", statuses: ["queued"], changes: { gate: "red" } })).toBe(false);
    expect((await findRun({ id: "r" }))?.gate).toBe("running");
    expect(await updateRunIfStatus({ id: "r", statuses: ["queued", "running"], changes: { status: "queued" } })).toBe(
      true,
    );
    expect(await updateRunIfStatus({ id: "nope", statuses: ["queued"], changes: { gate: "red" } })).toBe(false);

    const worker = await insertWorker({ data: { name: "w1", host: "h", pid: 1, concurrency: 1 } });
    const touched = async () => (await t.db.run.findUniqueOrThrow({ where: { id: "r" } })).updatedAt.getTime();
    const beforeClaim = await touched();
    expect(await claimRun({ runId: "r", worker })).toBe(true);
    expect(await findClaimStates({ runIds: ["r", "no-such-run"] })).toEqual([
      { id: "r", status: "queued", claimedBy: worker.id, endingReason: null },
    ]);
    expect((await findRun({ id: "r" }))?.workerName).toBe("w1");
    expect(await touched()).toBeGreaterThanOrEqual(beforeClaim);
    // Claimed once: a second claim (a duplicate job) does not take it.
    expect(await claimRun({ runId: "r", worker: { id: "other", name: "w2" } })).toBe(false);
    expect(await releaseRun({ runId: "r", workerId: "other" })).toBe(false);
    expect(await releaseRun({ runId: "r", workerId: worker.id })).toBe(true);
    expect((await findRun({ id: "r" }))?.claimedBy).toBeNull();
    expect((await findClaimStates({ runIds: ["r"] }))[0].claimedBy).toBeNull();
    expect(await findClaimStates({ runIds: [] })).toEqual([]);
    // Only a queued run is claimed.
    await updateRunIfStatus({ id: "r", statuses: ["queued"], changes: { status: "running" } });
    expect(await claimRun({ runId: "r", worker })).toBe(false);
    await updateRunIfStatus({ id: "r", statuses: ["running"], changes: { status: "queued" } });

    expect(await beatWorker({ id: worker.id })).toBe(true);
    expect(await markWorkerGone({ id: worker.id })).toBe(true);
    // Declared lost by another process: its heartbeat says so.
    expect(await beatWorker({ id: worker.id })).toBe(false);
  });

  it("a release at a run's end says the run's status; nothing when the run was not the worker's", async () => {
    const worker = await insertWorker({ data: { name: "w-end", host: "h", pid: 2, concurrency: 1 } });
    await updateRunIfStatus({ id: "r", statuses: ["queued", "running", "waiting"], changes: { status: "queued" } });
    expect(await claimRun({ runId: "r", worker })).toBe(true);
    // The run ended waiting, then a person started its next attempt while the worker still held it.
    await updateRunIfStatus({ id: "r", statuses: ["queued"], changes: { status: "waiting" } });
    await updateRunIfStatus({ id: "r", statuses: ["waiting"], changes: { status: "queued" } });
    expect(await releaseRunAtEnd({ runId: "r", workerId: "another-worker" })).toBeNull();
    expect((await findRun({ id: "r" }))?.claimedBy).toBe(worker.id);
    expect(await releaseRunAtEnd({ runId: "r", workerId: worker.id })).toBe("queued");
    expect((await findRun({ id: "r" }))?.claimedBy).toBeNull();
    // Released already: nothing to release, no status.
    expect(await releaseRunAtEnd({ runId: "r", workerId: worker.id })).toBeNull();
    // A run that ended: its status as it stands.
    expect(await claimRun({ runId: "r", worker })).toBe(true);
    await updateRunIfStatus({ id: "r", statuses: ["queued"], changes: { status: "finished" } });
    expect(await releaseRunAtEnd({ runId: "r", workerId: worker.id })).toBe("finished");
    await updateRunIfStatus({ id: "r", statuses: ["finished"], changes: { status: "queued" } });
  });

  it("inside a transaction, a miss leaves the transaction usable and its later writes commit", async () => {
    const outcome = await t.db.$transaction(async (tx) => {
      const miss = await updateRunIfStatus({ id: "r", statuses: ["finished"], changes: { gate: "red" }, db: tx });
      const hit = await updateRunIfStatus({ id: "r", statuses: ["queued"], changes: { gate: "green" }, db: tx });
      return { miss, hit };
    });
    expect(outcome).toEqual({ miss: false, hit: true });
    expect((await findRun({ id: "r" }))?.gate).toBe("green");
  });
});
