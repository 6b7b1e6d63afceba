// Test helper: a Work, its tasks and runs written straight into the database, for tests of what the data
// layer does with rows (counts, history, shipped logs) without dispatching anything.
import { getDb } from "../db/client";
import { createTestDb, type TestDb } from "./test-db";

export async function seedWork(id = "w"): Promise<void> {
  await getDb().work.create({ data: { id, name: id.toUpperCase(), repoUrl: "/nowhere", keyPrefix: id.toUpperCase() } });
}

// JSON with the shapes a column must keep: nesting, null, quotes, a backslash, a fraction.
export const AWKWARD_JSON = { list: [1, "two", null, { deep: true }], text: 'quote " and \\ backslash', n: 1.5 };

// A Work with every setting given (each of its nullable columns set), for tests that compare what raw
// statements read and write with what the model query does.
export async function seedWorkWithEverySetting(id: string): Promise<void> {
  await seedWork(id);
  await getDb().work.update({
    where: { id },
    data: {
      baseBranch: "main",
      agentCommand: "claude -p",
      budgetSec: 600,
      budgetUsd: 2.75,
      testPatterns: ["test/**"],
      protectedPaths: ["ci/**"],
      mergePolicy: AWKWARD_JSON,
      resultsDir: "reports",
      reviewCommand: "review",
      mutationCommand: "stryker run",
      mutationReport: "reports/mutation.json",
      redTeamCommand: "red",
      redTeamTestCommand: "red test",
      failFast: true,
      autoAdvance: true,
      checkDefaults: [{ id: "unit", name: "Unit", kind: "test", command: "npm test", required: true }],
    },
  });
}

export async function seedTask(opts: { id: string; workId?: string; number: number }): Promise<void> {
  const { id, workId = "w", number } = opts;
  await getDb().task.create({ data: { id, workId, number, key: `W-${number}`, title: id, branch: id } });
}

// A running run of the task (its branch named after the task), with one attempt per entry of `attempts`
// (their ids: `<run id>-<n>`).
export async function seedRun(opts: {
  id: string;
  taskId: string;
  workId?: string;
  number?: number;
  createdAt?: Date;
  attempts?: number;
}): Promise<void> {
  const { id, taskId, workId = "w", number = 1, createdAt, attempts = 1 } = opts;
  const db = getDb();
  await db.run.create({
    data: {
      id,
      taskId,
      workId,
      number,
      status: "running",
      gate: "running",
      policy: "required",
      maxAttempts: Math.max(attempts, 1),
      checks: [],
      branch: taskId,
      ...(createdAt ? { createdAt } : {}),
    },
  });
  for (let n = 1; n <= attempts; n++)
    await db.attempt.create({ data: { id: `${id}-${n}`, runId: id, n, trigger: "dispatch", status: "checks" } });
}

// A fresh test database holding Work "w", its task "a" and the task's running run "r" (attempts r-1 … r-n).
export async function createTestDbWithRun(opts: { attempts?: number } = {}): Promise<TestDb> {
  const t = await createTestDb();
  await seedWork();
  await seedTask({ id: "a", number: 1 });
  await seedRun({ id: "r", taskId: "a", attempts: opts.attempts });
  return t;
}
