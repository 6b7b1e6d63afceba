// Test helper: a Work, its tasks and runs written straight into the database, for tests of what the data
// layer does with rows (counts, history, shipped logs) without dispatching anything.
import { getDb } from "../db/client";
import { createTestDb, type TestDb } from "./test-db";

export async function seedWork(id = "w"): Promise<void> {
  await getDb().work.create({ data: { id, name: id.toUpperCase(), repoUrl: "/nowhere", keyPrefix: "W" } });
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
