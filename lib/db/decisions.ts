// Decisions made moot: once a run of a task is accepted, the task's older runs still waiting for a
// decision are superseded by it (they leave "Needs a decision" and point at the newer run).
import { getDb, type DbOrTx } from "./client";

// Returns how many runs were superseded.
export async function supersedeOlderRuns(opts: {
  taskId: string;
  number: number;
  byRunId: string;
  db?: DbOrTx;
}): Promise<number> {
  // Raw (by-id.ts says why): at the end of every accepted run but a task's first.
  return (opts.db ?? getDb()).$executeRaw`
    UPDATE "Run" SET "needsDecision" = ${false}, "supersededById" = ${opts.byRunId}, "updatedAt" = ${new Date()}
    WHERE "taskId" = ${opts.taskId} AND "number" < ${opts.number} AND CAST("status" AS TEXT) = 'finished'
      AND "needsDecision" = ${true}`;
}

// The run that superseded one, and whoever decided it: what a run page says about its decision.
export async function findDecisionFacts(opts: {
  supersededById: string | null;
  decidedById: string | null;
  db?: DbOrTx;
}): Promise<{ supersededBy: { id: string; number: number } | null; decidedBy: string | null }> {
  const db = opts.db ?? getDb();
  const [run, user] = await Promise.all([
    opts.supersededById
      ? db.run.findUnique({ where: { id: opts.supersededById }, select: { id: true, number: true } })
      : null,
    opts.decidedById
      ? db.user.findUnique({ where: { id: opts.decidedById }, select: { email: true, name: true } })
      : null,
  ]);
  return { supersededBy: run, decidedBy: user ? user.name || user.email : null };
}
