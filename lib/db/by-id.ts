// One row by its id through one raw statement, for the look-ups a run makes on its way (its run, task and
// Work: seven of a trivial run's two dozen statements). A model query plans every call anew in Prisma's query compiler (WebAssembly,
// on this thread): ~1.2 ms of CPU against ~0.3 for the same row read raw (`npm run bench -- queries`). The
// driver adapters decode a raw row by its columns' types, so it comes back as the model query gives it —
// dates as Date, JSON parsed, booleans, BigInt — on SQLite and PostgreSQL alike (lib/db/by-id.test.ts and
// its PostgreSQL twin compare the two on rows with every column set).
import type { DbOrTx } from "./client";
import { Prisma } from "./generated/sqlite/client";

// The tables read this way (names as the schema has them: no @@map).
export type ByIdTable = "Run" | "Task" | "Work";

const SELECT_BY_ID = {
  Run: Prisma.sql`SELECT * FROM "Run" WHERE "id" = `,
  Task: Prisma.sql`SELECT * FROM "Task" WHERE "id" = `,
  Work: Prisma.sql`SELECT * FROM "Work" WHERE "id" = `,
} satisfies Record<ByIdTable, Prisma.Sql>;

// The row with `id` without the columns in `omit` (as a model query's `omit`), or null.
export async function rowById<Row>(
  db: DbOrTx,
  table: ByIdTable,
  id: string,
  omit: readonly string[] = [],
): Promise<Row | null> {
  const rows = await db.$queryRaw<Record<string, unknown>[]>`${SELECT_BY_ID[table]}${id}`;
  const row = rows[0];
  if (!row) return null;
  for (const column of omit) delete row[column];
  return row as Row;
}
