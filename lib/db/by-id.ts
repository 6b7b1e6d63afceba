// Rows by their id (or a few columns) through one raw statement, for the look-ups a run makes on its way
// (its run, task, Work, attempts and results: ten of a trivial run's two dozen statements), and the
// changes it writes to its run and attempts as it goes (updateWhere: six statements of a trivial run). A model query
// plans every call anew in Prisma's query compiler (WebAssembly, on this thread): ~1.2 ms of CPU against
// ~0.3 for the same row read raw (`npm run bench -- queries`). The driver adapters decode a raw row by its
// columns' types, so it comes back as the model query gives it — dates as Date, JSON parsed, booleans,
// BigInt — on SQLite and PostgreSQL alike (lib/db/by-id.test.ts compares the two on rows with every column
// set and with each left null; `npm run test:pg` runs it on PostgreSQL).
import type { DbOrTx } from "./client";
import { Prisma } from "./generated/sqlite/client";

// The tables read this way (names as the schema has them: no @@map).
export type RawTable = "Run" | "Task" | "Work" | "Attempt" | "CheckResult";

const IDENTIFIER = /^[A-Za-z]+$/;
const quoted = (name: string) => {
  if (!IDENTIFIER.test(name)) throw new Error(`not a column or table name: ${name}`);
  return Prisma.raw(`"${name}"`);
};

// The rows whose columns equal `where` (column → value), ordered by one column ascending when asked, without
// the columns in `omit` (as a model query's `omit`), or with only the columns in `select`.
export async function rowsWhere<Row>(
  db: DbOrTx,
  table: RawTable,
  where: Record<string, string | number>,
  opts: { orderBy?: string; omit?: readonly string[]; select?: readonly string[] } = {},
): Promise<Row[]> {
  const conditions = Object.entries(where).map(([column, value]) => Prisma.sql`${quoted(column)} = ${value}`);
  const order = opts.orderBy ? Prisma.sql` ORDER BY ${quoted(opts.orderBy)} ASC` : Prisma.empty;
  const columns = opts.select ? Prisma.join(opts.select.map(quoted), ", ") : Prisma.raw("*");
  const rows = await db.$queryRaw<
    Record<string, unknown>[]
  >`SELECT ${columns} FROM ${quoted(table)} WHERE ${Prisma.join(conditions, " AND ")}${order}`;
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

// Sets `changes` (column → value; undefined leaves a column as it is, as a model update does) on the rows
// matching `where` (column → value, or a list: one of them) through one raw statement; returns how many rows
// changed. The columns in `json` are written as JSON text (the driver adapters store it as the model query
// would; a JSON column is never set to null here, as the model query takes null only as Prisma.DbNull). A
// table with an @updatedAt column names it in `touch`: set to now, as the model query sets it.
export async function updateWhere(
  db: DbOrTx,
  table: RawTable,
  where: Record<string, string | number | boolean | readonly string[]>,
  changes: Record<string, unknown>,
  opts: { json: ReadonlySet<string>; touch?: string },
): Promise<number> {
  // `IN ()` is no SQL: a list of none matches no row.
  if (Object.values(where).some((v) => Array.isArray(v) && v.length === 0)) return 0;
  const sets: Prisma.Sql[] = [];
  for (const [column, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (opts.json.has(column) && value === null)
      throw new Error(`${table}.${column}: a JSON column is not set to null`);
    sets.push(Prisma.sql`${quoted(column)} = ${opts.json.has(column) ? JSON.stringify(value) : value}`);
  }
  if (opts.touch) sets.push(Prisma.sql`${quoted(opts.touch)} = ${new Date()}`);
  // Nothing to set: the rows are still counted, as a model update still finds its row or fails.
  if (sets.length === 0) sets.push(Prisma.sql`"id" = "id"`);
  const conditions = Object.entries(where).map(([column, value]) =>
    Array.isArray(value)
      ? Prisma.sql`${quoted(column)} IN (${Prisma.join(value as string[])})`
      : Prisma.sql`${quoted(column)} = ${value}`,
  );
  const matching = Prisma.join(conditions, " AND ");
  return db.$executeRaw`UPDATE ${quoted(table)} SET ${Prisma.join(sets, ", ")} WHERE ${matching}`;
}
