// Where the data lives: the data dir (embedded SQLite, logs, worktrees) and the database URL switch.
import path from "node:path";

export function dataDir(): string {
  return path.resolve(/* turbopackIgnore: true */ process.env.GATEHOUSE_DATA_DIR || "./data");
}

export function sqliteUrl(): string {
  const url = process.env.DATABASE_URL;
  if (url?.startsWith("file:")) return url;
  return `file:${path.join(dataDir(), "gatehouse.db")}`;
}

export function isPostgresUrl(url: string | undefined): boolean {
  return !!url && /^postgres(ql)?:\/\//i.test(url);
}
