// Runner settings from the environment (SPEC, Configuration).
import { config } from "../config/config";
import { resolveRunUser, type RunAsUser } from "./run-as";
import { resolveSandboxMode, type SandboxMode } from "./sandbox/mode";

export type RunnerSettings = {
  dataDir: string;
  concurrency: number;
  logCapBytes: number;
  killGraceMs: number;
  agentTimeoutMs: number;
  // Checks, agents and git run as this user (GATEHOUSE_RUN_AS, or the sandbox's own user when the server is
  // root); null: as the server's own user.
  runAs: RunAsUser | null;
  // Whether (and how) the runner's commands are sandboxed (GATEHOUSE_SANDBOX).
  sandbox: SandboxMode;
};

export function runnerSettingsFromEnv(): RunnerSettings {
  const { dataDir, concurrency, logCapBytes, sandbox } = config();
  const runAs = resolveRunUser();
  return {
    dataDir,
    concurrency,
    logCapBytes,
    killGraceMs: 2000,
    agentTimeoutMs: 30 * 60 * 1000,
    runAs,
    sandbox: resolveSandboxMode({ GATEHOUSE_SANDBOX: sandbox ?? undefined }, runAs, process.platform, dataDir),
  };
}
