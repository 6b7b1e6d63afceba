// Prisma CLI config for PostgreSQL (offline: JS engine + driver adapter).
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";
import { TextNameClient } from "./pg-text-name-client";
import { withWholeScripts } from "./whole-script-adapter";

export default defineConfig({
  engine: "js",
  experimental: { adapter: true },
  schema: path.join(__dirname, "postgres"),
  migrations: { path: path.join(__dirname, "postgres", "migrations") },
  adapter: async () =>
    withWholeScripts(
      new PrismaPg({
        connectionString: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
        Client: TextNameClient,
      } as never),
    ),
});
