// The server's configuration (README, Configuration), parsed from the environment in this one module: pages,
// services and the runner ask `config()`; nothing else reads process.env. Parsed again only when one of the
// variables it reads changed since (tests point GATEHOUSE_DATA_DIR and DATABASE_URL at a database of their own).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type Env = Readonly<Record<string, string | undefined>>;

export type Config = {
  port: number;
  // The embedded database, logs, clones and worktrees.
  dataDir: string;
  // postgres://… puts the data in PostgreSQL; unset (null) or file:…, SQLite.
  databaseUrl: string | null;
  concurrency: number;
  logCapBytes: number;
  // On an empty database, create the demo Work.
  isDemo: boolean;
  adminEmail: string | null;
  adminPassword: string | null;
  bootstrapToken: string | null;
  secretKey: string | null;
  // Where people reach the server (webhook messages link to runs there); default http://localhost:<port>.
  publicUrl: string;
  // A proxy in front sets X-Forwarded-For and X-Forwarded-Host.
  isProxyTrusted: boolean;
  // A user name or uid (lib/runner/run-as.ts resolves it); null: as the server's own user.
  runAs: string | null;
  // PostgreSQL: whether `npm start` runs a worker of its own (GATEHOUSE_WORKERS=0: no).
  hasLocalWorker: boolean;
  workerName: string;
  workerLostMs: number;
  // How often an idle worker asks the queue for runs when no wake-up (LISTEN/NOTIFY) reaches it.
  workerPollMs: number;
  // How many of the Works run in the last week a starting worker readies the clones of (0: none).
  workerWarmWorks: number;
  // The server's PATH, for the programs Gatehouse itself starts (git, the spawner's helper).
  hostPath: string | null;
  // GATEHOUSE_SANDBOX as given ("on", "off"; unset: on) — lib/runner/sandbox/mode.ts judges it.
  sandbox: string | null;
};

const NAMES = [
  "PORT",
  "GATEHOUSE_DATA_DIR",
  "DATABASE_URL",
  "GATEHOUSE_CONCURRENCY",
  "GATEHOUSE_LOG_CAP_MB",
  "GATEHOUSE_DEMO",
  "GATEHOUSE_ADMIN_EMAIL",
  "GATEHOUSE_ADMIN_PASSWORD",
  "GATEHOUSE_BOOTSTRAP_TOKEN",
  "GATEHOUSE_SECRET_KEY",
  "GATEHOUSE_TRUST_PROXY",
  "GATEHOUSE_PUBLIC_URL",
  "GATEHOUSE_RUN_AS",
  "GATEHOUSE_WORKERS",
  "GATEHOUSE_WORKER_NAME",
  "GATEHOUSE_WORKER_LOST_SEC",
  "GATEHOUSE_WORKER_POLL_MS",
  "GATEHOUSE_WORKER_WARM",
  "GATEHOUSE_SANDBOX",
  "PATH",
] as const;

function positiveNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

function count(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isInteger(n) && n >= 0 ? n : fallback;
}

export const DEFAULT_WORKER_WARM_WORKS = 8;

const orNull = (value: string | undefined) => (value ? value : null);

// The data dir where it really is (the admin's link to another disk resolved once): the runner follows no link
// on the way to a checkout that sits in a folder another user could change (lib/runner/checkout/checkout-files.ts).
function realPathOf(dir: string): string {
  try {
    return fs.realpathSync(/* turbopackIgnore: true */ dir);
  } catch {
    return dir;
  }
}

export function configFrom(env: Env): Config {
  const port = Math.floor(positiveNumber(env.PORT, 3000));
  return {
    port,
    dataDir: realPathOf(path.resolve(/* turbopackIgnore: true */ env.GATEHOUSE_DATA_DIR || "./data")),
    databaseUrl: orNull(env.DATABASE_URL),
    concurrency: Math.floor(positiveNumber(env.GATEHOUSE_CONCURRENCY, os.availableParallelism())),
    logCapBytes: Math.floor(positiveNumber(env.GATEHOUSE_LOG_CAP_MB, 32) * 1024 * 1024),
    isDemo: env.GATEHOUSE_DEMO !== "0",
    adminEmail: orNull(env.GATEHOUSE_ADMIN_EMAIL),
    adminPassword: orNull(env.GATEHOUSE_ADMIN_PASSWORD),
    bootstrapToken: orNull(env.GATEHOUSE_BOOTSTRAP_TOKEN),
    secretKey: orNull(env.GATEHOUSE_SECRET_KEY),
    publicUrl: (env.GATEHOUSE_PUBLIC_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, ""),
    isProxyTrusted: env.GATEHOUSE_TRUST_PROXY === "1",
    runAs: orNull(env.GATEHOUSE_RUN_AS?.trim()),
    hasLocalWorker: env.GATEHOUSE_WORKERS !== "0",
    workerName: env.GATEHOUSE_WORKER_NAME?.trim() || os.hostname(),
    workerLostMs: positiveNumber(env.GATEHOUSE_WORKER_LOST_SEC, 30) * 1000,
    workerPollMs: positiveNumber(env.GATEHOUSE_WORKER_POLL_MS, 500),
    workerWarmWorks: count(env.GATEHOUSE_WORKER_WARM, DEFAULT_WORKER_WARM_WORKS),
    hostPath: env.PATH ?? null,
    sandbox: orNull(env.GATEHOUSE_SANDBOX),
  };
}

const holder = globalThis as unknown as { __gatehouseConfig?: { key: string; config: Config } };

export function config(): Config {
  const key = JSON.stringify(NAMES.map((name) => process.env[name] ?? null));
  if (holder.__gatehouseConfig?.key !== key) holder.__gatehouseConfig = { key, config: configFrom(process.env) };
  return holder.__gatehouseConfig.config;
}

// The server's environment as it is, for what a Work may grant by name (a check's envPassthrough, git's
// own variables): those names are the Work's choice, so they cannot be listed here.
export function serverEnv(): Env {
  return process.env;
}
