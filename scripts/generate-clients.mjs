// Generates both Prisma clients (SQLite and PostgreSQL) offline; run by `npm install`.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
for (const provider of ["sqlite", "postgres"]) {
  execFileSync(process.execPath, [prisma, "generate", "--config", `prisma/${provider}.config.ts`], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", NEXT_TELEMETRY_DISABLED: "1" },
  });
}
console.log("gatehouse: generated the Prisma clients for SQLite and PostgreSQL");
