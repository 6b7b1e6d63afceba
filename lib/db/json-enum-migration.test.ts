// The prisma-types migration turns JSON text columns into Json and string columns into enums. Data written
// by the code before it (JSON.stringify'd lists, plain strings) must read back through lib/db unchanged, on
// a real SQLite file and a real PostgreSQL schema: the migrations before it are applied to an empty
// database, rows are inserted as the old lib/db wrote them, then the migration is applied.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { Check } from "../gates/check-schema";
import { createDb, type Db } from "./client";
import { listRecentEndings } from "./inbox";
import { findRole } from "./memberships";
import { listRunsOfTask } from "./run-history";
import { findRun, listAttempts, listResults } from "./runs";
import { findTask, updateTaskAtVersion } from "./tasks";
import { findWork, updateWorkAtVersion } from "./works";
import { migrationsAround, scratchPgSchema } from "../testing/migrations";

const MIGRATION = "prisma-types";
const migrations = (provider: "sqlite" | "postgres") => migrationsAround(provider, MIGRATION);

// ---- the rows, as the code before the migration stored them ----------------------------------------

const checkDefaults: Check[] = [
  {
    id: "unit",
    name: "Unit tests pass",
    kind: "test",
    command: "npm test -- --reporter 'dot'",
    required: true,
    timeoutSec: 900,
    envPassthrough: ["NPM_TOKEN"],
  },
  { id: "lint", name: "Lint", kind: "lint", command: "npm run lint", required: false, timeoutSec: 60 },
];
const acceptanceChecks = [{ id: "lint", disabled: true }];
const frozenChecks = [{ ...checkDefaults[0], source: "inherited" }];
const warnings = ["check “unit” cannot fail: it ends with || true"];
const bigLog = 5_000_000_123; // past 32 bits
const testCounts = { runner: "vitest", passed: 3, failed: 1, skipped: 0, total: 4 };

const lit = (v: string | number | boolean | null) =>
  v === null ? "NULL" : typeof v === "string" ? `'${v.replaceAll("'", "''")}'` : String(v);
const insert = (table: string, row: Record<string, string | number | boolean | null>) =>
  `INSERT INTO "${table}" (${Object.keys(row)
    .map((k) => `"${k}"`)
    .join(", ")}, "updatedAt") VALUES (${Object.values(row).map(lit).join(", ")}, CURRENT_TIMESTAMP);`;
const insertNoUpdatedAt = (table: string, row: Record<string, string | number | boolean | null>) =>
  `INSERT INTO "${table}" (${Object.keys(row)
    .map((k) => `"${k}"`)
    .join(", ")}) VALUES (${Object.values(row).map(lit).join(", ")});`;

