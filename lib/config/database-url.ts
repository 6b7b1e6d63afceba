// Where the data lives: the data dir (embedded SQLite, logs, worktrees) and the database URL switch.
import path from "node:path";
import { config } from "./config";

export function dataDir(): string {
  return config().dataDir;
}

export function sqliteUrl(): string {
  const url = config().databaseUrl;
  if (url?.startsWith("file:")) return url;
  return `file:${path.join(dataDir(), "gatehouse.db")}`;
}

export function isPostgresUrl(url: string | null | undefined): boolean {
  return !!url && /^postgres(ql)?:\/\//i.test(url);
}
