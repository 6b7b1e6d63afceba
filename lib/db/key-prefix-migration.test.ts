// The work_key_prefix_unique migration: Works that shared a key prefix before it (a name's first letters,
// "Billing API" and "Billing UI" both BILL) keep the oldest on it and give the others the first free numbered
// one, on a real SQLite file and a real PostgreSQL schema; their tasks keep the keys they had, the Work that
// kept the prefix numbers past them, and the index then refuses a repeat.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsAround, scratchPgSchema } from "../testing/migrations";

// Times as Prisma writes them on SQLite (ISO text).
const work = (id: string, name: string, keyPrefix: string, createdAt: string) =>
  `INSERT INTO "Work" ("id", "name", "repoUrl", "keyPrefix", "createdAt", "updatedAt") ` +
  `VALUES ('${id}', '${name}', '/srv/x.git', '${keyPrefix}', '${createdAt}', '${createdAt}');`;
const task = (id: string, workId: string, number: number, key: string) =>
  `INSERT INTO "Task" ("id", "workId", "number", "key", "title", "branch", "updatedAt") ` +
  `VALUES ('${id}', '${workId}', ${number}, '${key}', 'Old task', 'gatehouse/${key.toLowerCase()}', ` +
  `'2026-03-02T10:00:00.000+00:00');`;
const OLD_ROWS = [
  // Inserted newest first: the order of the rows must not decide who keeps the prefix.
  work("w-ui", "Billing UI", "BILL", "2026-03-01T10:00:00.000+00:00"),
  work("w-tie-b", "Billing tie b", "BILL", "2026-02-01T10:00:00.000+00:00"),
  work("w-tie-a", "Billing tie a", "BILL", "2026-02-01T10:00:00.000+00:00"),
  work("w-api", "Billing API", "BILL", "2026-01-01T10:00:00.000+00:00"),
  // "Web 2" holds WEB2 already: the second "Web" takes the next free one.
  work("w-web", "Web", "WEB", "2026-01-05T10:00:00.000+00:00"),
  work("w-web-again", "Web again", "WEB", "2026-01-06T10:00:00.000+00:00"),
  work("w-web-2", "Web 2", "WEB2", "2026-01-07T10:00:00.000+00:00"),
  task("t-ui", "w-ui", 7, "BILL-7"),
  task("t-api", "w-api", 2, "BILL-2"),
  `UPDATE "Work" SET "nextTaskNumber" = 8 WHERE "id" = 'w-ui';`,
  `UPDATE "Work" SET "nextTaskNumber" = 3 WHERE "id" = 'w-api';`,
].join("\n");

// Each Work's prefix and next task number after the migration: the Work that kept BILL numbers on past the
// BILL-7 a renamed Work's task kept.
const EXPECTED = [
  ["w-api", "BILL", 8],
  ["w-tie-a", "BILL2", 1],
  ["w-tie-b", "BILL3", 1],
  ["w-ui", "BILL4", 8],
  ["w-web", "WEB", 1],
  ["w-web-2", "WEB2", 1],
  ["w-web-again", "WEB3", 1],
];
const SELECT_WORKS = `SELECT "id", "keyPrefix", "nextTaskNumber" FROM "Work" ORDER BY "id"`;

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("the work_key_prefix_unique migration", () => {
  it("numbers the later Works of a shared prefix, on SQLite", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-migration-"));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const raw = new Database(path.join(dir, "gatehouse.db"));
    cleanups.push(async () => void raw.close());
    const { before, mine, after } = migrationsAround("sqlite", "work_key_prefix_unique");
    for (const sql of before) raw.exec(sql);
    raw.exec(OLD_ROWS);
    raw.exec(mine);
    for (const sql of after) raw.exec(sql);
    const rows = raw.prepare(SELECT_WORKS).all() as Record<string, string | number>[];
    expect(rows.map((r) => [r.id, r.keyPrefix, r.nextTaskNumber])).toEqual(EXPECTED);
    expect(raw.prepare(`SELECT "key" FROM "Task" WHERE "id" = 't-ui'`).get()).toEqual({ key: "BILL-7" });
    expect(() => raw.exec(work("w-new", "Billing again", "BILL", "2026-04-01T10:00:00.000+00:00"))).toThrow(/UNIQUE/);
  });

  const pgUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(!pgUrl)("and on PostgreSQL (skipped without TEST_DATABASE_URL; npm run test:pg sets it)", async () => {
    const { client: admin, drop } = await scratchPgSchema(pgUrl as string);
    cleanups.push(drop);
    const { before, mine, after } = migrationsAround("postgres", "work_key_prefix_unique");
    for (const sql of before) await admin.query(sql);
    await admin.query(OLD_ROWS);
    await admin.query(mine);
    for (const sql of after) await admin.query(sql);
    const { rows } = await admin.query(SELECT_WORKS);
    expect(rows.map((r) => [r.id, r.keyPrefix, r.nextTaskNumber])).toEqual(EXPECTED);
    expect((await admin.query(`SELECT "key" FROM "Task" WHERE "id" = 't-ui'`)).rows).toEqual([{ key: "BILL-7" }]);
    await expect(admin.query(work("w-new", "Billing again", "BILL", "2026-04-01T10:00:00.000+00:00"))).rejects.toThrow(
      /unique/i,
    );
  });
});
