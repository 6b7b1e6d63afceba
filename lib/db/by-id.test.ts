// A row read by one raw statement (by-id.ts) is the row the model query gives: same columns, same values,
// same types (Date, parsed JSON, booleans, floats), with every nullable column set and with each left null.
// Runs on SQLite here and on PostgreSQL in `npm run test:pg`.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isPostgresUrl } from "../config/database-url";
import pg from "pg";
import { createDb, directPoolOf, getDb, writeGeneration, type DbOrTx } from "./client";
import { insertRow, rowById, rowsWhere, transaction, transactionSqlOf, updateWhere } from "./by-id";
import { insertAuditEvent } from "./audit";
import {
  type AttemptChanges,
  findAttempt,
  findRun,
  listAttempts,
  listResults,
  type RunChanges,
  updateAttempt,
  updateRun,
  updateRunIfStatus,
} from "./runs";
import { findTask } from "./tasks";
import { listSealedSecrets } from "./secrets";
import { listAssetContents } from "./assets";
import { findSealedWebhooks, findWork } from "./works";
import { AWKWARD_JSON, seedRun, seedTask, seedWork, seedWorkWithEverySetting } from "../testing/seeded-rows";
import { createTestDb, type TestDb } from "../testing/test-db";

let t: TestDb;
// A zone other than UTC, as a server may run in: a timestamp must not be read or written in local time.
const zone = process.env.TZ;
beforeAll(async () => {
  process.env.TZ = "America/New_York";
  t = await createTestDb();
  await seedWork("w-bare");
  await seedTask({ id: "t-bare", workId: "w-bare", number: 1 });
  await seedRun({ id: "r-bare", taskId: "t-bare", workId: "w-bare" });
  await seedWorkWithEverySetting("w-full");
  await seedTask({ id: "t-full", workId: "w-full", number: 1 });
  await seedRun({ id: "r-full", taskId: "t-full", workId: "w-full" });
  const when = new Date("2026-03-04T05:06:07.089Z");
  const json = AWKWARD_JSON;
  await getDb().task.update({
    where: { id: "t-full" },
    data: {
      acceptanceChecks: [{ id: "unit", suppressed: true }],
      maxGateAttempts: 4,
      agentCommand: "codex",
      budgetSec: 60,
      budgetUsd: 0.125,
      mergedCommit: "a".repeat(40),
      mergedHead: "b".repeat(40),
      mergedAt: when,
      mergedBy: "someone",
      autoMergeError: "conflict in x",
      lane: "delivery",
      stage: "plan",
    },
  });
  await getDb().run.update({
    where: { id: "r-full" },
    data: {
      ending: "accepted",
      endingReason: "green",
      agentCommand: "claude",
      budgetSec: 30,
      budgetUsd: 1e-3,
      proof: json,
      reviewCommand: "r",
      mutationCommand: "m",
      mutationReport: "m.json",
      redTeamCommand: "rt",
      redTeamTestCommand: "rtt",
      sandbox: { mounts: [] },
      lane: { id: "delivery", stages: [] },
      stage: "plan",
      startCommit: "b".repeat(40),
      bestAttempt: 1,
      bestCommit: "c".repeat(40),
      decision: "accept",
      decidedById: "u1",
      decidedAt: when,
      decisionReason: "fine",
      supersededById: null,
      dispatchedById: "u2",
      startedAt: when,
      finishedAt: new Date(when.getTime() + 1),
      claimedBy: "worker-1",
      workerName: "w1",
      sandboxMode: "bwrap",
      needsDecision: true,
      failFast: true,
    },
  });
  // The run's attempt with every column set, and a result of each shape (BigInt log sizes among them).
  await getDb().attempt.update({
    where: { id: "r-full-1" },
    data: {
      status: "finished",
      gate: "green",
      startedAt: when,
      finishedAt: when,
      commit: "d".repeat(40),
      isDirty: true,
      treeAfter: "e".repeat(40),
      noChangeSince: 1,
      brief: "brief",
      agentVerdict: "passed",
      agentExitCode: 0,
      agentDurationMs: 1234,
      agentMessage: "done",
      agentLogTail: "tail",
      agentLogBytes: 5_000_000_000n,
      agentLogNote: "cut",
      agentResult: json,
      reportNotes: ["a note"],
      review: json,
      mutation: json,
      redTeam: json,
      pushed: { commit: "f".repeat(40) },
      startedById: "u3",
    },
  });
  const result = {
    attemptId: "r-full-1",
    runId: "r-full",
    name: "Unit",
    kind: "test" as const,
    required: true,
    logAttempt: 1,
  };
  await getDb().checkResult.createMany({
    data: [
      { ...result, position: 1, checkId: "b", verdict: "queued" },
      {
        ...result,
        position: 0,
        checkId: "a",
        verdict: "failed",
        exitCode: 1,
        signal: "SIGTERM",
        durationMs: 10,
        message: "m",
        logTail: "t",
        logBytes: 3_000_000_000n,
        logNote: "n",
        tests: { passed: 1, failed: 2 },
        testCases: [{ name: "x", status: "failed" }],
        warning: "w",
        flaky: true,
        startedAt: when,
        finishedAt: when,
      },
    ],
  });
});
afterAll(async () => {
  await t.cleanup();
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe("rowById", () => {
  for (const which of ["bare", "full"]) {
    it(`reads a ${which} run, task and Work as the model query does`, async () => {
      const db = getDb();
      const cases = [
        [await db.run.findUnique({ where: { id: `r-${which}` } }), await rowById(db, "Run", `r-${which}`)],
        [await db.task.findUnique({ where: { id: `t-${which}` } }), await rowById(db, "Task", `t-${which}`)],
        [await db.work.findUnique({ where: { id: `w-${which}` } }), await rowById(db, "Work", `w-${which}`)],
      ];
      for (const [model, raw] of cases) {
        expect(raw).toStrictEqual(model);
        for (const [column, value] of Object.entries(model ?? {}))
          if (value instanceof Date) expect((raw as Record<string, unknown>)[column]).toBeInstanceOf(Date);
      }
    });
  }

  it("reads attempts and results by their columns, in order, as the model query does (BigInt too)", async () => {
    const db = getDb();
    const attempts = await db.attempt.findMany({ where: { runId: "r-full" }, orderBy: { n: "asc" } });
    expect(await rowsWhere(db, "Attempt", { runId: "r-full" }, { orderBy: "n" })).toStrictEqual(attempts);
    expect(await rowsWhere(db, "Attempt", { runId: "r-full", n: 1 })).toStrictEqual(attempts.slice(0, 1));
    expect(await rowsWhere(db, "Attempt", { runId: "r-full", n: 2 })).toEqual([]);
    const results = await db.checkResult.findMany({ where: { attemptId: "r-full-1" }, orderBy: { position: "asc" } });
    expect(results.map((r) => r.checkId)).toEqual(["a", "b"]);
    expect(await rowsWhere(db, "CheckResult", { attemptId: "r-full-1" }, { orderBy: "position" })).toStrictEqual(
      results,
    );
    expect((await listResults({ attemptId: "r-full-1" }))[0].logBytes).toBe(3_000_000_000);
    expect((await findAttempt({ runId: "r-full", n: 1 }))?.agentLogBytes).toBe(5_000_000_000);
    expect((await listAttempts({ runId: "r-full" })).map((a) => a.n)).toEqual([1]);
    await expect(rowsWhere(db, "Run", { 'id" OR 1=1 --': "x" })).rejects.toThrow(/not a column/);
  });

  it("leaves out the columns asked to, gives null for no such id, and works in a transaction", async () => {
    const db = getDb();
    const row = await rowById<Record<string, unknown>>(db, "Run", "r-full", ["updatedAt"]);
    expect(row && "updatedAt" in row).toBe(false);
    expect(row?.startCommit).toBe("b".repeat(40));
    expect(await rowById(db, "Work", "no-such-work")).toBeNull();
    const inside = await db.$transaction(async (tx) => rowById<{ title: string }>(tx, "Task", "t-full"));
    expect(inside?.title).toBe("t-full");
  });

  it("on PostgreSQL sends a statement outside a transaction past Prisma's client, and one inside a transaction \
through it; on SQLite every statement goes through it", async () => {
    const db = getDb();
    const onPostgres = isPostgresUrl(process.env.DATABASE_URL ?? "");
    const viaPrisma = vi.spyOn(db, "$queryRaw");
    const updatesViaPrisma = vi.spyOn(db, "$executeRaw");
    try {
      expect((await rowById<{ title: string }>(db, "Task", "t-full"))?.title).toBe("t-full");
      expect(await updateWhere(db, "Task", { id: "t-full" }, { title: "t-full" })).toBe(1);
      expect(viaPrisma).toHaveBeenCalledTimes(onPostgres ? 0 : 1);
      expect(updatesViaPrisma).toHaveBeenCalledTimes(onPostgres ? 0 : 1);
      expect(directPoolOf(db) !== null).toBe(onPostgres);
      await db.$transaction(async (tx) => {
        expect(directPoolOf(tx)).toBeNull();
        expect((await rowById<{ title: string }>(tx, "Task", "t-full"))?.title).toBe("t-full");
      });
    } finally {
      viaPrisma.mockRestore();
      updatesViaPrisma.mockRestore();
    }
  });

  it.skipIf(!isPostgresUrl(process.env.TEST_DATABASE_URL ?? ""))(
    "a client read only past Prisma's client outlives its idle connection ended by the server (no unhandled \
error from the pool), and reads on",
    async () => {
      const db = createDb({ url: process.env.DATABASE_URL });
      const pool = directPoolOf(db)!;
      try {
        expect((await rowById<{ title: string }>(db, "Task", "t-full"))?.title).toBe("t-full");
        expect(pool.idleCount).toBe(1);
        const { rows } = await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        try {
          await admin.query("SELECT pg_terminate_backend($1)", [rows[0].pid]);
        } finally {
          await admin.end();
        }
        await vi.waitFor(() => expect(pool.totalCount).toBe(0));
        expect((await rowById<{ title: string }>(db, "Task", "t-full"))?.title).toBe("t-full");
      } finally {
        await db.$disconnect();
      }
    },
  );

  it("is what findRun, findTask and findWork read", async () => {
    expect((await findRun({ id: "r-full" }))?.proof).toEqual(
      expect.objectContaining({ text: 'quote " and \\ backslash', n: 1.5 }),
    );
    expect((await findTask({ id: "t-full" }))?.mergedAt).toEqual(new Date("2026-03-04T05:06:07.089Z"));
    expect((await findWork({ id: "w-full" }))?.budgetUsd).toBe(2.75);
    expect(await findRun({ id: "nope" })).toBeNull();
  });

  it("reads only the columns asked for: a Work's name and webhooks, as findSealedWebhooks gives them", async () => {
    const db = getDb();
    const hooks = [{ id: "h1", url: 'https://example.test/h?a=1&b="x"', events: ["run.ended"], secret: "sealed:abc" }];
    await db.work.update({ where: { id: "w-full" }, data: { webhooks: hooks } });
    const [row] = await rowsWhere<Record<string, unknown>>(
      db,
      "Work",
      { id: "w-full" },
      { select: ["name", "webhooks"] },
    );
    expect(row).toEqual({ name: "W-FULL", webhooks: hooks });
    expect(await findSealedWebhooks({ workId: "w-full" })).toEqual(
      await db.work.findUnique({ where: { id: "w-full" }, select: { name: true, webhooks: true } }),
    );
    expect(await findSealedWebhooks({ workId: "w-bare" })).toEqual({ name: "W-BARE", webhooks: [] });
    expect(await findSealedWebhooks({ workId: "no-such-work" })).toBeNull();
    await expect(rowsWhere(db, "Work", { id: "w-full" }, { select: ["name; DROP TABLE"] })).rejects.toThrow(
      "not a column or table name",
    );
  });
});

describe("a run's secrets and assets", () => {
  it("are read as the model query read them: ciphertexts as text, contents the same bytes (NUL too)", async () => {
    const db = getDb();
    const bytes = Uint8Array.from([0, 1, 127, 128, 200, 255, 0, 10]);
    await db.secret.createMany({
      data: [
        { workId: "w-full", name: "API_KEY", ciphertext: "v1:abc==" },
        { workId: "w-full", name: "TOKEN", ciphertext: 'v1:"quoted"' },
      ],
    });
    await db.workAsset.createMany({
      data: [
        { workId: "w-full", name: "fixture.bin", size: bytes.length, content: bytes, sha256: "x" },
        { workId: "w-full", name: "empty.txt", size: 0, content: new Uint8Array(), sha256: "y" },
      ],
    });
    const byName = <T extends { name: string }>(rows: T[]) => [...rows].sort((a, b) => a.name.localeCompare(b.name));
    const secrets = await listSealedSecrets({ workId: "w-full" });
    expect(byName(secrets)).toEqual(
      byName(await db.secret.findMany({ where: { workId: "w-full" }, select: { name: true, ciphertext: true } })),
    );
    const assets = byName(await listAssetContents({ workId: "w-full" }));
    const model = byName(
      await db.workAsset.findMany({ where: { workId: "w-full" }, select: { name: true, content: true } }),
    );
    expect(assets.map((a) => [a.name, [...a.content]])).toEqual(model.map((a) => [a.name, [...a.content]]));
    expect([...assets[1].content]).toEqual([...bytes]);
    expect(assets[1].content).toBeInstanceOf(Uint8Array);
    expect(await listSealedSecrets({ workId: "w-bare" })).toEqual([]);
    expect(await listAssetContents({ workId: "w-bare" })).toEqual([]);
  });
});

// A run's and an attempt's changes written raw (updateRun, updateAttempt) leave the row the model update
// leaves: the same change set through both, on two rows alike, read back by the model query.
describe("updateWhere", () => {
  const when = new Date("2026-05-06T07:08:09.123Z");
  const runChanges: RunChanges = {
    status: "finished",
    gate: "green",
    ending: "accepted",
    endingReason: 'green: "all" \\ passed',
    maxAttempts: 5,
    startCommit: "a".repeat(40),
    spentMs: 1234,
    budgetFromMs: 99,
    bestAttempt: 2,
    bestCommit: "b".repeat(40),
    needsDecision: true,
    decision: "accept",
    decidedById: "u1",
    decidedAt: when,
    decisionReason: null,
    startedAt: when,
    finishedAt: new Date(when.getTime() + 1),
    checkSources: [{ name: "suite", url: "https://example.test/x.git", ref: "main", commit: "c".repeat(40) }],
    sandboxMode: "bwrap",
  };
  const attemptChanges: AttemptChanges = {
    status: "finished",
    gate: "red",
    startedAt: when,
    finishedAt: when,
    commit: "d".repeat(40),
    isDirty: true,
    treeAfter: null,
    noChangeSince: 1,
    brief: "fix it",
    agentVerdict: "failed",
    agentExitCode: 2,
    agentDurationMs: 77,
    agentMessage: "exit 2",
    agentLogTail: "tail",
    agentLogBytes: 5_000_000_000,
    agentLogNote: "cut",
    reportNotes: ["a note", 'with "quotes"'],
  };
  // What differs between two rows made a moment apart whatever wrote them.
  const ownOf = <T extends { id: string; number: number; createdAt: Date; updatedAt: Date }>(row: T | null) => {
    const { id: _id, number: _n, createdAt: _c, updatedAt: _u, ...rest } = row!;
    return rest;
  };

  it("leaves a run and an attempt as the model update does (dates, JSON, booleans, BigInt, null), and moves \
the run's updatedAt", async () => {
    const db = getDb();
    await seedTask({ id: "t-up", workId: "w-bare", number: 2 });
    await seedRun({ id: "r-model", taskId: "t-up", workId: "w-bare", number: 1 });
    await seedRun({ id: "r-raw", taskId: "t-up", workId: "w-bare", number: 2 });
    const { agentLogBytes, ...attemptRest } = attemptChanges;
    await db.run.update({ where: { id: "r-model" }, data: runChanges as object });
    await db.attempt.update({
      where: { id: "r-model-1" },
      data: { ...attemptRest, agentLogBytes: BigInt(agentLogBytes!) },
    });
    const before = (await db.run.findUnique({ where: { id: "r-raw" } }))!.updatedAt;
    await updateRun({ id: "r-raw", changes: runChanges });
    await updateAttempt({ id: "r-raw-1", changes: attemptChanges });
    const [model, raw] = await Promise.all(["r-model", "r-raw"].map((id) => db.run.findUnique({ where: { id } })));
    expect(ownOf(raw)).toEqual(ownOf(model));
    expect(raw!.updatedAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    const [modelAttempt, rawAttempt] = await Promise.all(
      ["r-model-1", "r-raw-1"].map((id) => db.attempt.findUnique({ where: { id } })),
    );
    expect({ ...rawAttempt, id: "", runId: "" }).toEqual({ ...modelAttempt, id: "", runId: "" });
    expect(rawAttempt!.agentLogBytes).toBe(5_000_000_000n);
  });

  it("changes a run only in the statuses given; a run or an attempt that is not there is an error", async () => {
    await seedTask({ id: "t-if", workId: "w-bare", number: 3 });
    await seedRun({ id: "r-if", taskId: "t-if", workId: "w-bare" });
    const gateOf = async () => (await getDb().run.findUnique({ where: { id: "r-if" } }))!.gate;
    expect(await updateRunIfStatus({ id: "r-if", statuses: ["waiting"], changes: { gate: "red" } })).toBe(false);
    expect(await updateRunIfStatus({ id: "r-if", statuses: [], changes: { gate: "red" } })).toBe(false);
    expect(
      await updateRunIfStatus({ id: "r-if", statuses: ["running"], needsDecision: true, changes: { gate: "red" } }),
    ).toBe(false);
    expect(await gateOf()).toBe("running");
    expect(
      await updateRunIfStatus({
        id: "r-if",
        statuses: ["queued", "running"],
        needsDecision: false,
        changes: { gate: "red" },
      }),
    ).toBe(true);
    expect(await gateOf()).toBe("red");
    await expect(updateRun({ id: "no-such-run", changes: { gate: "red" } })).rejects.toThrow("not found");
    await expect(updateAttempt({ id: "no-such-attempt", changes: {} })).rejects.toThrow("not found");
    await expect(
      updateWhere(getDb(), "Run", { id: "r-if" }, { "gate = 'red'; --": 1 }, { json: new Set() }),
    ).rejects.toThrow("not a column or table name");
  });
});

describe("transaction", () => {
  const onPostgres = () => isPostgresUrl(process.env.DATABASE_URL ?? "");
  const titleOf = async (id: string) => (await findTask({ id }))?.title ?? null;

  it("commits what its statements wrote together, each later one seeing the earlier; on PostgreSQL past \
Prisma's client, whose transaction it does not open", async () => {
    const db = getDb();
    const prismaTransaction = vi.spyOn(db, "$transaction");
    try {
      const read = await transaction(db, async (tx) => {
        await insertAuditEvent({ event: audit("test.tx"), db: tx });
        expect(await updateWhere(tx, "Task", { id: "t-bare" }, { title: "renamed in a transaction" })).toBe(1);
        return (await findTask({ id: "t-bare", db: tx }))?.title;
      });
      expect(read).toBe("renamed in a transaction");
      expect(await titleOf("t-bare")).toBe("renamed in a transaction");
      expect(await db.auditEvent.count({ where: { action: "test.tx" } })).toBe(1);
      expect(prismaTransaction).toHaveBeenCalledTimes(onPostgres() ? 0 : 1);
    } finally {
      prismaTransaction.mockRestore();
      await updateWhere(db, "Task", { id: "t-bare" }, { title: "t-bare" });
    }
  });

  it("leaves nothing of a transaction that failed: its first write is undone, and the next one runs", async () => {
    const db = getDb();
    await expect(
      transaction(db, async (tx) => {
        await updateWhere(tx, "Task", { id: "t-bare" }, { title: "half-saved" });
        await insertAuditEvent({ event: audit("test.tx-failed"), db: tx });
        throw new Error("the second step failed");
      }),
    ).rejects.toThrow("the second step failed");
    expect(await titleOf("t-bare")).toBe("t-bare");
    expect(await db.auditEvent.count({ where: { action: "test.tx-failed" } })).toBe(0);
    // A statement the database refuses (a duplicate id) undoes the transaction as well.
    await expect(
      transaction(db, async (tx) => {
        await updateWhere(tx, "Task", { id: "t-bare" }, { title: "half-saved" });
        await seedTaskIn(tx, "t-full");
      }),
    ).rejects.toThrow();
    expect(await titleOf("t-bare")).toBe("t-bare");
    expect(await transaction(db, async (tx) => (await findTask({ id: "t-full", db: tx }))?.title)).toBe("t-full");
    if (onPostgres()) expect(directPoolOf(db)!.totalCount).toBe(directPoolOf(db)!.idleCount);
  });

  it.skipIf(!isPostgresUrl(process.env.TEST_DATABASE_URL ?? ""))(
    "on PostgreSQL a model query inside it fails saying why, and undoes it; a write is counted once it commits, \
not before; another library's statements (transactionSqlOf) are part of it",
    async () => {
      const db = getDb();
      await expect(
        transaction(db, async (tx) => {
          await updateWhere(tx, "Task", { id: "t-bare" }, { title: "half-saved" });
          return tx.task.findMany();
        }),
      ).rejects.toThrow("db.task inside a direct transaction");
      expect(await titleOf("t-bare")).toBe("t-bare");

      const before = writeGeneration();
      let inside = -1;
      await transaction(db, async (tx) => {
        await updateWhere(tx, "Task", { id: "t-bare" }, { title: "t-bare" });
        await transactionSqlOf(tx)!.executeSql(SQL_AUDIT, ["audit-by-sql", "test.tx-sql"]);
        inside = writeGeneration();
      });
      expect(inside).toBe(before);
      expect(writeGeneration()).toBeGreaterThan(before);
      expect(await db.auditEvent.count({ where: { action: "test.tx-sql" } })).toBe(1);

      await expect(
        transaction(db, async (tx) => {
          await transactionSqlOf(tx)!.executeSql(SQL_AUDIT, ["audit-undone", "test.tx-sql-undone"]);
          throw new Error("after the library's statement");
        }),
      ).rejects.toThrow("after the library's statement");
      expect(await db.auditEvent.count({ where: { action: "test.tx-sql-undone" } })).toBe(0);
      expect(transactionSqlOf(db)).toBeNull();
    },
  );

  it.skipIf(!isPostgresUrl(process.env.TEST_DATABASE_URL ?? ""))(
    "on PostgreSQL a transaction whose connection the server ends (a restart, pg_terminate_backend) fails; the \
process does not crash on the connection's 'error' event",
    async () => {
      const db = getDb();
      // The 'error' event of a checked-out pg client with no listener is thrown by the EventEmitter: an uncaught
      // exception, the server process's end. Caught here to see it (vitest would also report it).
      const uncaught: unknown[] = [];
      const onUncaught = (error: unknown) => uncaught.push(error);
      const vitestListeners = process.listeners("uncaughtException");
      process.removeAllListeners("uncaughtException");
      process.on("uncaughtException", onUncaught);
      const killer = new pg.Client({ connectionString: process.env.DATABASE_URL!.replace(/\?.*$/, "") });
      await killer.connect();
      try {
        await expect(
          transaction(db, async (tx) => {
            const sql = transactionSqlOf(tx)!;
            const { rows } = await sql.executeSql("SELECT pg_backend_pid() AS pid");
            await killer.query("SELECT pg_terminate_backend($1)", [(rows[0] as { pid: number }).pid]);
            await new Promise((resolve) => setTimeout(resolve, 300));
            await updateWhere(tx, "Task", { id: "t-bare" }, { title: "after the end" });
          }),
        ).rejects.toThrow();
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        process.off("uncaughtException", onUncaught);
        for (const listener of vitestListeners) process.on("uncaughtException", listener);
        await killer.end();
      }
      expect(uncaught).toEqual([]);
      expect(await titleOf("t-bare")).toBe("t-bare");
    },
  );

  it.skipIf(!isPostgresUrl(process.env.TEST_DATABASE_URL ?? ""))(
    "on PostgreSQL a statement a promise left behind in fn sends after fn settled is refused: it never runs \
outside the transaction (after its ROLLBACK or COMMIT, or on the connection's next borrower)",
    async () => {
      const db = getDb();
      let late: Promise<unknown> = Promise.resolve();
      let kept: ReturnType<typeof transactionSqlOf> = null;
      await expect(
        transaction(db, async (tx) => {
          kept = transactionSqlOf(tx);
          // Two steps: the first is on the wire when fn fails; the second follows it, after fn has failed.
          late = updateWhere(tx, "Task", { id: "t-bare" }, { title: "half-saved" }).then(() =>
            insertAuditEvent({ event: audit("test.tx-left-behind"), db: tx }),
          );
          late.catch(() => undefined);
          throw new Error("the dispatch failed");
        }),
      ).rejects.toThrow("the dispatch failed");
      await late.catch(() => undefined);
      // The transaction was rolled back: neither of its writes may be there.
      expect(await titleOf("t-bare")).toBe("t-bare");
      expect(await db.auditEvent.count({ where: { action: "test.tx-left-behind" } })).toBe(0);
      // What transactionSqlOf gave is no handle on the (released) connection once the transaction is over.
      await expect(kept!.executeSql(SQL_AUDIT, ["audit-after-end", "test.tx-sql-after-end"])).rejects.toThrow();
      expect(await db.auditEvent.count({ where: { action: "test.tx-sql-after-end" } })).toBe(0);
    },
  );

  it("ends a transaction left idle past its timeout (as Prisma's does after 5 s): its writes are undone and a \
later statement in it fails", async () => {
    const db = getDb();
    await expect(
      transaction(
        db,
        async (tx) => {
          await updateWhere(tx, "Task", { id: "t-bare" }, { title: "held too long" });
          // What the transaction waits on elsewhere: idle here for longer than its timeout.
          await new Promise((resolve) => setTimeout(resolve, 600));
          await insertAuditEvent({ event: audit("test.tx-timed-out"), db: tx });
        },
        { timeoutMs: 150 },
      ),
    ).rejects.toThrow();
    expect(await titleOf("t-bare")).toBe("t-bare");
    expect(await db.auditEvent.count({ where: { action: "test.tx-timed-out" } })).toBe(0);
    // The pool is whole: the next transaction runs.
    expect(await transaction(db, async (tx) => (await findTask({ id: "t-bare", db: tx }))?.title)).toBe("t-bare");
  });
});

const audit = (action: string) => ({ actorId: null, actorLabel: "test", via: "ui", action, summary: action });
const SQL_AUDIT =
  `INSERT INTO "AuditEvent" ("id", "actorLabel", "via", "action", "summary") ` +
  "VALUES ($1, 'test', 'ui', $2, 'sent as text')";

// A task row with `id` written inside `tx` (raw, as the transaction's statements must be).
async function seedTaskIn(tx: DbOrTx, id: string): Promise<void> {
  await insertRow(tx, "Task", {
    id,
    workId: "w-bare",
    number: 99,
    key: "W-99",
    title: id,
    branch: id,
    updatedAt: new Date(),
  });
}
