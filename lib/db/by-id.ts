// Rows by their id (or a few columns) through one raw statement, for the look-ups a run makes on its way
// (its run, task, Work, attempts and results: ten of a trivial run's two dozen statements), and the
// changes it writes to its run and attempts as it goes (updateWhere: six statements of a trivial run). A model query
// plans every call anew in Prisma's query compiler (WebAssembly, on this thread): ~1.2 ms of CPU against
// ~0.3 for the same row read raw (`npm run bench -- queries`). The driver adapters decode a raw row by its
// columns' types, so it comes back as the model query gives it — dates as Date, JSON parsed, booleans,
// BigInt — on SQLite and PostgreSQL alike (lib/db/by-id.test.ts compares the two on rows with every column
// set and with each left null; `npm run test:pg` runs it on PostgreSQL).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { directPoolOf, noteWrite, writesRaw, type Db, type DbOrTx } from "./client";
import { Prisma } from "./generated/sqlite/client";

// A row id shaped as Prisma's cuid() gives (25 characters, "c" first, time-ordered), for rows written raw:
// the time in base 36, a counter of this process, and 64 random bits.
let rowCounter = 0;
export function newRowId(): string {
  const time = Date.now().toString(36).padStart(8, "0");
  const count = (rowCounter++ % 36 ** 4).toString(36).padStart(4, "0");
  const random = randomBytes(8).readBigUInt64BE().toString(36).padStart(13, "0").slice(-12);
  return `c${time}${count}${random}`;
}

// On PostgreSQL a statement outside a transaction goes to the client's pool without Prisma's client (a raw
// statement there still costs ~0.4 ms of CPU to the ~0.1 of `pg` itself: `npm run bench -- queries`), its
// values and columns converted as Prisma's PostgreSQL adapter converts them: a Date written as UTC (the
// columns are `timestamp` without a time zone) and read back so; BigInt columns as BigInt, bytes as a
// Uint8Array. by-id.test.ts compares what both paths read and write with the model queries (test:pg).
const TIMESTAMP = 1114;
const INT8 = 20;
const BYTEA = 17;
const columnTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === TIMESTAMP) return (text: string) => new Date(`${text.replace(" ", "T")}Z`);
    if (oid === INT8) return (text: string) => BigInt(text);
    if (oid === BYTEA) {
      const bytes = pg.types.getTypeParser(BYTEA, "text") as (text: string) => Buffer;
      return (text: string) => new Uint8Array(bytes(text));
    }
    return pg.types.getTypeParser(oid, format as "text");
  }) as pg.CustomTypesConfig["getTypeParser"],
};
const paramOf = (value: unknown) =>
  value instanceof Date ? value.toISOString().replace("T", " ").slice(0, -1) : value;

// A connection of the pool in a transaction (see transaction below), and whether a statement in it wrote: the
// write is counted once the transaction commits, so a reader never caches what it read before the commit as new.
// `ended` once fn has settled: a statement a promise fn left behind sends after that would run after the COMMIT or
// ROLLBACK (outside the transaction, or on the connection's next borrower), so it is refused.
type OpenTransaction = { client: pg.PoolClient; wrote: boolean; ended: boolean };
const openTransactions = new WeakMap<object, OpenTransaction>();

// A statement on an open transaction's connection (by-id's own, or another library's: transactionSqlOf).
async function sendInTransaction(open: OpenTransaction, query: pg.QueryConfig, isWrite: boolean) {
  if (open.ended) throw new Error("a statement on a direct transaction (lib/db/by-id.ts transaction) after it ended");
  const result = await open.client.query(query);
  if (isWrite) open.wrote = true;
  return result;
}

async function sendDirect(to: pg.Pool | OpenTransaction, sql: Prisma.Sql) {
  const isWrite = writesRaw(sql);
  const query = { text: sql.text, values: sql.values.map(paramOf), types: columnTypes };
  if (!(to instanceof pg.Pool)) return sendInTransaction(to, query, isWrite);
  try {
    return await to.query(query);
  } finally {
    if (isWrite) noteWrite();
  }
}

const directOf = (db: DbOrTx) => openTransactions.get(db) ?? directPoolOf(db);

// The rows a statement gives (SELECT, or INSERT … RETURNING).
async function queryRows(db: DbOrTx, sql: Prisma.Sql): Promise<Record<string, unknown>[]> {
  const direct = directOf(db);
  return direct ? (await sendDirect(direct, sql)).rows : db.$queryRaw<Record<string, unknown>[]>(sql);
}

