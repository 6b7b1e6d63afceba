// The day counts on PostgreSQL under concurrent writers: two runs of one Work rewrite their results at the
// same time (the runner's delete-and-insert), each finishing its checks in another order. Their counts
// share rows, so without an order between writers they would deadlock (40P01) and one write would be lost.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRun, seedTask, seedWork } from "../testing/seeded-rows";
import { createTestDb, type TestDb } from "../testing/test-db";
import { getDb } from "./client";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  await seedWork();
  for (const [id, number] of [
    ["a", 1],
    ["b", 2],
  ] as const) {
    await seedTask({ id, number });
    await seedRun({ id: `r${id}`, taskId: id });
  }
});
afterAll(async () => t.cleanup());

const rowsSql = (attempt: string, run: string, unit: string, lint: string) =>
  `INSERT INTO "CheckResult" ("id", "attemptId", "runId", "position", "checkId", "name", "kind", "required",
     "verdict", "logAttempt") VALUES
   ('${attempt}-unit-' || md5(random()::text), '${attempt}', '${run}', 0, 'unit', 'Unit', 'test', true, '${unit}', 1),
   ('${attempt}-lint-' || md5(random()::text), '${attempt}', '${run}', 1, 'lint', 'Lint', 'lint', true, '${lint}', 1)`;

describe("the day counts on PostgreSQL", () => {
  it("two runs of one Work rewriting their results at once both land, counted once each", async () => {
    const url = process.env.DATABASE_URL!;
    const schema = new URL(url).searchParams.get("schema")!;
    const connect = async () => {
      const c = new pg.Client({ connectionString: url.replace(/[?&]schema=[^&]*/, "") });
      await c.connect();
      await c.query(`SET search_path TO "${schema}"`);
      return c;
    };
    const [one, two] = [await connect(), await connect()];
    try {
      // As stored: run a's unit has passed and its lint runs; run b the other way round.
      await one.query(rowsSql("ra-1", "ra", "passed", "running"));
      await two.query(rowsSql("rb-1", "rb", "running", "passed"));
      // Each rewrites its rows with both checks passed: delete (takes out what counted), then insert.
      await one.query("BEGIN");
      await one.query(`DELETE FROM "CheckResult" WHERE "attemptId" = 'ra-1'`);
      await two.query("BEGIN");
      const twoDeleted = two.query(`DELETE FROM "CheckResult" WHERE "attemptId" = 'rb-1'`);
      // Without an order between the writers this would wait for two's lock on lint while two waits for
      // one's on unit: PostgreSQL would end one of them.
      await one.query(rowsSql("ra-1", "ra", "passed", "passed"));
      await one.query("COMMIT");
      await twoDeleted;
      await two.query(rowsSql("rb-1", "rb", "passed", "passed"));
      await two.query("COMMIT");
    } finally {
      await one.end();
      await two.end();
    }
    const days = await getDb().checkDay.findMany({ where: { workId: "w" }, orderBy: { checkId: "asc" } });
    expect(days.map(({ checkId, runs, passed }) => ({ checkId, runs, passed }))).toEqual([
      { checkId: "lint", runs: 2, passed: 2 },
      { checkId: "unit", runs: 2, passed: 2 },
    ]);
  });
});
