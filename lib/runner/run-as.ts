// GATEHOUSE_RUN_AS: checks, agents and the platform's git run as this (unprivileged) user, while the
// server stays root. The data dir is arranged so that user reaches only what it needs — the clones,
// worktrees, its HOME and the briefs — and never the database, the secret key or the logs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { RunAs } from "./process/spawner";
import { config, configFrom, type Env } from "../config/config";

export type RunAsUser = RunAs & { name: string };

function fromPasswd(value: string): RunAsUser | null {
  const lines = fs.existsSync("/etc/passwd") ? fs.readFileSync("/etc/passwd", "utf8").split("\n") : [];
  let entry = lines.map((l) => l.split(":")).find((f) => f[0] === value || f[2] === value);
  if (!entry) {
    try {
      entry = execFileSync("getent", ["passwd", value], { encoding: "utf8" }).trim().split(":");
    } catch {
      return null;
    }
  }
  return entry && entry.length >= 4 ? { name: entry[0], uid: Number(entry[2]), gid: Number(entry[3]) } : null;
}

// `env`: another environment than the server's (tests).
export function resolveRunAs(env?: Env): RunAsUser | null {
  const value = (env ? configFrom(env) : config()).runAs;
  if (!value) return null;
  if (process.getuid?.() !== 0)
    throw new Error("GATEHOUSE_RUN_AS needs the server to run as root: it starts checks as that user");
  const user = fromPasswd(value);
  if (!user) throw new Error(`GATEHOUSE_RUN_AS: no user "${value}" on this machine`);
  if (user.uid === 0) throw new Error("GATEHOUSE_RUN_AS must name an unprivileged user, not root");
  return user;
}

const holder = globalThis as unknown as { __gatehouseRunAs?: { value: string | undefined; user: RunAsUser | null } };

// The configured user, resolved once per process (and again if the setting changes, as in tests).
export function runAsFromEnv(): RunAsUser | null {
  const value = config().runAs ?? undefined;
  const cached = holder.__gatehouseRunAs;
  if (cached && cached.value === value) return cached.user;
  const user = resolveRunAs();
  holder.__gatehouseRunAs = { value, user };
  return user;
}

const USER_DIRS = ["repos", "worktrees", "home", "briefs"];
const PLATFORM_DIRS = ["logs", "tmp"];

function chownTree(dir: string, user: RunAsUser): void {
  const stat = fs.statSync(dir);
  if (stat.uid === user.uid && stat.gid === user.gid) return;
  execFileSync("chown", ["-R", `${user.uid}:${user.gid}`, dir]);
}

// The database and its WAL files, and the secret key: the server's alone (SQLite gives -wal and -shm the
// mode of the database file when it creates them).
const PRIVATE_FILES = ["gatehouse.db", "gatehouse.db-wal", "gatehouse.db-shm", "secret.key"];

export function prepareDataDirFor(dataDir: string, user: RunAsUser | null): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  for (const dir of [...USER_DIRS, ...PLATFORM_DIRS]) fs.mkdirSync(path.join(dataDir, dir), { recursive: true });
  for (const file of PRIVATE_FILES) {
    const p = path.join(dataDir, file);
    if (fs.existsSync(p)) fs.chmodSync(p, 0o600);
  }
  // Without a run-as user nobody else needs to enter the data dir at all.
  if (!user) {
    fs.chmodSync(dataDir, 0o700);
    return;
  }
  // The user may pass through the data dir to its own folders, but list or read nothing else there.
  fs.chmodSync(dataDir, 0o711);
  for (const dir of PLATFORM_DIRS) fs.chmodSync(path.join(dataDir, dir), 0o700);
  for (const dir of USER_DIRS) {
    chownTree(path.join(dataDir, dir), user);
    fs.chmodSync(path.join(dataDir, dir), 0o700);
  }
  // git (2.39) honours safe.directory only in global config: the Work's source repository belongs to
  // another user, and git should read it anyway.
  const gitconfig = path.join(dataDir, "home", ".gitconfig");
  if (!fs.existsSync(gitconfig)) {
    fs.writeFileSync(gitconfig, "[safe]\n\tdirectory = *\n", { mode: 0o600 });
    fs.chownSync(gitconfig, user.uid, user.gid);
  }
}

// Hands a file or folder the platform just made (as root) to the run-as user.
export function giveTo(p: string, user: RunAsUser | null): void {
  if (user) fs.chownSync(p, user.uid, user.gid);
}
