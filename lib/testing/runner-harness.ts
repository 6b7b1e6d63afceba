// Test helper for end-to-end runner tests through the services: a fresh database and data dir, the
// process-wide runtime configured on it, and one throwaway git repository + Work + Task per scenario.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SYSTEM_ACTOR } from "../auth/actor";
import { configureRuntime, defaultRunnerDeps } from "../runner/runtime";
import type { RunnerDeps } from "../runner/runner-deps";
import type { LocalExecutor } from "../runner/executor";
import { worktreeDirOf } from "../runner/checkout/checkout";
import { dispatchTask } from "../services/runs";
import { loadRunDetail, type RunDetail } from "../services/run-detail";
import { createTask, type TaskView } from "../services/tasks";
import { createWork } from "../services/works";
import type { WorkRecord } from "../db/works";
import { createTestDb, type TestDb } from "./test-db";
import { makeGitRepo, type TestRepo } from "./git-repo";

export type Harness = {
  t: TestDb;
  dataDir: string;
  executor: LocalExecutor;
  deps: RunnerDeps;
  // A scratch directory outside every checkout (agents and checks write counters and pids here).
  scratch: string;
  // Repositories made by makeScenario, removed by cleanup.
  repos: TestRepo[];
  cleanup: () => Promise<void>;
};

export async function createHarness(overrides: Partial<RunnerDeps> = {}): Promise<Harness> {
  const t = await createTestDb();
  const deps: RunnerDeps = {
    ...defaultRunnerDeps(),
    dataDir: t.dataDir,
    killGraceMs: 300,
    concurrency: 2,
    ...overrides,
  };
  const { executor } = configureRuntime(deps);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-scratch-"));
  const repos: TestRepo[] = [];
  return {
    t,
    dataDir: t.dataDir,
    executor,
    deps,
    scratch,
    repos,
    cleanup: async () => {
      // A run a test left going (the demo's second Work, say) would write to a database that is gone.
      await executor.stopAll();
      for (const r of repos) r.cleanup();
      fs.rmSync(scratch, { recursive: true, force: true });
      await t.cleanup();
    },
  };
}

export type Scenario = { repo: TestRepo; work: WorkRecord; task: TaskView; worktree: string };

// The proof rows (and the profile's layers: lite) are off unless a test asks for them: tests of
// other behaviour see only their checks (lib/runner/proof-rows.test.ts covers the rows).
const PROOF_OFF = { requireTests: "off", vacuousPolicy: "off", protectedPaths: [], profile: "lite" };

// A repository with the given files, a Work on it (settings as the API takes them) and one task.
let scenarios = 0;

export async function makeScenario(
  h: Harness,
  work: Record<string, unknown>,
  // `repo`: an existing repository (a bare remote to merge into, one shared by two Works).
  options: { files?: Record<string, string>; task?: Record<string, unknown>; repo?: TestRepo } = {},
): Promise<Scenario> {
  const repo = options.repo ?? makeGitRepo(options.files);
  if (!h.repos.includes(repo)) h.repos.push(repo);
  const created = await createWork(SYSTEM_ACTOR, {
    // Numbered: Works may not share a name, and one repository may have several.
    name: `Test ${path.basename(repo.dir)} ${++scenarios}`,
    repoUrl: repo.dir,
    baseBranch: "main",
    ...PROOF_OFF,
    ...work,
  });
  const task = await createTask(SYSTEM_ACTOR, created.id, {
    title: "Make it pass",
    description: "Make every check pass.",
    ...options.task,
  });
  return { repo, work: created, task, worktree: worktreeDirOf(h.dataDir, task.id) };
}

export async function settle(h: Harness, runId: string): Promise<RunDetail> {
  await h.executor.whenSettled(runId);
  return loadRunDetail(SYSTEM_ACTOR, runId);
}

export async function dispatchAndSettle(h: Harness, taskId: string): Promise<RunDetail> {
  const run = await dispatchTask(SYSTEM_ACTOR, taskId);
  return settle(h, run.id);
}

// verdict per check id of attempt n (1-based).
export function verdictsOf(detail: RunDetail, n: number): Record<string, string> {
  const attempt = detail.attempts.find((a) => a.n === n);
  if (!attempt)
    throw new Error(`run has no attempt ${n} (it has ${detail.attempts.map((a) => a.n).join(", ") || "none"})`);
  return Object.fromEntries(attempt.results.map((r) => [r.checkId, r.verdict]));
}

// A required check (the API's Check shape) with a short timeout.
export function check(id: string, command: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, name: `${id} passes`, kind: "custom", command, required: true, timeoutSec: 60, ...extra };
}
