// The process-wide runner: one executor per server process (kept on globalThis because Next bundles
// route handlers, Server Actions and instrumentation separately).
import { makeSecretMasker } from "./output/secret-masker";
import { loadWorkSecrets } from "./work-secrets";
import { advanceRun } from "./execute-run";
import { LocalExecutor, type RunExecutor } from "./executor";
import type { RunnerDeps } from "./runner-deps";
import { runnerSettingsFromEnv } from "./settings";
import { findRun, updateRun } from "../db/runs";
import { runningCommands } from "./process/process-group";
import { prepareDataDirFor } from "./run-as";
import { serverEnv } from "../config/config";
import { notifyRunEvent } from "./webhook-sender";

// `executor` is what the services use; `local` is this process's own runner when runs execute here.
type Runtime = { executor: RunExecutor; local: LocalExecutor | null; deps: RunnerDeps };
const holder = globalThis as unknown as { __gatehouseRuntime?: Runtime };

export function defaultRunnerDeps(): RunnerDeps {
  return {
    ...runnerSettingsFromEnv(),
    serverEnv: serverEnv(),
    loadSecrets: loadWorkSecrets,
    makeMasker: makeSecretMasker,
    // Imported when first needed: the services import the runtime (for the executor).
    // A stage accepted moves its task on (and may dispatch the next stage); the task done may be merged.
    afterAccepted: async (run) => {
      await (await loadStageService()).advanceAfterStageRun(run);
      await (await loadMergeService()).autoMergeAfterRun(run);
    },
  };
}

const loadMergeService = () => import("../services/merge");
const loadStageService = () => import("../services/stages");

// The modules a runner loads lazily, loaded now: a worker calls this at start, so a module its loader cannot
// resolve stops it at once instead of failing the first accepted run's auto-merge.
export async function loadLazyModules(): Promise<void> {
  await loadMergeService();
  await loadStageService();
}

// A run that fails for an unexpected reason (a bug, the database gone) ends inconclusive, not "running" forever.
export async function advanceSafely(runId: string, signal: AbortSignal, deps: RunnerDeps): Promise<void> {
  try {
    await advanceRun(runId, signal, deps);
  } catch (error) {
    console.error(`gatehouse: run ${runId} stopped by an internal error`, error);
    const run = await findRun({ id: runId }).catch(() => null);
    if (run && run.status !== "finished") {
      await updateRun({
        id: runId,
        changes: {
          status: "finished",
          ending: "inconclusive",
          endingReason: `internal error: ${(error as Error).message}`,
          finishedAt: new Date(),
        },
      }).then(
        () => notifyRunEvent(run, "run.ended"),
        () => undefined,
      );
    }
  }
}

export function configureRuntime(deps: RunnerDeps): { executor: LocalExecutor; deps: RunnerDeps } {
  prepareDataDirFor(deps.dataDir, deps.runAs);
  const executor = new LocalExecutor(deps.concurrency, (runId, signal) => advanceSafely(runId, signal, deps));
  holder.__gatehouseRuntime = { executor, local: executor, deps };
  return { executor, deps };
}

// Runs execute elsewhere (workers taking them from a queue): the services use this executor instead.
export function setExecutor(executor: RunExecutor, deps: RunnerDeps): void {
  holder.__gatehouseRuntime = { executor, local: null, deps };
}

function getRuntime(): Runtime {
  if (!holder.__gatehouseRuntime) configureRuntime(defaultRunnerDeps());
  return holder.__gatehouseRuntime!;
}

// Drops the process-wide runtime without stopping anything: the next use configures one from the environment
// as it is then. For the test files of one vitest worker, which share their modules (lib/testing/per-file.setup.ts).
export function forgetRuntime(): void {
  delete holder.__gatehouseRuntime;
}

// The sandbox this process's runs execute under (what /api/health reports).
export function currentSandbox(): RunnerDeps["sandbox"] {
  return getRuntime().deps.sandbox;
}

export function getExecutor(): RunExecutor {
  return getRuntime().executor;
}

// Called on SIGTERM/SIGINT: no process outlives the server; runs left "running" are recorded as
// interrupted at the next start.
export function killAllRunningProcesses(): void {
  holder.__gatehouseRuntime?.local?.killEverything(runningCommands);
}
