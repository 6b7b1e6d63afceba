// GATEHOUSE_RUN_AS: checks, agents and the platform's git run as this (unprivileged) user, while the
// server stays root. The data dir is arranged so that user reaches only what it needs — the clones,
// worktrees, its HOME and the briefs — and never the database, the secret key or the logs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { RunAs } from "./process/spawner";
import { isSandboxRequested } from "./sandbox/mode";

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

export function resolveRunAs(env: Readonly<Record<string, string | undefined>> = process.env): RunAsUser | null {
  const value = env.GATEHOUSE_RUN_AS?.trim();
  if (!value) return null;
  if (process.getuid?.() !== 0)
    throw new Error("GATEHOUSE_RUN_AS needs the server to run as root: it starts checks as that user");
  const user = fromPasswd(value);
  if (!user) throw new Error(`GATEHOUSE_RUN_AS: no user "${value}" on this machine`);
  if (user.uid === 0) throw new Error("GATEHOUSE_RUN_AS must name an unprivileged user, not root");
  return user;
}

// The user sandboxed commands run as when the server is root and GATEHOUSE_RUN_AS names none.
const SANDBOX_USER = "gatehouse-run";
// Used when no user can be created (no useradd, a read-only /etc): a uid no account on the machine has.
const FALLBACK_UID = 64_999;

// The user commands run as: GATEHOUSE_RUN_AS when set; otherwise, when the server is root and the sandbox
// is on, an unprivileged user of Gatehouse's own (created when missing). Root must not run them: bwrap's
// user namespace would map the sandbox's uid to host root, which owns (and so can read) every root-only
// file it can see; real agent CLIs also refuse their non-interactive modes as root.
export function resolveRunUser(env: Readonly<Record<string, string | undefined>> = process.env): RunAsUser | null {
  const named = resolveRunAs(env);
  if (named || process.getuid?.() !== 0 || !isSandboxRequested(env)) return named;
  return ensureSandboxUser();
}

function ensureSandboxUser(): RunAsUser {
  const existing = fromPasswd(SANDBOX_USER);
  if (existing) return existing;
  try {
    execFileSync(
      "useradd",
      [
        "--system",
        "--user-group",
        "--no-create-home",
        "--home-dir",
        "/nonexistent",
        "--shell",
        "/usr/sbin/nologin",
        SANDBOX_USER,
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
  } catch {
    // Below: the numeric fallback.
  }
  return fromPasswd(SANDBOX_USER) ?? { name: String(FALLBACK_UID), uid: FALLBACK_UID, gid: FALLBACK_UID };
}

const holder = globalThis as unknown as {
  __gatehouseRunAs?: { value: string; user: RunAsUser | null };
};

// The configured user, resolved once per process (and again if the settings change, as in tests).
export function runAsFromEnv(): RunAsUser | null {
  const value = `${process.env.GATEHOUSE_RUN_AS ?? ""}\0${process.env.GATEHOUSE_SANDBOX ?? ""}`;
  const cached = holder.__gatehouseRunAs;
  if (cached && cached.value === value) return cached.user;
  const user = resolveRunUser(process.env);
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
