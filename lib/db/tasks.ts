// Tasks: one query or command per function.
import type { TaskCheckEntry } from "../gates/check-schema";
import { rowById } from "./by-id";
import { getDb, type DbOrTx } from "./client";
import { Prisma } from "./generated/sqlite/client";
import { taskJson, type Task, type TaskJsonFields } from "./models";

export type TaskRecord = Omit<Task, keyof TaskJsonFields> & TaskJsonFields;

// A Json column holds SQL NULL for "no list" (inherit the Work's checks untouched).
const checksOrNull = (entries: TaskCheckEntry[] | null) => entries ?? Prisma.DbNull;

export async function findTask(opts: { id: string; db?: DbOrTx }): Promise<TaskRecord | null> {
  const row = await rowById<Task>(opts.db ?? getDb(), "Task", opts.id);
  return row && taskJson(row);
}

export async function listTasks(opts: { workId: string; db?: DbOrTx }): Promise<TaskRecord[]> {
  const rows = await (opts.db ?? getDb()).task.findMany({
    where: { workId: opts.workId },
    orderBy: { number: "desc" },
  });
  return rows.map(taskJson);
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

export type TaskInsert = Omit<TaskRecord, "id" | "version" | "createdAt" | "updatedAt" | keyof TaskMerge>;
type TaskMerge = Pick<TaskRecord, "mergedCommit" | "mergedHead" | "mergedAt" | "mergedBy" | "autoMergeError">;

// Moves a task to another stage of its lane, only if it still stands where the caller saw it (a person may
// have moved it meanwhile); no version bump, so an open editor stays current. Whether it moved.
export async function moveTaskStage(opts: {
  id: string;
  lane: string;
  from: string;
  to: string;
  db?: DbOrTx;
}): Promise<boolean> {
  const result = await (opts.db ?? getDb()).task.updateMany({
    where: { id: opts.id, lane: opts.lane, stage: opts.from },
    data: { stage: opts.to },
  });
  return result.count === 1;
}

// Records a merge, or why an auto-merge failed (no version bump: an open editor stays current).
export async function updateTaskMerge(opts: { id: string; changes: Partial<TaskMerge>; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).task.update({ where: { id: opts.id }, data: opts.changes, select: { id: true } });
}

export async function insertTask(opts: { data: TaskInsert; db?: DbOrTx }): Promise<TaskRecord> {
  const { acceptanceChecks, ...rest } = opts.data;
  const row = await (opts.db ?? getDb()).task.create({
    data: { ...rest, acceptanceChecks: checksOrNull(acceptanceChecks) },
  });
  return taskJson(row);
}

export type TaskChanges = Partial<
  Pick<
    TaskRecord,
    | "title"
    | "description"
    | "branch"
    | "acceptanceChecks"
    | "maxGateAttempts"
    | "agentCommand"
    | "budgetSec"
    | "budgetUsd"
    | "lane"
    | "stage"
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
      ...(acceptanceChecks !== undefined ? { acceptanceChecks: checksOrNull(acceptanceChecks) } : {}),
      version: { increment: 1 },
    },
  });
  if (result.count === 0) return null;
  return findTask({ id: opts.id, db });
}

// The ids of the held-out checks the Work's tasks add or override (for pages that must not show more of them
// than their name and verdict).
export async function listHeldOutTaskCheckIds(opts: { workId: string; db?: DbOrTx }): Promise<Set<string>> {
  const rows = await (opts.db ?? getDb()).task.findMany({
    where: { workId: opts.workId },
    select: { acceptanceChecks: true },
  });
  const ids = new Set<string>();
  for (const row of rows)
    for (const entry of (row.acceptanceChecks as TaskCheckEntry[] | null) ?? [])
      if ((entry as { hidden?: boolean }).hidden) ids.add(entry.id);
  return ids;
}