// How many rows a statement changed.
async function execute(db: DbOrTx, sql: Prisma.Sql): Promise<number> {
  const direct = directOf(db);
  return direct ? ((await sendDirect(direct, sql)).rowCount ?? 0) : db.$executeRaw(sql);
}

// Statements given as text and values (another library's, such as pg-boss's job insert), on the transaction's
// own connection: null when `tx` is not a transaction of the transaction below on PostgreSQL.
export type TransactionSql = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };
export function transactionSqlOf(tx: DbOrTx): TransactionSql | null {
  const open = openTransactions.get(tx);
  if (!open) return null;
  return {
    executeSql: async (text, values) => ({
      rows: (await sendInTransaction(open, { text, values }, writesRaw({ strings: [text] }))).rows,
    }),
  };
}

// Runs `fn` in one transaction. On PostgreSQL on one of the pool's connections, past Prisma's client: an
// interactive transaction of Prisma's cost ~1.5 ms more CPU than the same six statements sent by `pg` (a
// dispatch: ~4.6 ms of CPU, `npm run bench -- queries`). `fn` must then reach the database only through this
// module (rowsWhere, insertRow, updateWhere) or transactionSqlOf: what it is given is no Prisma client, and a
// model query on it fails with an error saying so. On SQLite, Prisma's own transaction.
export async function transaction<T>(
  db: Db,
  fn: (tx: DbOrTx) => Promise<T>,
  opts: { timeoutMs?: number } = {},
): Promise<T> {
  // As long as Prisma's interactive transaction is given by default: a statement waiting longer (on a lock) is
  // cancelled, and a transaction left idle longer (fn awaiting something else) is ended by the server.
  const timeoutMs = Math.max(1, Math.round(opts.timeoutMs ?? 5000));
  const pool = directPoolOf(db);
  if (!pool) return db.$transaction((tx) => fn(tx), { timeout: timeoutMs });
  const client = await pool.connect();
  // A checked-out client has no 'error' listener (the pool removes its own): the server ending the connection
  // (a restart, pg_terminate_backend) would otherwise be an uncaught exception. The statements fail instead.
  const onError = () => undefined;
  client.on("error", onError);
  const open: OpenTransaction = { client, wrote: false, ended: false };
  const tx = new Proxy(
    {},
    {
      get(_, property) {
        // Not a thenable, nor anything a debugger or a log asks for.
        if (typeof property === "symbol" || property === "then" || property === "toJSON") return undefined;
        throw new Error(
          `db.${property} inside a direct transaction (lib/db/by-id.ts transaction): only its raw statements reach ` +
            "the database here",
        );
      },
      has: () => false,
    },
  ) as DbOrTx;
  openTransactions.set(tx, open);
  let broken: Error | undefined;
  try {
    await client.query(
      `BEGIN; SET LOCAL statement_timeout = ${timeoutMs}; SET LOCAL idle_in_transaction_session_timeout = ${timeoutMs}`,
    );
    const result = await fn(tx).finally(() => {
      open.ended = true;
    });
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackFailed: Error) => {
      broken = rollbackFailed;
    });
    throw error;
  } finally {
    open.ended = true;
    openTransactions.delete(tx);
    client.removeListener("error", onError);
    // A connection whose rollback failed is not given back to the pool (its state is unknown): it is closed.
    client.release(broken);
    if (open.wrote) noteWrite();
  }
}

// The tables read this way (names as the schema has them: no @@map).
export type RawTable =
  | "Run"
  | "Task"
  | "Work"
  | "Attempt"
  | "CheckResult"
  | "AuditEvent"
  | "Secret"
  | "WorkAsset"
  | "Membership";

const IDENTIFIER = /^[A-Za-z]+$/;
const quoted = (name: string) => {
  if (!IDENTIFIER.test(name)) throw new Error(`not a column or table name: ${name}`);
  return Prisma.raw(`"${name}"`);
};

// Which rows: column → the value it equals, a list of values (one of them) or null (the column is null).
type Where = Record<string, string | number | boolean | null | readonly string[]>;

// `IN ()` is no SQL: a list of none matches no row.
const matchesNothing = (where: Where) => Object.values(where).some((v) => Array.isArray(v) && v.length === 0);

function conditionsOf(where: Where): Prisma.Sql[] {
  return Object.entries(where).map(([column, value]) =>
    value === null
      ? Prisma.sql`${quoted(column)} IS NULL`
      : Array.isArray(value)
        ? Prisma.sql`${quoted(column)} IN (${Prisma.join(value as string[])})`
        : Prisma.sql`${quoted(column)} = ${value}`,
  );
}

