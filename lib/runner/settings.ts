// Runner settings from the environment (SPEC, Configuration).
import os from "node:os";
import { dataDir } from "../config/database-url";
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

function positiveNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function runnerSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): RunnerSettings {
  const runAs = resolveRunUser(env);
  return {
    dataDir: dataDir(),
    concurrency: Math.floor(positiveNumber(env.GATEHOUSE_CONCURRENCY, os.availableParallelism())),
    logCapBytes: Math.floor(positiveNumber(env.GATEHOUSE_LOG_CAP_MB, 32) * 1024 * 1024),
    killGraceMs: 2000,
    agentTimeoutMs: 30 * 60 * 1000,
    runAs,
    sandbox: resolveSandboxMode(env, runAs),
  };
}
