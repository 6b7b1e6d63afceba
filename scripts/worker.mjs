// `npm run worker`: a worker that takes runs from the PostgreSQL queue and executes them (on this machine or
// any other with the same install). Needs DATABASE_URL=postgres://… (the server's database) and the
// server's GATEHOUSE_SECRET_KEY (to read the Works' secrets); GATEHOUSE_WORKER_NAME (default the host name),
// GATEHOUSE_CONCURRENCY, GATEHOUSE_DATA_DIR (its own clones, worktrees and logs) as for the server.
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import fs from "node:fs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
process.env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
const say = (message) => console.log(`gatehouse worker: ${message}`);
const fail = (message) => {
  console.error(`gatehouse worker: ${message}`);
  process.exit(2);
};

const url = process.env.DATABASE_URL ?? "";
if (!url)
  fail(
    "DATABASE_URL is not set. A worker takes runs from the server's PostgreSQL queue: start it with " +
      "DATABASE_URL=postgres://… (the server's database). With SQLite (the default) runs execute " +
      "inside the server; no worker is needed.",
  );
if (!/^postgres(ql)?:\/\//i.test(url))
  fail(
    `DATABASE_URL is not PostgreSQL (${url.split(":")[0]}:…). Workers need the server on ` +
      `PostgreSQL; with SQLite runs execute inside the server (npm start), and no worker can join it.`,
  );
process.env.GATEHOUSE_DATA_DIR = path.resolve(process.env.GATEHOUSE_DATA_DIR || "./data");
fs.mkdirSync(process.env.GATEHOUSE_DATA_DIR, { recursive: true, mode: 0o700 });

// The database may not be up yet (or the network to it): wait, with backoff, saying so.
const pg = (await import("pg")).default;
const where = (() => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}`;
})();
for (let delay = 1000; ; delay = Math.min(delay * 2, 30_000)) {
  const probe = new URL(url);
  probe.searchParams.delete("schema");
  const client = new pg.Client({ connectionString: probe.toString(), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    await client.end();
    break;
  } catch (error) {
    await client.end().catch(() => undefined);
    say(`cannot reach PostgreSQL at ${where} (${error.message || error.code}); retrying in ${delay / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

if (!fs.existsSync(path.join(root, "lib", "db", "generated", "postgres", "client.ts")))
  execFileSync(process.execPath, [path.join(root, "scripts", "generate-clients.mjs")], { stdio: "inherit" });
(await import("./build-native.mjs")).buildNative({ quiet: true });

// The runner is TypeScript (the server's is compiled by Next): loaded through tsx, in this process, so that
// signals reach the worker itself. Both of tsx's loaders: require() goes through the CommonJS one, and a
// dynamic import() (runtime.ts imports the merge service when a run is accepted) through Node's ESM loader,
// which without tsx's hooks cannot resolve an extension-less TypeScript path.
const { register } = await import("tsx/cjs/api");
register();
(await import("tsx/esm/api")).register();
const main = createRequire(import.meta.url)(path.join(root, "lib", "runner", "queue", "worker-main.ts"));
await main.runWorkerProcess(url);