// The rows `where` matches (see Where), ordered by one column (ascending unless `descending`)
// when asked, at most `limit` of them, without the columns in `omit` (as a model query's `omit`), or with only
// the columns in `select`.
export async function rowsWhere<Row>(
  db: DbOrTx,
  table: RawTable,
  where: Where,
  opts: {
    orderBy?: string;
    descending?: boolean;
    limit?: number;
    omit?: readonly string[];
    select?: readonly string[];
  } = {},
): Promise<Row[]> {
  if (matchesNothing(where)) return [];
  const conditions = conditionsOf(where);
  const direction = Prisma.raw(opts.descending ? "DESC" : "ASC");
  const order = opts.orderBy ? Prisma.sql` ORDER BY ${quoted(opts.orderBy)} ${direction}` : Prisma.empty;
  const limit = opts.limit === undefined ? Prisma.empty : Prisma.sql` LIMIT ${opts.limit}`;
  const columns = opts.select ? Prisma.join(opts.select.map(quoted), ", ") : Prisma.raw("*");
  const rows = await queryRows(
    db,
    Prisma.sql`SELECT ${columns} FROM ${quoted(table)} WHERE ${Prisma.join(conditions, " AND ")}${order}${limit}`,
  );
  for (const row of rows) for (const column of opts.omit ?? []) delete row[column];
  return rows as Row[];
}

// The row with `id` (without the columns in `omit`), or null.
export async function rowById<Row>(
  db: DbOrTx,
  table: RawTable,
  id: string,
  omit: readonly string[] = [],
): Promise<Row | null> {
  return (await rowsWhere<Row>(db, table, { id }, { omit }))[0] ?? null;
}

// The columns given a value (undefined: left alone) and the value each is written with: the columns in `json`
// as JSON text (the driver adapters store it as the model query would). A JSON column is never set to null
// here: the model query takes null there only as Prisma.DbNull.
function columnValues(
  table: RawTable,
  values: Record<string, unknown>,
  json: ReadonlySet<string> = new Set(),
): [Prisma.Sql, unknown][] {
  const out: [Prisma.Sql, unknown][] = [];
  for (const [column, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (json.has(column) && value === null) throw new Error(`${table}.${column}: a JSON column is not set to null`);
    out.push([quoted(column), json.has(column) ? JSON.stringify(value) : value]);
  }
  return out;
}

// Inserts one row (column → value; an undefined column is left to the table's default, as a model create leaves
// it) through one raw statement and gives it back as stored (RETURNING: the defaults filled in, decoded as
// above), without the columns in `omit`; the columns in `json` as columnValues writes them. Ids and
// @updatedAt columns have no default in the table (Prisma gives them): the caller sets them.
export async function insertRow<Row>(
  db: DbOrTx,
  table: RawTable,
  values: Record<string, unknown>,
  opts: { json?: ReadonlySet<string>; omit?: readonly string[] } = {},
): Promise<Row> {
  const given = columnValues(table, values, opts.json);
  const columns = Prisma.join(
    given.map(([column]) => column),
    ", ",
  );
  const valuesSql = Prisma.join(given.map(([, value]) => value));
  const [row] = await queryRows(
    db,
    Prisma.sql`INSERT INTO ${quoted(table)} (${columns}) VALUES (${valuesSql}) RETURNING *`,
  );
  for (const column of opts.omit ?? []) delete row[column];
  return row as Row;
}

// Sets `changes` (column → value; undefined leaves a column as it is, as a model update does) on the rows
// `where` matches (see Where) through one raw statement; returns how many rows changed. The columns in `json`
// as columnValues writes them. A table with an @updatedAt column names it in `touch`: set to now, as the model
// query sets it.
export async function updateWhere(
  db: DbOrTx,
  table: RawTable,
  where: Where,
  changes: Record<string, unknown>,
  opts: { json?: ReadonlySet<string>; touch?: string } = {},
): Promise<number> {
  if (matchesNothing(where)) return 0;
  const sets = columnValues(table, changes, opts.json).map(([column, value]) => Prisma.sql`${column} = ${value}`);
  if (opts.touch) sets.push(Prisma.sql`${quoted(opts.touch)} = ${new Date()}`);
  // Nothing to set: the rows are still counted, as a model update still finds its row or fails.
  if (sets.length === 0) sets.push(Prisma.sql`"id" = "id"`);
  const matching = Prisma.join(conditionsOf(where), " AND ");
  return execute(db, Prisma.sql`UPDATE ${quoted(table)} SET ${Prisma.join(sets, ", ")} WHERE ${matching}`);
}
