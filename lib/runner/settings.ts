// Runner settings from the environment (SPEC, Configuration).
import os from "node:os";
import { dataDir } from "../config/database-url";
import { resolveRunAs, type RunAsUser } from "./run-as";

export type RunnerSettings = {
  dataDir: string;
  concurrency: number;
  logCapBytes: number;
  killGraceMs: number;
  agentTimeoutMs: number;
  // Checks, agents and git run as this user (GATEHOUSE_RUN_AS); null: as the server's own user.
  runAs: RunAsUser | null;
};

function positiveNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function runnerSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): RunnerSettings {
  return {
    dataDir: dataDir(),
    concurrency: Math.floor(positiveNumber(env.GATEHOUSE_CONCURRENCY, os.availableParallelism())),
    logCapBytes: Math.floor(positiveNumber(env.GATEHOUSE_LOG_CAP_MB, 32) * 1024 * 1024),
    killGraceMs: 2000,
    agentTimeoutMs: 30 * 60 * 1000,
    runAs: resolveRunAs(env),
  };
}
