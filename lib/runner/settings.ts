// Runner settings from the environment (SPEC, Configuration).
import { config } from "../config/config";
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

export function runnerSettingsFromEnv(): RunnerSettings {
  const { dataDir, concurrency, logCapBytes } = config();
  return {
    dataDir,
    concurrency,
    logCapBytes,
    killGraceMs: 2000,
    agentTimeoutMs: 30 * 60 * 1000,
    runAs: resolveRunAs(),
  };
}