const OLD_ROWS = [
  insert("User", { id: "u1", email: "lead@example.com", name: "Lead", passwordHash: "x" }),
  insert("Work", {
    id: "w1",
    name: "Shop",
    repoUrl: "/srv/shop.git",
    keyPrefix: "SHOP",
    checkDefaults: JSON.stringify(checkDefaults),
    checksPolicy: "warn",
    agentEnvPassthrough: JSON.stringify(["FOO_TOKEN"]),
  }),
  // A Work written before any list was set: the column defaults.
  insert("Work", { id: "w2", name: "Empty", repoUrl: "/srv/empty.git", keyPrefix: "EMP" }),
  insert("Membership", { workId: "w1", userId: "u1", role: "lead" }),
  insert("Task", {
    id: "t1",
    workId: "w1",
    number: 1,
    key: "SHOP-1",
    title: "Checkout",
    branch: "shop-1",
    acceptanceChecks: JSON.stringify(acceptanceChecks),
  }),
  insert("Task", { id: "t2", workId: "w1", number: 2, key: "SHOP-2", title: "Inherit", branch: "shop-2" }),
  insert("Run", {
    id: "r1",
    taskId: "t1",
    workId: "w1",
    number: 1,
    status: "finished",
    gate: "red",
    ending: "partial",
    endingReason: "all 2 attempts used with the gate still red",
    policy: "required",
    maxAttempts: 2,
    checks: JSON.stringify(frozenChecks),
    suppressed: JSON.stringify(["lint"]),
    warnings: JSON.stringify(warnings),
    agentEnvPassthrough: JSON.stringify(["FOO_TOKEN"]),
    branch: "shop-1",
    needsDecision: false,
    decision: "more-attempts:1",
  }),
  // A run written without the lists that have defaults.
  insert("Run", {
    id: "r2",
    taskId: "t2",
    workId: "w1",
    number: 1,
    policy: "off",
    maxAttempts: 1,
    checks: "[]",
    branch: "shop-2",
  }),
  insertNoUpdatedAt("Attempt", {
    id: "a1",
    runId: "r1",
    n: 1,
    trigger: "dispatch",
    status: "finished",
    gate: "red",
    agentVerdict: "failed",
    agentExitCode: 1,
    agentLogBytes: bigLog,
  }),
  insertNoUpdatedAt("Attempt", { id: "a2", runId: "r2", n: 1, trigger: "agent-loop" }),
  insertNoUpdatedAt("CheckResult", {
    id: "c1",
    attemptId: "a1",
    runId: "r1",
    position: 0,
    checkId: "unit",
    name: "Unit tests pass",
    kind: "test",
    required: true,
    verdict: "failed",
    exitCode: 1,
    logBytes: bigLog,
    tests: JSON.stringify(testCounts),
    logAttempt: 1,
  }),
  insertNoUpdatedAt("CheckResult", {
    id: "c2",
    attemptId: "a2",
    runId: "r2",
    position: 0,
    checkId: "x",
    name: "x",
    kind: "custom",
    required: true,
    logAttempt: 1,
  }),
  // finishedAt for the inbox's recent endings.
  `UPDATE "Run" SET "finishedAt" = CURRENT_TIMESTAMP WHERE "id" = 'r1';`,
].join("\n");

// A row written after the migration by plain SQL (not Prisma, which fills defaults in itself): the column
// defaults must be JSON too.
const NEW_ROW = insert("Run", {
  id: "r3",
  taskId: "t2",
  workId: "w1",
  number: 2,
  policy: "warn",
  maxAttempts: 1,
  checks: "[]",
  branch: "shop-2",
});

// ---- what lib/db must read back after the migration ------------------------------------------------

