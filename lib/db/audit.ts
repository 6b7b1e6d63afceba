// The audit trail: who did what, when; edits carry before/after (never secret values).
import { insertRow, newRowId } from "./by-id";
import { getDb, type DbOrTx } from "./client";
import type { AuditEvent } from "./models";

export type AuditInsert = {
  actorId: string | null;
  actorLabel: string;
  via: string;
  action: string;
  summary: string;
  workId?: string | null;
  taskId?: string | null;
  runId?: string | null;
  before?: unknown;
  after?: unknown;
};

// before/after stay JSON text in the row (an audit entry is read back whole, never queried into).
export type AuditRecord = Omit<AuditEvent, "before" | "after"> & { before: unknown; after: unknown };

export async function insertAuditEvent(opts: { event: AuditInsert; db?: DbOrTx }): Promise<void> {
  const { before, after, ...rest } = opts.event;
  // Raw: every dispatch and decision writes one (the model create planned it anew each time, ~1 ms of CPU).
  await insertRow(opts.db ?? getDb(), "AuditEvent", {
    id: newRowId(),
    at: new Date(),
    ...rest,
    before: before === undefined ? null : JSON.stringify(before),
    after: after === undefined ? null : JSON.stringify(after),
  });
}

export async function listAuditEvents(opts: {
  workId?: string;
  taskId?: string;
  actions?: string[];
  actionPrefix?: string;
  // Any of these prefixes (one kind of entries: lib/gates/audit-kinds.ts).
  actionPrefixes?: readonly string[];
  // Part of the actor's label.
  actorLike?: string;
  before?: Date;
  take: number;
  db?: DbOrTx;
}): Promise<AuditRecord[]> {
  const rows = await (opts.db ?? getDb()).auditEvent.findMany({
    where: {
      ...(opts.workId ? { workId: opts.workId } : {}),
      ...(opts.taskId ? { taskId: opts.taskId } : {}),
      ...(opts.actions ? { action: { in: opts.actions } } : {}),
      ...(opts.actionPrefix ? { action: { startsWith: opts.actionPrefix } } : {}),
      AND: [
        ...(opts.actionPrefixes ? [{ OR: opts.actionPrefixes.map((p) => ({ action: { startsWith: p } })) }] : []),
        // As typed, or in lower case (emails are stored so; "Gatehouse" and workers' names are not).
        ...(opts.actorLike
          ? [
              {
                OR: [...new Set([opts.actorLike, opts.actorLike.toLowerCase()])].map((v) => ({
                  actorLabel: { contains: v },
                })),
              },
            ]
          : []),
      ],
      ...(opts.before ? { at: { lt: opts.before } } : {}),
    },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: opts.take,
  });
  return rows.map((r) => ({
    ...r,
    before: r.before === null ? null : JSON.parse(r.before),
    after: r.after === null ? null : JSON.parse(r.after),
  }));
}
