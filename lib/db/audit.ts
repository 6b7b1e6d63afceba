// The audit trail: who did what, when; edits carry before/after (never secret values).
import { isPostgresUrl } from "../config/database-url";
import { config } from "../config/config";
import { actorMatches, actorPieces } from "../gates/actor-match";
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
  // Part of the actor's label, matched literally with case aside ("gatehouse" finds "Gatehouse", "ä" finds "Ä"),
  // alike on SQLite and PostgreSQL: lib/gates/actor-match.ts.
  actorLike?: string;
  // Entries older than this one (its time and id: entries written in the same millisecond are told apart by
  // their ids, in the order the page shows them), or than this time.
  before?: Date;
  beforeId?: string;
  take: number;
  db?: DbOrTx;
}): Promise<AuditRecord[]> {
  const db = opts.db ?? getDb();
  const like = opts.actorLike;
  // The database is asked for rows holding every piece of what was typed (case aside, no wildcards sent), and
  // what it lets through is matched here; more rows are fetched (a few batches at most) until the page is full.
  const { pieces, isExact } = like ? actorPieces(like) : { pieces: [], isExact: true };
  const batchSize = isExact ? opts.take : Math.max(opts.take, 500);
  const matches = (label: string) => !like || actorMatches(label, like);
  // PostgreSQL's LIKE tells ASCII cases apart and SQLite's does not: `mode` (PostgreSQL's client only) makes it
  // ILIKE. The pieces hold no % _ or \, so neither database reads anything in them but characters.
  const anyCase = isPostgresUrl(config().databaseUrl) ? { mode: "insensitive" as const } : {};
  const found: AuditEvent[] = [];
  let cursor = opts.before ? { at: opts.before, id: opts.beforeId } : null;
  for (let batch = 0; batch < (like ? 20 : 1) && found.length < opts.take; batch++) {
    const rows = await db.auditEvent.findMany({
      where: {
        ...(opts.workId ? { workId: opts.workId } : {}),
        ...(opts.taskId ? { taskId: opts.taskId } : {}),
        ...(opts.actions ? { action: { in: opts.actions } } : {}),
        ...(opts.actionPrefix ? { action: { startsWith: opts.actionPrefix } } : {}),
        AND: [
          ...(opts.actionPrefixes ? [{ OR: opts.actionPrefixes.map((p) => ({ action: { startsWith: p } })) }] : []),
          ...pieces.map((spellings) => ({ OR: spellings.map((v) => ({ actorLabel: { contains: v, ...anyCase } })) })),
          ...(cursor
            ? [
                cursor.id
                  ? { OR: [{ at: { lt: cursor.at } }, { at: cursor.at, id: { lt: cursor.id } }] }
                  : { at: { lt: cursor.at } },
              ]
            : []),
        ],
      },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      take: batchSize,
    });
    found.push(...rows.filter((r) => matches(r.actorLabel)));
    const last = rows.at(-1);
    if (!last || rows.length < batchSize) break;
    cursor = { at: last.at, id: last.id };
  }
  return found.slice(0, opts.take).map((r) => ({
    ...r,
    before: r.before === null ? null : JSON.parse(r.before),
    after: r.after === null ? null : JSON.parse(r.after),
  }));
}
