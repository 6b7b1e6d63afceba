// The database client: SQLite in the data dir by default, PostgreSQL when DATABASE_URL says postgres://.
// Both clients are generated from the same models, so they share one shape (typed as the SQLite one;
// lib/db/models.ts checks at compile time that their model types are the same).
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { isPostgresUrl, sqliteUrl } from "../config/database-url";
import { config } from "../config/config";

export type Db = SqliteClient;
type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
// Functions in lib/db accept either the client or a transaction.
export type DbOrTx = Db | Tx;

export function createDb(options: { url?: string } = {}): Db {
  const url = options.url ?? config().databaseUrl;
  if (url && isPostgresUrl(url)) {
    // The driver adapter ignores ?schema= in the URL; it takes the schema as an option.
    const { schema, ...connection } = pgConnectionOf(url);
    // The pool is made here and handed to the adapter, so the raw statements of lib/db/by-id.ts can take
    // its connections too (directPoolOf); it ends with the client ($disconnect).
    // Idle connections do not hold the process open (a client only ever read past Prisma is never disconnected).
    const pool = new pg.Pool({ ...connection, max: 10, allowExitOnIdle: true });
    // An idle connection the server ends (a restart, an idle timeout, pg_terminate_backend) is an 'error' event of
    // the pool, which throws in the process with no listener: the adapter listens only once Prisma's client has
    // connected, and a client read only past it (directPoolOf) never does. The pool drops that connection itself.
    pool.on("error", () => undefined);
    const adapter = new PrismaPg(pool, { ...(schema ? { schema } : {}), disposeExternalPool: true });
    const client = countingWrites(new PostgresClient({ adapter }) as unknown as Db);
    pools.set(client, pool);
    return client;
  }
  const fileUrl = url?.startsWith("file:") ? url : sqliteUrl();
  fs.mkdirSync(path.dirname(fileUrl.slice("file:".length)), { recursive: true });
  return countingWrites(
    new SqliteClient({ adapter: tunedSqlite(new PrismaBetterSQLite3({ url: fileUrl, timeout: 10_000 })) }),
  );
}

// The connection pool under each PostgreSQL client of this process.
const pools = new WeakMap<object, pg.Pool>();

// The pool a PostgreSQL client sends its statements through, for a raw statement sent without Prisma's client
// (lib/db/by-id.ts: ~0.3 ms of CPU less a statement, a dozen of them a run). null for SQLite, for a
// transaction's client (its statements must go on its own connection) and for a client disconnected.
export function directPoolOf(db: DbOrTx): pg.Pool | null {
  const pool = pools.get(db);
  return pool && !pool.ending && !pool.ended ? pool : null;
}

// A PostgreSQL URL as `pg` connects with it: its ?schema= (which `pg` does not read) taken out and made the
// connection's search_path, so raw SQL (lib/db/check-stats.ts) names the same tables as the model queries.
export function pgConnectionOf(url: string): { connectionString: string; options?: string; schema?: string } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema") ?? undefined;
  parsed.searchParams.delete("schema");
  return { connectionString: parsed.toString(), ...(schema ? { options: `-c search_path="${schema}"`, schema } : {}) };
}

// Every write through a client of this process counts once it is done: what a presentation cached in
// memory (lib/api/run-json-cache.ts) compares to know nothing changed since it was built. Raw statements
// count too (`$executeRaw`: an attempt's result rows are written that way), and so does a raw query that
// writes (`INSERT … RETURNING`: a dispatched run); other raw queries only read. Writes by other processes
// (workers, other servers) are not counted; the cache bounds their staleness by time.
const READS = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "count",
  "aggregate",
  "groupBy",
  "$queryRaw",
  "$queryRawUnsafe",
]);
const writes = globalThis as unknown as { __gatehouseWrites?: number };

export function writeGeneration(): number {
  return writes.__gatehouseWrites ?? 0;
}

// A raw query (a Prisma.Sql: its text in `strings`) that changes rows: through the client or past it (by-id.ts).
export function writesRaw(args: unknown): boolean {
  const text = (args as { strings?: readonly string[] } | undefined)?.strings?.[0];
  return typeof text === "string" && /^\s*(INSERT|UPDATE|DELETE)\b/i.test(text);
}

// One more write done: the client's own (below), and one sent past it (directPoolOf).
export function noteWrite(): void {
  writes.__gatehouseWrites = writeGeneration() + 1;
}

function countingWrites(client: Db): Db {
  return client.$extends({
    query: {
      async $allOperations({ operation, args, query }) {
        if (READS.has(operation) && !writesRaw(args)) return query(args);
        try {
          return await query(args);
        } finally {
          noteWrite();
        }
      },
    },
  }) as unknown as Db;
}

// SQLite runs with WAL so readers (the dashboard) never wait for the runner's writes. The settings are
// applied as the connection opens, before its first statement: set by a query afterwards, they could
// land inside a transaction that got there first (SQLite refuses that).
const SQLITE_SETTINGS = "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;";

function tunedSqlite(factory: PrismaBetterSQLite3): PrismaBetterSQLite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    await adapter.executeScript(SQLITE_SETTINGS);
    return adapter;
  };
  return factory;
}

const holder = globalThis as unknown as { __gatehouseDb?: Db };

// One client per process (Next bundles route handlers separately; globalThis is what they share).
export function getDb(): Db {
  holder.__gatehouseDb ??= createDb();
  return holder.__gatehouseDb;
}

// Connects now, so that a database that cannot be opened fails at start rather than on first use.
export async function readyDb(): Promise<Db> {
  const db = getDb();
  await db.$connect();
  return db;
}

// Opens up to `n` of the pool's connections now (PostgreSQL: each is a TCP connection and a log-in), so the
// first queries of `n` runs taken at once do not each wait for one.
export async function warmConnections(n: number): Promise<void> {
  const db = getDb();
  await Promise.all(Array.from({ length: n }, () => db.$queryRaw`SELECT 1`));
}

// For tests: replace the process-wide client.
export function setDb(db: Db): void {
  holder.__gatehouseDb = db;
}

// A conditional update of one row by its id (`update` with more filters in its where): true when the row
// matched. Unlike `updateMany`, which Prisma sends as BEGIN, UPDATE, COMMIT, it is one statement — three round
// trips fewer on PostgreSQL for what a run does several times (its claim, its status, the heartbeat).
export async function isUpdated(update: Promise<unknown>): Promise<boolean> {
  try {
    await update;
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === "P2025") return false;
    throw error;
  }
}

// Whether an insert failed on a unique index (another request inserted the same key first): the caller's
// "already there" answer, which it also gives when it looked first and found the row.
export function isUniqueViolation(error: unknown): boolean {
  // P2002 through Prisma's client; 23505 (unique_violation) from a statement sent past it (directPoolOf).
  const code = (error as { code?: unknown } | null)?.code;
  return code === "P2002" || code === "23505";
}
