// Rows by their id (or a few columns) through one raw statement, for the look-ups a run makes on its way
// (its run, task, Work, attempts and results: ten of a trivial run's two dozen statements). A model query
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
