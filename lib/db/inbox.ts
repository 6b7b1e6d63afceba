// The delivery owners' inbox: runs waiting for a decision, runs in progress, and recent endings
// across Works, each with its task and Work, newest first and paged by a time cursor.
import { ACTIVE_RUN_STATUSES, type Ending } from "../gates/run-ending";
import { stageOfRun, type Lane } from "../gates/lanes";
import { getDb, type DbOrTx } from "./client";
import { countAttemptsOfRuns } from "./run-history";
import type { Prisma } from "./models";

const inboxSelect = {
  id: true,
  number: true,
  status: true,
  gate: true,
  ending: true,
  endingReason: true,
  agentCaveat: true,
  needsDecision: true,
  supersededById: true,
  maxAttempts: true,
  bestAttempt: true,
  createdAt: true,
  finishedAt: true,
  // The lane the run froze and the stage it ran (null on both: a task on no lane).
  lane: true,
  stage: true,
  task: { select: { id: true, key: true, title: true } },
  work: { select: { id: true, name: true } },
  // The last attempt's required checks that were not green: what a decision card names.
  attempts: {
    orderBy: { n: "desc" },
    take: 1,
    select: {
      results: {
        where: { required: true, verdict: { in: ["failed", "timeout", "error", "hollow"] } },
        orderBy: { position: "asc" },
        select: { name: true, verdict: true },
      },
    },
  },
} satisfies Prisma.RunSelect;

type Row = Prisma.RunGetPayload<{ select: typeof inboxSelect }>;
export type InboxRun = Omit<Row, "attempts" | "lane" | "stage"> & {
  attemptCount: number;
  redChecks: { name: string; verdict: string }[];
  // The lane and stage a stage run ran (null: a run of a task on no lane).
  onStage: { lane: { id: string; name: string }; stage: { id: string; name: string } } | null;
};
const toInboxRun = ({ attempts, lane, stage, ...row }: Row, attemptCount: number): InboxRun => {
  const at = stageOfRun({ lane: lane as Lane | null, stage });
  return {
    ...row,
    attemptCount,
    redChecks: attempts[0]?.results ?? [],
    onStage: at ? { lane: at.lane, stage: { id: at.stage.id, name: at.stage.name } } : null,
  };
};

// Attempts counted for the page's runs only (see countAttemptsOfRuns).
async function toInboxRuns(rows: Row[], db?: DbOrTx): Promise<InboxRun[]> {
  const counts = await countAttemptsOfRuns({ runIds: rows.map((r) => r.id), db });
  return rows.map((row) => toInboxRun(row, counts.get(row.id) ?? 0));
}

// workIds null: every Work (admins).
function scope(workIds: string[] | null) {
  return workIds === null ? {} : { workId: { in: workIds } };
}

export async function listRunsNeedingDecision(opts: {
  workIds: string[] | null;
  take: number;
  db?: DbOrTx;
}): Promise<InboxRun[]> {
  const rows = await (opts.db ?? getDb()).run.findMany({
    where: { ...scope(opts.workIds), needsDecision: true },
    orderBy: { finishedAt: "desc" },
    take: opts.take,
    select: inboxSelect,
  });
  return toInboxRuns(rows, opts.db);
}

export async function listRunsInProgress(opts: {
  workIds: string[] | null;
  take: number;
  db?: DbOrTx;
}): Promise<InboxRun[]> {
  const rows = await (opts.db ?? getDb()).run.findMany({
    where: { ...scope(opts.workIds), status: { in: [...ACTIVE_RUN_STATUSES] } },
    orderBy: { createdAt: "desc" },
    take: opts.take,
    select: inboxSelect,
  });
  return toInboxRuns(rows, opts.db);
}

export async function listRecentEndings(opts: {
  workIds: string[] | null;
  ending?: Ending;
  // Only runs accepted though their agent did not pass.
  agentFailed?: boolean;
  before?: Date;
  take: number;
  db?: DbOrTx;
}): Promise<InboxRun[]> {
  const rows = await (opts.db ?? getDb()).run.findMany({
    where: {
      ...scope(opts.workIds),
      status: "finished",
      needsDecision: false,
      ...(opts.ending ? { ending: opts.ending } : {}),
      ...(opts.agentFailed ? { ending: "accepted" as const, agentCaveat: { not: null } } : {}),
      ...(opts.before ? { finishedAt: { lt: opts.before } } : {}),
    },
    orderBy: { finishedAt: "desc" },
    take: opts.take,
    select: inboxSelect,
  });
  return toInboxRuns(rows, opts.db);
}
