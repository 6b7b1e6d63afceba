// Test helper: a fresh database per test file, with the committed migrations applied.
// SQLite by default (a temp data dir); PostgreSQL when TEST_DATABASE_URL is set (a fresh schema).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { createDb, setDb, type Db } from "../db/client";

const root = path.resolve(__dirname, "..", "..");

function migrationsOf(provider: "sqlite" | "postgres"): string[] {
  const dir = path.join(root, "prisma", provider, "migrations");
  return fs
    .readdirSync(dir)
    .filter((d) => fs.existsSync(path.join(dir, d, "migration.sql")))
    .sort()
    .map((d) => fs.readFileSync(path.join(dir, d, "migration.sql"), "utf8"));
}

export type TestDb = { db: Db; dataDir: string; cleanup: () => Promise<void> };

export async function createTestDb(): Promise<TestDb> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-test-"));
  process.env.GATEHOUSE_DATA_DIR = dataDir;
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) return createPostgresTestDb(pgUrl, dataDir);
  delete process.env.DATABASE_URL;
  const file = path.join(dataDir, "gatehouse.db");
  const raw = new Database(file);
  for (const sql of migrationsOf("sqlite")) raw.exec(sql);
  raw.close();
  const db = createDb({ url: `file:${file}` });
  setDb(db);
  return {
    db,
    dataDir,
    cleanup: async () => {
      await db.$disconnect();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function createPostgresTestDb(baseUrl: string, dataDir: string): Promise<TestDb> {
  const pg = (await import("pg")).default;
  const schema = `t_${path
    .basename(dataDir)
    .replace(/[^a-z0-9]/gi, "")
    .toLowerCase()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.query(`SET search_path TO "${schema}"`);
  for (const sql of migrationsOf("postgres")) await admin.query(sql);
  await admin.end();
  const url = `${baseUrl}${baseUrl.includes("?") ? "&" : "?"}schema=${schema}`;
  process.env.DATABASE_URL = url;
  const db = createDb({ url });
  setDb(db);
  return {
    db,
    dataDir,
    cleanup: async () => {
      await db.$disconnect();
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP SCHEMA "${schema}" CASCADE`);
      await c.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
