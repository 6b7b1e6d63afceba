// The database client: SQLite in the data dir by default, PostgreSQL when DATABASE_URL says postgres://.
// Both clients are generated from the same models, so they share one shape (typed as the SQLite one).
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { databaseKind, sqliteUrl } from "../config/database-url";

export type Db = SqliteClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
// Functions in lib/db accept either the client or a transaction.
export type DbOrTx = Db | Tx;

export function createDb(options: { url?: string } = {}): Db {
  const url = options.url ?? process.env.DATABASE_URL;
  if (url && /^postgres(ql)?:\/\//i.test(url)) {
    // The driver adapter ignores ?schema= in the URL; it takes the schema as an option.
    const parsed = new URL(url);
    const schema = parsed.searchParams.get("schema") ?? undefined;
    parsed.searchParams.delete("schema");
    const adapter = new PrismaPg({ connectionString: parsed.toString(), max: 10 }, schema ? { schema } : undefined);
    return new PostgresClient({ adapter }) as unknown as Db;
  }
  const fileUrl = url && url.startsWith("file:") ? url : sqliteUrl();
  fs.mkdirSync(path.dirname(fileUrl.slice("file:".length)), { recursive: true });
  const adapter = new PrismaBetterSQLite3({ url: fileUrl, timeout: 10_000 });
  const db = new SqliteClient({ adapter });
  return db;
}

// SQLite runs with WAL so readers (the dashboard) never wait for the runner's writes.
export async function tuneDb(db: Db): Promise<void> {
  if (databaseKind() !== "sqlite") return;
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await db.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
  await db.$queryRawUnsafe("PRAGMA foreign_keys = ON");
}

const holder = globalThis as unknown as { __gatehouseDb?: Db; __gatehouseDbReady?: Promise<void> };

// One client per process (Next bundles route handlers separately; globalThis is what they share).
export function getDb(): Db {
  if (!holder.__gatehouseDb) {
    holder.__gatehouseDb = createDb();
    holder.__gatehouseDbReady = tuneDb(holder.__gatehouseDb);
  }
  return holder.__gatehouseDb;
}

export async function readyDb(): Promise<Db> {
  const db = getDb();
  await holder.__gatehouseDbReady;
  return db;
}

// For tests: replace the process-wide client.
export function setDb(db: Db): void {
  holder.__gatehouseDb = db;
  holder.__gatehouseDbReady = Promise.resolve();
}
