// Prisma CLI config for the embedded SQLite database (offline: JS engine + driver adapter).
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { sqliteUrl } from "../lib/config/database-url";

export default defineConfig({
  engine: "js",
  experimental: { adapter: true },
  schema: path.join(__dirname, "sqlite"),
  migrations: { path: path.join(__dirname, "sqlite", "migrations") },
  adapter: async () => new PrismaBetterSQLite3({ url: sqliteUrl() }),
});
