// GATEHOUSE_SANDBOX: whether the runner's commands run in a bubblewrap sandbox. On by default on Linux;
// `off` says so explicitly (and /api/health and every run page then say the agent can reach the platform).
// When it is on but bubblewrap cannot work here (not installed, no user namespaces), the mode is
// "unavailable" and every command is refused with the reason: nothing runs unsandboxed silently.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
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

export function resolveSandboxMode(
  env: Readonly<Record<string, string | undefined>>,
  runAs: RunAs | null,
  platform: NodeJS.Platform = process.platform,
): SandboxMode {
  if (!isSandboxRequested(env)) return { kind: "off" };
  if (platform !== "linux") return unavailable(`the sandbox (bubblewrap) needs Linux; this is ${platform}`);
  const bwrap = BWRAP_PATHS.find((p) => fs.existsSync(p));
  if (!bwrap) return unavailable("bubblewrap is not installed (apt-get install -y bubblewrap)");
  const problem = probe(bwrap, runAs);
  return problem ? unavailable(problem) : { kind: "bwrap", bwrap };
}

function unavailable(why: string): SandboxMode {
  return {
    kind: "unavailable",
    reason: `the sandbox cannot start: ${why}. Fix that, or set GATEHOUSE_SANDBOX=off to run commands without it (the agent can then reach the platform)`,
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
