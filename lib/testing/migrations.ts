// Test helper for migration tests: a provider's migrations as SQL, split around the one named — those
// before it (applied to an empty database, then the old rows inserted), it, and those after.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

const root = path.resolve(__dirname, "..", "..");

export function migrationsAround(
  provider: "sqlite" | "postgres",
  name: string,
): { before: string[]; mine: string; after: string[] } {
  const dir = path.join(root, "prisma", provider, "migrations");
  const names = fs
    .readdirSync(dir)
    .filter((d) => fs.existsSync(path.join(dir, d, "migration.sql")))
    .sort();
  const at = names.findIndex((d) => d.endsWith(`_${name}`));
  if (at < 0) throw new Error(`no ${name} migration in ${dir}`);
  const read = (d: string) => fs.readFileSync(path.join(dir, d, "migration.sql"), "utf8");
  return { before: names.slice(0, at).map(read), mine: read(names[at]), after: names.slice(at + 1).map(read) };
}

// A fresh PostgreSQL schema on the server at `url`, the search path of a client of its own (migrations and
// rows sent through it land there); `drop` removes the schema and ends the client.
export async function scratchPgSchema(
  url: string,
): Promise<{ schema: string; client: pg.Client; drop: () => Promise<void> }> {
  const schema = `m_${process.pid}_${Date.now()}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query(`SET search_path TO "${schema}"`);
  return {
    schema,
    client,
    drop: async () => {
      await client.query(`DROP SCHEMA "${schema}" CASCADE`);
      await client.end();
    },
  };
}
