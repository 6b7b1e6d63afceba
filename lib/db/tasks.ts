// Tasks: one query or command per function.
import type { TaskCheckEntry } from "../gates/check-schema";
import { getDb, type DbOrTx } from "./client";

export type TaskRecord = {
  id: string;
  workId: string;
  number: number;
  key: string;
  title: string;
  description: string;
  branch: string;
  acceptanceChecks: TaskCheckEntry[] | null;
  maxGateAttempts: number | null;
  agentCommand: string | null;
  budgetSec: number | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
};

const taskSelect = {
  id: true,
  workId: true,
  number: true,
  key: true,
  title: true,
  description: true,
  branch: true,
  acceptanceChecks: true,
  maxGateAttempts: true,
  agentCommand: true,
  budgetSec: true,
  version: true,
  createdAt: true,
  updatedAt: true,
} as const;

type TaskRow = Omit<TaskRecord, "acceptanceChecks"> & { acceptanceChecks: string | null };

function toTaskRecord(row: TaskRow): TaskRecord {
  return {
    ...row,
    acceptanceChecks: row.acceptanceChecks === null ? null : (JSON.parse(row.acceptanceChecks) as TaskCheckEntry[]),
  };
}

export async function findTask(opts: { id: string; db?: DbOrTx }): Promise<TaskRecord | null> {
  const row = await (opts.db ?? getDb()).task.findUnique({ where: { id: opts.id }, select: taskSelect });
  return row ? toTaskRecord(row) : null;
}

export async function listTasks(opts: { workId: string; db?: DbOrTx }): Promise<TaskRecord[]> {
  const rows = await (opts.db ?? getDb()).task.findMany({
    where: { workId: opts.workId },
    orderBy: { number: "desc" },
    select: taskSelect,
  });
  return rows.map(toTaskRecord);
}

export async function isBranchTaken(opts: {
  workId: string;
  branch: string;
  exceptTaskId?: string;
  db?: DbOrTx;
}): Promise<boolean> {
  const row = await (opts.db ?? getDb()).task.findUnique({
    where: { workId_branch: { workId: opts.workId, branch: opts.branch } },
    select: { id: true },
  });
  return !!row && row.id !== opts.exceptTaskId;
}

export type TaskInsert = Omit<TaskRecord, "id" | "version" | "createdAt" | "updatedAt">;

export async function insertTask(opts: { data: TaskInsert; db?: DbOrTx }): Promise<TaskRecord> {
  const { acceptanceChecks, ...rest } = opts.data;
  const row = await (opts.db ?? getDb()).task.create({
    data: { ...rest, acceptanceChecks: acceptanceChecks === null ? null : JSON.stringify(acceptanceChecks) },
    select: taskSelect,
  });
  return toTaskRecord(row);
}

export type TaskChanges = Partial<
  Pick<
    TaskRecord,
    "title" | "description" | "branch" | "acceptanceChecks" | "maxGateAttempts" | "agentCommand" | "budgetSec"
  >
>;

// Applies changes only if the row is still at `version`; returns null when it is not (stale or gone).
export async function updateTaskAtVersion(opts: {
  id: string;
  version: number;
  changes: TaskChanges;
  db?: DbOrTx;
}): Promise<TaskRecord | null> {
  const db = opts.db ?? getDb();
  const { acceptanceChecks, ...rest } = opts.changes;
  const result = await db.task.updateMany({
    where: { id: opts.id, version: opts.version },
    data: {
      ...rest,
      ...(acceptanceChecks !== undefined
        ? { acceptanceChecks: acceptanceChecks === null ? null : JSON.stringify(acceptanceChecks) }
        : {}),
      version: { increment: 1 },
    },
  });
  if (result.count === 0) return null;
  return findTask({ id: opts.id, db });
}