async function expectOldRowsReadBack(db: Db) {
  const work = await findWork({ id: "w1", db });
  expect(work).toMatchObject({ checkDefaults, checksPolicy: "warn", agentEnvPassthrough: ["FOO_TOKEN"] });
  expect(await findWork({ id: "w2", db })).toMatchObject({
    checkDefaults: [],
    checksPolicy: "required",
    agentEnvPassthrough: [],
  });
  expect(await findRole({ workId: "w1", userId: "u1", db })).toBe("lead");

  expect((await findTask({ id: "t1", db }))?.acceptanceChecks).toEqual(acceptanceChecks);
  expect((await findTask({ id: "t2", db }))?.acceptanceChecks).toBeNull();

  expect(await findRun({ id: "r1", db })).toMatchObject({
    status: "finished",
    gate: "red",
    ending: "partial",
    policy: "required",
    checks: frozenChecks,
    suppressed: ["lint"],
    warnings,
    agentEnvPassthrough: ["FOO_TOKEN"],
    decision: "more-attempts:1",
  });
  expect(await findRun({ id: "r2", db })).toMatchObject({
    status: "queued",
    gate: "pending",
    ending: null,
    policy: "off",
    checks: [],
    suppressed: [],
    warnings: [],
    agentEnvPassthrough: [],
  });

  expect(await findRun({ id: "r3", db })).toMatchObject({ status: "queued", suppressed: [], warnings: [] });
  expect((await findRun({ id: "r3", db }))?.agentEnvPassthrough).toEqual([]);

  const [attempt] = await listAttempts({ runId: "r1", db });
  expect(attempt).toMatchObject({
    trigger: "dispatch",
    status: "finished",
    gate: "red",
    agentVerdict: "failed",
    agentLogBytes: bigLog,
  });
  expect(await listAttempts({ runId: "r2", db })).toMatchObject([
    { trigger: "agent-loop", status: "queued", gate: "pending", agentVerdict: null },
  ]);
  expect(await listResults({ attemptId: "a1", db })).toMatchObject([
    { checkId: "unit", kind: "test", verdict: "failed", logBytes: bigLog, tests: testCounts, required: true },
  ]);
  expect(await listResults({ attemptId: "a2", db })).toMatchObject([{ kind: "custom", verdict: "queued" }]);

  // Queries that filter on the converted columns find the old rows.
  expect((await listRecentEndings({ workIds: null, ending: "partial", take: 10, db })).map((r) => r.id)).toEqual([
    "r1",
  ]);
  expect(await listRunsOfTask({ taskId: "t1", take: 5, db })).toMatchObject([
    { id: "r1", status: "finished", gate: "red", ending: "partial", attemptCount: 1 },
  ]);

  // And the migrated columns take new values written through lib/db.
  expect(await updateTaskAtVersion({ id: "t1", version: 1, changes: { acceptanceChecks: null }, db })).toMatchObject({
    acceptanceChecks: null,
    version: 2,
  });
  const lint = checkDefaults[1];
  expect(
    await updateWorkAtVersion({
      id: "w1",
      version: 1,
      changes: { checkDefaults: [lint], checksPolicy: "off" },
      db,
    }),
  ).toMatchObject({ checkDefaults: [lint], checksPolicy: "off", agentEnvPassthrough: ["FOO_TOKEN"] });
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe(`the ${MIGRATION} migration keeps data`, () => {
  it("on SQLite", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-migration-"));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "gatehouse.db");
    const { before, mine, after } = migrations("sqlite");
    const raw = new Database(file);
    for (const sql of before) raw.exec(sql);
    raw.exec(OLD_ROWS);
    raw.exec(mine);
    raw.exec(NEW_ROW);
    for (const sql of after) raw.exec(sql);
    expect(raw.pragma("foreign_key_check")).toEqual([]);
    raw.close();

    const db = createDb({ url: `file:${file}` });
    cleanups.push(() => db.$disconnect());
    await expectOldRowsReadBack(db);
  });

  const pgUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(!pgUrl)("on PostgreSQL (skipped without TEST_DATABASE_URL; npm run test:pg sets it)", async () => {
    const url = pgUrl as string;
    const { schema, client: admin, drop } = await scratchPgSchema(url);
    cleanups.push(drop);
    const { before, mine, after } = migrations("postgres");
    for (const sql of before) await admin.query(sql);
    await admin.query(OLD_ROWS);
    await admin.query(mine);
    await admin.query(NEW_ROW);
    for (const sql of after) await admin.query(sql);

    // Changed in place: the columns have their new types and the indexes on them are still there.
    const columns = await admin.query(
      `SELECT table_name, column_name, udt_name FROM information_schema.columns
       WHERE table_schema = $1 AND column_name IN ('checks', 'checkDefaults', 'acceptanceChecks', 'status', 'role', 'verdict')
       ORDER BY table_name, column_name`,
      [schema],
    );
    expect(columns.rows).toEqual([
      { table_name: "Attempt", column_name: "status", udt_name: "AttemptStatus" },
      { table_name: "CheckResult", column_name: "verdict", udt_name: "Verdict" },
      { table_name: "Membership", column_name: "role", udt_name: "Role" },
      { table_name: "Run", column_name: "checks", udt_name: "jsonb" },
      { table_name: "Run", column_name: "status", udt_name: "RunStatus" },
      { table_name: "Task", column_name: "acceptanceChecks", udt_name: "jsonb" },
      { table_name: "Work", column_name: "checkDefaults", udt_name: "jsonb" },
    ]);
    const indexes = await admin.query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'Run'`, [
      schema,
    ]);
    expect(indexes.rows.map((r) => r.indexname)).toEqual(
      expect.arrayContaining(["Run_status_idx", "Run_ending_finishedAt_idx", "Run_status_finishedAt_idx"]),
    );

    const db = createDb({ url: `${url}${url.includes("?") ? "&" : "?"}schema=${schema}` });
    cleanups.push(() => db.$disconnect());
    await expectOldRowsReadBack(db);
  });
});
