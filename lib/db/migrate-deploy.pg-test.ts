// `npm start` on PostgreSQL sets its database up with `prisma migrate deploy` (scripts/start.mjs), through the
// pg driver adapter — not as the other tests do, each migration file sent whole by `pg`. The adapter cut
// scripts at every ";", and a fresh database stopped at migration check_days (its functions' bodies); see
// prisma/whole-script-adapter.ts. Here the real command sets up a fresh database, and a second run has
// nothing left to apply.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..");
const base = new URL(process.env.TEST_DATABASE_URL as string);
const database = `gatehouse_deploy_${process.pid}_${Date.now()}`;

async function admin<T>(use: (client: pg.Client) => Promise<T>, db = base.pathname.slice(1)): Promise<T> {
  const url = new URL(base);
  url.pathname = `/${db}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

afterAll(() => admin((c) => c.query(`DROP DATABASE IF EXISTS "${database}"`)));

const deploy = () => {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return execFileSync(
    process.execPath,
    [
      path.join(root, "node_modules", "prisma", "build", "index.js"),
      "migrate",
      "deploy",
      "--config",
      "prisma/postgres.config.ts",
    ],
    { cwd: root, env: { ...process.env, DATABASE_URL: url.toString() }, encoding: "utf8", stdio: "pipe" },
  );
};

it("prisma migrate deploy sets up a fresh PostgreSQL database with every migration, triggers too", async () => {
  await admin((c) => c.query(`CREATE DATABASE "${database}"`));
  expect(deploy()).toMatch(/All migrations have been successfully applied/);
  const migrations = fs
    .readdirSync(path.join(root, "prisma", "postgres", "migrations"))
    .filter((d) => fs.existsSync(path.join(root, "prisma", "postgres", "migrations", d, "migration.sql")));
  const applied = await admin(
    (c) => c.query(`SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL ORDER BY 1`),
    database,
  );
  expect(applied.rows.map((r) => r.migration_name)).toEqual(migrations.sort());
  // check_days's triggers (their bodies are what the adapter cut apart) are there.
  const triggers = await admin(
    (c) => c.query(`SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`),
    database,
  );
  expect(triggers.rows.length).toBeGreaterThan(0);
  expect(deploy()).toMatch(/No pending migrations to apply/);
}, 120_000);
