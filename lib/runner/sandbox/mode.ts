// GATEHOUSE_SANDBOX: whether the runner's commands run in a bubblewrap sandbox. On by default on Linux;
// `off` says so explicitly (and /api/health and every run page then say the agent can reach the platform).
// When it is on but bubblewrap cannot work here (not installed, no user namespaces), the mode is
// "unavailable" and every command is refused with the reason: nothing runs unsandboxed silently.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { RunAs } from "../process/spawner";

export type SandboxMode = { kind: "bwrap"; bwrap: string } | { kind: "off" } | { kind: "unavailable"; reason: string };

const BWRAP_PATHS = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];
const probes = new Map<string, string | null>();

// Whether the sandbox is asked for (it is unless GATEHOUSE_SANDBOX=off); a value other than on/off is refused.
export function isSandboxRequested(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env.GATEHOUSE_SANDBOX?.trim().toLowerCase();
  if (value === undefined || value === "" || value === "on") return true;
  if (value === "off") return false;
  throw new Error(`GATEHOUSE_SANDBOX must be "on" or "off" (got "${env.GATEHOUSE_SANDBOX}")`);
}

// `dataDir`: the sandbox binds each command's checkout, HOME and files from there, as the run user (bwrap
// runs unprivileged), so that user must be able to pass through every folder above it.
export function resolveSandboxMode(
  env: Readonly<Record<string, string | undefined>>,
  runAs: RunAs | null,
  platform: NodeJS.Platform = process.platform,
  dataDir: string | null = null,
): SandboxMode {
  if (!isSandboxRequested(env)) return { kind: "off" };
  if (platform !== "linux") return unavailable(`the sandbox (bubblewrap) needs Linux; this is ${platform}`);
  const bwrap = BWRAP_PATHS.find((p) => fs.existsSync(p));
  if (!bwrap) return unavailable("bubblewrap is not installed (apt-get install -y bubblewrap)");
  const blocked = runAs && dataDir ? closedFolderAbove(dataDir, runAs) : null;
  if (blocked)
    return unavailable(
      `the user commands run as (uid ${runAs!.uid}) cannot pass through ${blocked} to the data dir ${dataDir} ` +
        "(put GATEHOUSE_DATA_DIR in a folder it can reach, such as /var/lib/gatehouse, or chmod o+x that folder)",
    );
  const problem = probe(bwrap, runAs);
  return problem ? unavailable(problem) : { kind: "bwrap", bwrap };
}

// The first folder above `dir` (the data dir itself is arranged by run-as.ts) that `user` may not enter:
// search permission for others, or for its own uid or gid. null: every one can be passed.
export function closedFolderAbove(dir: string, user: RunAs): string | null {
  const folders: string[] = [];
  for (let p = path.dirname(path.resolve(dir)); ; p = path.dirname(p)) {
    folders.unshift(p);
    if (p === path.dirname(p)) break;
  }
  for (const folder of folders) {
    const stat = fs.statSync(folder, { throwIfNoEntry: false });
    if (!stat) return null;
    const mode = stat.mode;
    const canPass =
      stat.uid === user.uid
        ? (mode & 0o100) !== 0
        : stat.gid === user.gid
          ? (mode & 0o010) !== 0
          : (mode & 0o001) !== 0;
    if (!canPass) return folder;
  }
  return null;
}

function unavailable(why: string): SandboxMode {
  return {
    kind: "unavailable",
    reason:
      `the sandbox cannot start: ${why}. Fix that, or set GATEHOUSE_SANDBOX=off to run commands ` +
      `without it (the agent can then reach the platform)`,
  };
}

// Tries the sandbox once per process, as the user the commands will run as: user namespaces may be off
// (kernel.unprivileged_userns_clone, user.max_user_namespaces, a container's seccomp profile).
function probe(bwrap: string, runAs: RunAs | null): string | null {
  const key = `${bwrap}:${runAs?.uid ?? "self"}`;
  if (probes.has(key)) return probes.get(key)!;
  let problem: string | null = null;
  try {
    execFileSync(
      bwrap,
      ["--unshare-user", "--unshare-pid", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true"],
      { stdio: ["ignore", "ignore", "pipe"], timeout: 10_000, ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}) },
    );
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "").trim();
    problem = `bubblewrap fails here (${stderr || (error as Error).message}); user namespaces may be disabled`;
  }
  probes.set(key, problem);
  return problem;
}

// One line for the server's and a worker's start-up log.
export function describeSandboxMode(mode: SandboxMode, runAs: { name: string } | null): string {
  if (mode.kind === "bwrap") return `sandbox: bubblewrap, commands run as ${runAs ? runAs.name : "the server's user"}`;
  if (mode.kind === "off")
    return "sandbox: OFF (GATEHOUSE_SANDBOX=off) — agents and checks can reach this platform's data and the machine";
  return `sandbox: UNAVAILABLE — ${mode.reason}; every run's commands are refused`;
}
