// Works: one query or command per function.
import type { MergePolicy } from "../gates/merge-policy";
import { workNameKey, type WorkCreate } from "../gates/work-schema";
import { freezeWorkSettings, WORK_SETTINGS } from "../gates/work-settings";
import { hideWebhookSecrets, type SealedWebhook } from "../gates/webhooks";
import type { RunRecord } from "./runs";
import { rowById, rowsWhere } from "./by-id";
import { getDb, type DbOrTx } from "./client";
import { config } from "../config/config";
import { isPostgresUrl } from "../config/database-url";
import { workJson, type Work, type WorkJsonFields } from "./models";

// Every column but the task counter, with the Json columns typed and the proof globs' defaults filled in; the
// webhooks without their sealed secrets (findSealedWebhooks reads those, for the sender and a save).
export type WorkRecord = Omit<Work, "nextTaskNumber" | keyof WorkJsonFields> &
  Omit<WorkJsonFields, "testPatterns" | "protectedPaths" | "mergePolicy"> & {
    testPatterns: string[];
    protectedPaths: string[];
    mergePolicy: MergePolicy;
  };
const omit = { nextTaskNumber: true } as const;

function toWorkRecord(row: Omit<Work, "nextTaskNumber">): WorkRecord {
  const work = workJson(row);
  return {
    ...work,
    testPatterns: work.testPatterns ?? WORK_SETTINGS.testPatterns.default(),
    protectedPaths: work.protectedPaths ?? WORK_SETTINGS.protectedPaths.default(),
    mergePolicy: { ...WORK_SETTINGS.mergePolicy.default(), ...work.mergePolicy },
    webhooks: hideWebhookSecrets(work.webhooks),
  };
}

// A Work's webhooks as stored, each secret sealed (lib/auth/secret-box.ts opens it); null: no such Work.
export async function findSealedWebhooks(opts: {
  workId: string;
  db?: DbOrTx;
}): Promise<{ name: string; webhooks: SealedWebhook[] } | null> {
  // Read at every event of every run (to know whether anyone listens): raw, ~0.3 ms of CPU against ~2.
  const [row] = await rowsWhere<{ name: string; webhooks: unknown }>(
    opts.db ?? getDb(),
    "Work",
    { id: opts.workId },
    { select: ["name", "webhooks"] },
  );
  return row ? { name: row.name, webhooks: row.webhooks as SealedWebhook[] } : null;
}

// What a dispatch freezes of the Work alone, as the run's columns (the registry says which and how).
export type FrozenWorkSettings = Pick<RunRecord, keyof ReturnType<typeof freezeWorkSettings>>;
export function frozenSettingsOf(work: WorkRecord): FrozenWorkSettings {
  return freezeWorkSettings(work) as FrozenWorkSettings;
}

export async function findWork(opts: { id: string; db?: DbOrTx }): Promise<WorkRecord | null> {
  const row = await rowById<Omit<Work, keyof typeof omit>>(opts.db ?? getDb(), "Work", opts.id, Object.keys(omit));
  return row && toWorkRecord(row);
}

// Creating or renaming a Work reads the names and key prefixes the others hold, then writes its own: on
// PostgreSQL such transactions take turns (SQLite's write transactions already do), so that Works created at
// once neither share a name nor fail on the prefix's unique index.
export async function lockWorkIdentities(opts: { db: DbOrTx }): Promise<void> {
  if (isPostgresUrl(config().databaseUrl))
    await opts.db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('gatehouse:work-identity'))`;
}

// The Work other than `exceptId` whose name reads as `name` (workNameKey: case, spaces, characters that show
// nothing aside; Works are few: read in full, compared here, alike on SQLite and PostgreSQL), or null.
export async function findWorkNamedLike(opts: {
  name: string;
  exceptId?: string;
  db?: DbOrTx;
}): Promise<{ id: string; name: string } | null> {
  const key = workNameKey(opts.name);
  const rows = await (opts.db ?? getDb()).work.findMany({ select: { id: true, name: true } });
  return rows.find((w) => w.id !== opts.exceptId && workNameKey(w.name) === key) ?? null;
}

// The key prefixes of Works that begin with `base` (a new Work's prefix is the first free one).
export async function listKeyPrefixesFrom(opts: { base: string; db?: DbOrTx }): Promise<Set<string>> {
  const rows = await (opts.db ?? getDb()).work.findMany({
    where: { keyPrefix: { startsWith: opts.base } },
    select: { keyPrefix: true },
  });
  return new Set(rows.map((r) => r.keyPrefix));
}

// Works visible to a user: all for admins (userId null), otherwise those with a membership.
export async function listWorks(opts: { memberUserId: string | null; db?: DbOrTx }): Promise<WorkRecord[]> {
  const rows = await (opts.db ?? getDb()).work.findMany({
    where: opts.memberUserId ? { memberships: { some: { userId: opts.memberUserId } } } : {},
    orderBy: { createdAt: "asc" },
    omit,
  });
  return rows.map(toWorkRecord);
}

export async function insertWork(opts: { data: WorkCreate & { keyPrefix: string }; db?: DbOrTx }): Promise<WorkRecord> {
  const { baseBranch, ...rest } = opts.data;
  const row = await (opts.db ?? getDb()).work.create({ data: { ...rest, baseBranch: baseBranch ?? null }, omit });
  return toWorkRecord(row);
}

export type WorkChanges = Partial<Omit<WorkRecord, "id" | "version" | "createdAt" | "updatedAt" | "keyPrefix">>;

// Applies changes only if the row is still at `version`; returns null when it is not (stale or gone).
export async function updateWorkAtVersion(opts: {
  id: string;
  version: number;
  changes: WorkChanges;
  db?: DbOrTx;
}): Promise<WorkRecord | null> {
  const db = opts.db ?? getDb();
  const result = await db.work.updateMany({
    where: { id: opts.id, version: opts.version },
    data: { ...opts.changes, version: { increment: 1 } },
  });
  if (result.count === 0) return null;
  return findWork({ id: opts.id, db });
}

// Reserves the next task number of a Work (atomic increment).
export async function takeNextTaskNumber(opts: { workId: string; db?: DbOrTx }): Promise<number> {
  const row = await (opts.db ?? getDb()).work.update({
    where: { id: opts.workId },
    data: { nextTaskNumber: { increment: 1 } },
    select: { nextTaskNumber: true },
  });
  return row.nextTaskNumber - 1;
}

export async function countWorks(opts: { db?: DbOrTx } = {}): Promise<number> {
  return (opts.db ?? getDb()).work.count();
}

// The Works with a run dispatched since `since`, the most recently run first (what a starting worker
// readies the clones of): their repository settings only.
export async function listWorksRunSince(opts: {
  since: Date;
  take: number;
  db?: DbOrTx;
}): Promise<Array<Pick<WorkRecord, "id" | "repoUrl" | "baseBranch">>> {
  const db = opts.db ?? getDb();
  const latest = await db.run.groupBy({
    by: ["workId"],
    where: { createdAt: { gte: opts.since } },
    _max: { createdAt: true },
    orderBy: { _max: { createdAt: "desc" } },
    take: opts.take,
  });
  const rows = await db.work.findMany({
    where: { id: { in: latest.map((r) => r.workId) } },
    select: { id: true, repoUrl: true, baseBranch: true },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return latest.flatMap((r) => byId.get(r.workId) ?? []);
}
