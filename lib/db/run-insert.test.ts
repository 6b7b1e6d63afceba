// A dispatched run, its first attempt and the audit entry are written by raw statements (by-id.ts insertRow):
// the rows must be the ones the model's nested create wrote — every column, its type and the table's
// defaults — with the frozen settings of a bare Work and of one with every setting given. Runs on SQLite
// here and on PostgreSQL in `npm run test:pg`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, writeGeneration } from "./client";
import { insertAuditEvent, type AuditInsert } from "./audit";
import { findNewestRunOfTask, findRun, insertRunWithFirstAttempt, listAttempts, type RunInsert } from "./runs";
import { findWork, frozenSettingsOf } from "./works";
import { AWKWARD_JSON, seedTask, seedWork, seedWorkWithEverySetting } from "../testing/seeded-rows";
import { createTestDb, type TestDb } from "../testing/test-db";
import type { PushedAttempt } from "../gates/pushed-attempt";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  await seedWork("w-bare");
  await seedWorkWithEverySetting("w-full");
  for (const [n, workId] of ["w-bare", "w-bare", "w-full", "w-full"].entries())
    await seedTask({ id: `t-${n}`, workId, number: n + 1 });
});
afterAll(() => t.cleanup());

// What dispatchTask gives insertRunWithFirstAttempt for a task of the Work.
async function insertOf(workId: string, taskId: string, full: boolean): Promise<RunInsert> {
  const work = (await findWork({ id: workId }))!;
  return {
    taskId,
    workId,
    ...frozenSettingsOf(work),
    maxAttempts: 3,
    checks: full ? [{ id: "unit", name: "Unit", kind: "test", command: "npm test", required: true }] : [],
    suppressed: full ? ["lint"] : [],
    warnings: full ? ["a stale suppression"] : [],
    agentCommand: full ? "claude" : null,
    budgetSec: full ? 30 : null,
    budgetUsd: full ? 1e-3 : null,
    branch: "gatehouse/the-task",
    dispatchedById: full ? "u1" : null,
    ...(full ? { lane: { id: "delivery", stages: [] } as never, stage: "plan" } : {}),
    ...(full ? { proof: AWKWARD_JSON as never, sandbox: { mounts: [] } as never } : {}),
  } as RunInsert;
}

// The run as the model's nested create wrote it before (the reference).
async function modelInsert(data: RunInsert, pushed?: PushedAttempt): Promise<string> {
  const { proof, sandbox, lane, ...rest } = data;
  const row = await getDb().run.create({
    data: {
      ...rest,
      ...(proof ? { proof } : {}),
      ...(sandbox ? { sandbox } : {}),
      ...(lane ? { lane } : {}),
      number: 1,
      attempts: {
        create: pushed
          ? { n: 1, trigger: "push", startedById: rest.dispatchedById, pushed }
          : { n: 1, trigger: "dispatch", startedById: rest.dispatchedById },
      },
    },
    select: { id: true },
  });
  return row.id;
}

// A run and its attempts without what differs by nature between two inserts (ids, times, the task).
async function comparable(runId: string) {
  const { id, createdAt, taskId, ...run } = (await findRun({ id: runId }))!;
  const attempts = (await listAttempts({ runId })).map(({ id: _, runId: __, ...a }) => a);
  return { id, createdAt, taskId, run, attempts };
}

describe("insertRunWithFirstAttempt", () => {
  for (const [label, workId, full] of [
    ["a bare Work's", "w-bare", false],
    ["a Work with every setting's", "w-full", true],
  ] as const) {
    it(`writes ${label} run and its first attempt as the model's nested create did`, async () => {
      const [refTask, rawTask] = full ? ["t-2", "t-3"] : ["t-0", "t-1"];
      const pushed = full ? { commit: "f".repeat(40), report: null } : undefined;
      const reference = await comparable(await modelInsert(await insertOf(workId, refTask, full), pushed));
      const before = writeGeneration();
      const returned = await getDb().$transaction((tx) =>
        insertOf(workId, rawTask, full).then((data) => insertRunWithFirstAttempt({ data, pushed, db: tx })),
      );
      expect(writeGeneration()).toBeGreaterThan(before);
      const raw = await comparable(returned.id);
      expect(raw.run).toEqual(reference.run);
      expect(raw.attempts).toEqual(reference.attempts);
      expect(raw.attempts.map((a) => [a.n, a.trigger, a.status])).toEqual([
        [1, pushed ? "push" : "dispatch", "queued"],
      ]);
      // What it returns is the row as stored.
      expect(returned).toEqual(await findRun({ id: returned.id }));
      expect(raw.id).toMatch(/^c[0-9a-z]{24}$/);
      expect(raw.taskId).toBe(rawTask);
      expect(Math.abs(raw.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    });
  }

  it("numbers a task's runs one after the other, and the newest is the highest number", async () => {
    const data = await insertOf("w-bare", "t-1", false);
    const second = await insertRunWithFirstAttempt({ data });
    const third = await insertRunWithFirstAttempt({ data });
    expect([second.number, third.number]).toEqual([2, 3]);
    expect((await findNewestRunOfTask({ taskId: "t-1" }))?.id).toBe(third.id);
    expect(await findNewestRunOfTask({ taskId: "no-such-task" })).toBeNull();
    // The pair (task, number) is unique: a second run numbered 3 is refused, and nothing is half-written.
    const runs = await getDb().run.count();
    await expect(insertRunWithFirstAttempt({ data, newestNumber: 2 })).rejects.toThrow();
    expect(await getDb().run.count()).toBe(runs);
  });
});

describe("insertAuditEvent", () => {
  it("writes the entry the model create wrote", async () => {
    const event: AuditInsert = {
      actorId: null,
      actorLabel: "Gatehouse",
      via: "system",
      action: "run.dispatch",
      workId: "w-bare",
      taskId: "t-0",
      runId: null,
      summary: 'dispatched W-1 (run #1) with "quotes"',
      before: { a: 1 },
      after: ["x"],
    };
    const { before, after, ...rest } = event;
    await getDb().auditEvent.create({
      data: { ...rest, action: "reference", before: JSON.stringify(before), after: JSON.stringify(after) },
    });
    await insertAuditEvent({ event });
    const rows = await getDb().auditEvent.findMany({ where: { action: { in: ["reference", "run.dispatch"] } } });
    const [reference, raw] = ["reference", "run.dispatch"].map((action) => {
      const { id: _, at, action: __, ...row } = rows.find((r) => r.action === action)!;
      return { at, row };
    });
    expect(raw.row).toEqual(reference.row);
    expect(raw.at).toBeInstanceOf(Date);
    const bare = { ...event, before: undefined, after: undefined, workId: undefined, taskId: undefined };
    await insertAuditEvent({ event: { ...bare, action: "bare" } });
    const row = await getDb().auditEvent.findFirstOrThrow({ where: { action: "bare" } });
    expect([row.before, row.after, row.workId, row.taskId, row.runId]).toEqual([null, null, null, null, null]);
  });
});
