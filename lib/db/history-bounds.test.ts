// Pages that do not grow with history: a Work page's newest run per task found by index lookups, attempts
// counted for the listed runs only, and the check history computed over its last days and the Work's newest
// runs only. Rows seeded straight into the database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../testing/test-db";
import { aggregateCheckStats, listRecentTestCases } from "./check-stats";
import { getDb } from "./client";
import { listRecentEndings } from "./inbox";
import { countAttemptsOfRuns, latestRunsOfTasks, listRunsOfTask } from "./run-history";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  const db = getDb();
  await db.work.create({ data: { id: "w", name: "W", repoUrl: "/nowhere", keyPrefix: "W" } });
  for (const id of ["a", "b", "c"])
    await db.task.create({
      data: { id, workId: "w", number: id.charCodeAt(0), key: `W-${id}`, title: id, branch: id },
    });
  // Task a: runs 1..6; task b: run 3 only; task c: none. Run k was created k minutes after the first.
  const runs = [...[1, 2, 3, 4, 5, 6].map((n) => ({ task: "a", n })), { task: "b", n: 3 }];
  for (const [i, r] of runs.entries()) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, i));
    const id = `${r.task}${r.n}`;
    await db.run.create({
      data: {
        id,
        taskId: r.task,
        workId: "w",
        number: r.n,
        status: "finished",
        gate: "green",
        policy: "required",
        maxAttempts: 1,
        checks: [],
        branch: r.task,
        createdAt: at,
      },
    });
    await db.attempt.create({ data: { id: `${id}-1`, runId: id, n: 1, trigger: "dispatch", status: "finished" } });
    await db.checkResult.create({
      data: {
        attemptId: `${id}-1`,
        runId: id,
        position: 0,
        checkId: "unit",
        name: "Unit",
        kind: "test",
        required: true,
        // The oldest three runs of task a failed; every later run passed.
        verdict: r.task === "a" && r.n <= 3 ? "failed" : "passed",
        durationMs: 100 * (i + 1),
        logAttempt: 1,
        testCases: [{ suite: "s", name: `t${i}`, status: "passed" }],
      },
    });
  }
});
afterAll(async () => t.cleanup());

describe("a Work page's newest run per task", () => {
  it("is each task's highest run number, and nothing for a task without runs", async () => {
    const latest = await latestRunsOfTasks({ taskIds: ["a", "b", "c"] });
    expect([...latest.keys()].sort()).toEqual(["a", "b"]);
    expect(latest.get("a")).toMatchObject({ id: "a6", number: 6, attemptCount: 1 });
    expect(latest.get("b")).toMatchObject({ id: "b3", number: 3 });
    expect((await latestRunsOfTasks({ taskIds: ["c"] })).size).toBe(0);
  });
});

describe("the check history's days and newest runs", () => {
  // The seeded runs were all created on 2026-01-01.
  const jan = (day: number) => new Date(Date.UTC(2026, 0, day, 12));

  it("counts the results of the last 30 days; durations and the strip come from the Work's newest runs", async () => {
    const all = await aggregateCheckStats({ workId: "w", now: jan(2) });
    expect(all).toMatchObject([{ checkId: "unit", name: "Unit", runs: 7, passed: 4 }]);
    // The newest four runs by creation: b3, a6, a5, a4 — all passed; the counts still cover every day.
    const recent = await aggregateCheckStats({ workId: "w", windowRuns: 4, now: jan(2) });
    expect(recent).toMatchObject([{ checkId: "unit", runs: 7, passed: 4 }]);
    expect(recent[0].last.map((c) => c.runId)).toEqual(["b3", "a6", "a5", "a4"]);
    expect(recent[0].medianMs).toBe(500);
    const cases = await listRecentTestCases({ workId: "w", perCheck: 20, windowRuns: 2 });
    expect(cases.get("unit")?.map((c) => c[0].name)).toEqual(["t6", "t5"]);
  });

  it("leaves out the days before the last 30: 2026-01-01 is the 30th day on the 30th, gone on the 31st", async () => {
    expect(await aggregateCheckStats({ workId: "w", now: jan(30) })).toMatchObject([{ checkId: "unit", runs: 7 }]);
    expect(await aggregateCheckStats({ workId: "w", now: jan(31) })).toEqual([]);
  });
});

describe("attempts counted for the listed runs", () => {
  it("gives each run of a page its own number of attempts, and none to a run without any", async () => {
    await getDb().attempt.create({
      data: { id: "b3-2", runId: "b3", n: 2, trigger: "agent-loop", status: "finished" },
    });
    await getDb().run.create({
      data: {
        id: "a7",
        taskId: "a",
        workId: "w",
        number: 7,
        status: "finished",
        gate: "red",
        policy: "required",
        maxAttempts: 1,
        checks: [],
        branch: "a",
        finishedAt: new Date(Date.UTC(2026, 0, 2)),
      },
    });
    const counts = await countAttemptsOfRuns({ runIds: ["a6", "b3", "a7", "a6"] });
    expect(Object.fromEntries(counts)).toEqual({ a6: 1, b3: 2 });
    expect((await latestRunsOfTasks({ taskIds: ["a", "b"] })).get("b")?.attemptCount).toBe(2);
    expect((await listRunsOfTask({ taskId: "a", take: 2 })).map((r) => [r.id, r.attemptCount])).toEqual([
      ["a7", 0],
      ["a6", 1],
    ]);
    const endings = await listRecentEndings({ workIds: ["w"], take: 50 });
    expect(endings.find((r) => r.id === "b3")?.attemptCount).toBe(2);
    expect(endings.find((r) => r.id === "a7")?.attemptCount).toBe(0);
  });
});
