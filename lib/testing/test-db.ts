// Test helper: a fresh database per test file, with the committed migrations applied.
// SQLite by default (a temp data dir); PostgreSQL when TEST_DATABASE_URL is set (a fresh schema).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { createDb, setDb, type Db } from "../db/client";
import { scratchDir } from "./scratch";
import { closeFifoPoolsUnder } from "../runner/process/fifo-pool";

const root = path.resolve(__dirname, "..", "..");

function migrationsOf(provider: "sqlite" | "postgres"): string[] {
  const dir = path.join(root, "prisma", provider, "migrations");
  return fs
    .readdirSync(dir)
    .filter((d) => fs.existsSync(path.join(dir, d, "migration.sql")))
    .sort()
    .map((d) => fs.readFileSync(path.join(dir, d, "migration.sql"), "utf8"));
}

// The committed migrations applied once per test process into a template file that each test database
// copies (applying them takes ~150 ms a database here, a copy ~1 ms), in the run's scratch folder.
let sqliteTemplate: string | undefined;
function migratedSqliteTemplate(): string {
  if (sqliteTemplate) return sqliteTemplate;
  const dir = scratchDir("gatehouse-test-template-");
  const file = path.join(dir, "migrated.db");
  const raw = new Database(file);
  for (const sql of migrationsOf("sqlite")) raw.exec(sql);
  raw.close();
  sqliteTemplate = file;
  return file;
}

export type TestDb = {
  db: Db;
  dataDir: string;
  // Whether the text is stored anywhere in the database: in SQLite's files (database, WAL), in
  // PostgreSQL any row of any table of the test's schema, as text or as bytes.
  holds: (text: string) => Promise<boolean>;
  cleanup: () => Promise<void>;
};

// After the batches of output pipes being made in it are made (a refill still writing FIFOs into tmp/pipes
// made the removal fail with ENOTEMPTY).
async function removeDataDir(dataDir: string): Promise<void> {
  await closeFifoPoolsUnder(dataDir);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// `parentDir`: where the data dir is made (default the system's temporary folder).
export async function createTestDb(opts: { parentDir?: string } = {}): Promise<TestDb> {
  const parent = opts.parentDir ?? os.tmpdir();
  fs.mkdirSync(parent, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(parent, "gatehouse-test-"));
  process.env.GATEHOUSE_DATA_DIR = dataDir;
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) return createPostgresTestDb(pgUrl, dataDir);
  delete process.env.DATABASE_URL;
  const file = path.join(dataDir, "gatehouse.db");
  fs.copyFileSync(migratedSqliteTemplate(), file);
  const db = createDb({ url: `file:${file}` });
  setDb(db);
  const files = () => fs.readdirSync(dataDir).filter((f) => f.startsWith("gatehouse.db"));
  return {
    db,
    dataDir,
    holds: async (text) => files().some((f) => fs.readFileSync(path.join(dataDir, f)).includes(Buffer.from(text))),
    cleanup: async () => {
      await db.$disconnect();
      await removeDataDir(dataDir);
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
    holds: async (text) => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        const tables = await c.query<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1",
          [schema],
        );
        const hex = Buffer.from(text).toString("hex");
        for (const { name } of tables.rows) {
          // A row's text form shows text columns as written and bytea columns as \x<hex>.
          const found = await c.query(
            `SELECT 1 FROM "${schema}"."${name}" t WHERE strpos(t::text, $1) > 0 OR strpos(t::text, $2) > 0 LIMIT 1`,
            [text, hex],
          );
          if (found.rowCount) return true;
        }
        return false;
      } finally {
        await c.end();
      }
    },
    cleanup: async () => {
      await db.$disconnect();
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP SCHEMA "${schema}" CASCADE`);
      await c.end();
      await removeDataDir(dataDir);
    },
  };
}
