// Works: one query or command per function. Check lists are JSON text in the row, typed here.
import type { Check } from "../gates/check-schema";
import {
  DEFAULT_PROTECTED_PATHS,
  DEFAULT_TEST_PATTERNS,
  type ChecksPolicy,
  type ProofPolicy,
  type ProofSettings,
  type WorkCreate,
} from "../gates/work-schema";
import { getDb, type DbOrTx } from "./client";

export type WorkRecord = {
  id: string;
  name: string;
  repoUrl: string;
  baseBranch: string | null;
  keyPrefix: string;
  checkDefaults: Check[];
  checksPolicy: ChecksPolicy;
  maxGateAttempts: number;
  agentCommand: string | null;
  agentEnvPassthrough: string[];
  budgetSec: number | null;
  failFast: boolean;
  testPatterns: string[];
  requireTests: ProofPolicy;
  protectedPaths: string[];
  vacuousPolicy: ProofPolicy;
  version: number;
  createdAt: Date;
  updatedAt: Date;
};

type WorkRow = Omit<WorkRecord, "checkDefaults" | "agentEnvPassthrough" | "checksPolicy" | keyof ProofSettings> & {
  checkDefaults: string;
  agentEnvPassthrough: string;
  checksPolicy: string;
  // Json columns; null means the defaults.
  testPatterns: unknown;
  requireTests: string;
  protectedPaths: unknown;
  vacuousPolicy: string;
};

const workSelect = {
  id: true,
  name: true,
  repoUrl: true,
  baseBranch: true,
  keyPrefix: true,
  checkDefaults: true,
  checksPolicy: true,
  maxGateAttempts: true,
  agentCommand: true,
  agentEnvPassthrough: true,
  budgetSec: true,
  failFast: true,
  testPatterns: true,
  requireTests: true,
  protectedPaths: true,
  vacuousPolicy: true,
  version: true,
  createdAt: true,
  updatedAt: true,
} as const;

function toWorkRecord(row: WorkRow): WorkRecord {
  return {
    ...row,
    checkDefaults: JSON.parse(row.checkDefaults) as Check[],
    agentEnvPassthrough: JSON.parse(row.agentEnvPassthrough) as string[],
    checksPolicy: row.checksPolicy as ChecksPolicy,
    testPatterns: Array.isArray(row.testPatterns) ? (row.testPatterns as string[]) : [...DEFAULT_TEST_PATTERNS],
    requireTests: row.requireTests as ProofPolicy,
    protectedPaths: Array.isArray(row.protectedPaths) ? (row.protectedPaths as string[]) : [...DEFAULT_PROTECTED_PATHS],
    vacuousPolicy: row.vacuousPolicy as ProofPolicy,
  };
}

export function proofSettingsOf(work: WorkRecord): ProofSettings {
  return {
    testPatterns: work.testPatterns,
    requireTests: work.requireTests,
    protectedPaths: work.protectedPaths,
    vacuousPolicy: work.vacuousPolicy,
  };
}

export async function findWork(opts: { id: string; db?: DbOrTx }): Promise<WorkRecord | null> {
  const row = await (opts.db ?? getDb()).work.findUnique({ where: { id: opts.id }, select: workSelect });
  return row ? toWorkRecord(row) : null;
}

// Works visible to a user: all for admins (userId null), otherwise those with a membership.
export async function listWorks(opts: { memberUserId: string | null; db?: DbOrTx }): Promise<WorkRecord[]> {
  const rows = await (opts.db ?? getDb()).work.findMany({
    where: opts.memberUserId ? { memberships: { some: { userId: opts.memberUserId } } } : {},
    orderBy: { createdAt: "asc" },
    select: workSelect,
  });
  return rows.map(toWorkRecord);
}

export async function insertWork(opts: { data: WorkCreate & { keyPrefix: string }; db?: DbOrTx }): Promise<WorkRecord> {
  const { checkDefaults, agentEnvPassthrough, baseBranch, ...rest } = opts.data;
  const row = await (opts.db ?? getDb()).work.create({
    data: {
      ...rest,
      baseBranch: baseBranch ?? null,
      checkDefaults: JSON.stringify(checkDefaults),
      agentEnvPassthrough: JSON.stringify(agentEnvPassthrough),
    },
    select: workSelect,
  });
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
  const { checkDefaults, agentEnvPassthrough, ...rest } = opts.changes;
  const result = await db.work.updateMany({
    where: { id: opts.id, version: opts.version },
    data: {
      ...rest,
      ...(checkDefaults !== undefined ? { checkDefaults: JSON.stringify(checkDefaults) } : {}),
      ...(agentEnvPassthrough !== undefined ? { agentEnvPassthrough: JSON.stringify(agentEnvPassthrough) } : {}),
      version: { increment: 1 },
    },
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
