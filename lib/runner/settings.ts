// Runner settings from the environment (SPEC, Configuration).
import os from "node:os";
import { dataDir } from "../config/database-url";

export type RunnerSettings = {
  dataDir: string;
  concurrency: number;
  logCapBytes: number;
  killGraceMs: number;
  agentTimeoutMs: number;
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
  };
}
