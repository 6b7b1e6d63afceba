// Where the data lives: the data dir (embedded SQLite, logs, worktrees) and the database URL switch.
import path from "node:path";

export function dataDir(): string {
  return path.resolve(/* turbopackIgnore: true */ process.env.GATEHOUSE_DATA_DIR || "./data");
}

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//i.test(url);
}

// DATABASE_URL=postgres://… selects PostgreSQL; anything else means SQLite in the data dir.
export function databaseKind(): "postgres" | "sqlite" {
  return isPostgresUrl(process.env.DATABASE_URL) ? "postgres" : "sqlite";
}

export function sqliteUrl(): string {
  const url = process.env.DATABASE_URL;
  if (url?.startsWith("file:")) return url;
  return `file:${path.join(dataDir(), "gatehouse.db")}`;
}
