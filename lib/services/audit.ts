// Reading the audit trail: admins see everything; a Work's leads see that Work's entries.
import type { Actor } from "../auth/actor";
import { listAuditEvents, type AuditRecord } from "../db/audit";
import { findWork, type WorkRecord } from "../db/works";
import { notFound } from "../errors";
import { type AuditKind, prefixesOf } from "../gates/audit-kinds";
import { withholdHidden } from "../gates/held-out";
import { roleAllows, type Role } from "../auth/roles";
import { requireAdmin, requireRole, standingAllows, standingOn } from "./access";

const AUDIT_PAGE = 50;

type AuditQuery = {
  workId?: string;
  taskId?: string;
  before?: Date;
  // With `before`: the id of the entry the last page ended with (entries of one millisecond told apart).
  beforeId?: string;
  actionPrefix?: string;
  // The audit page's and GET /api/audit's filters: one kind of entries, part of who did them.
  kind?: AuditKind;
  who?: string;
};

export async function readAudit(actor: Actor, opts: AuditQuery): Promise<{ events: AuditRecord[]; hasMore: boolean }> {
  const { events, hasMore } = await readAuditOfWork(actor, opts);
  return { events, hasMore };
}

// The same, with the Work whose trail it is (null for the whole trail), for a page to title itself with.
export async function readAuditOfWork(
  actor: Actor,
  opts: AuditQuery,
): Promise<{ events: AuditRecord[]; hasMore: boolean; work: WorkRecord | null }> {
  const work = opts.workId ? await findWork({ id: opts.workId }) : null;
  if (opts.workId) {
    if (!work) throw notFound("Work");
    await requireRole(actor, opts.workId, opts.taskId ? "viewer" : "lead");
  } else requireAdmin(actor);
  const events = await listAuditEvents({
    workId: opts.workId,
    taskId: opts.taskId,
    before: opts.before,
    beforeId: opts.beforeId,
    actionPrefix: opts.actionPrefix,
    actionPrefixes: opts.kind ? prefixesOf(opts.kind) : undefined,
    actorLike: opts.who,
    take: AUDIT_PAGE + 1,
  });
  // A task's history is read by its viewers: a held-out check in a before/after is its name only.
  const seesHidden = !opts.workId || standingAllows(await standingOn(actor, opts.workId), "lead");
  const page = events.slice(0, AUDIT_PAGE).map((e) => (seesHidden ? e : withholdHiddenIn(e)));
  return { events: page, hasMore: events.length > AUDIT_PAGE, work };
}

// Why the audit page (the whole trail, or one Work's with `workId`) is not the actor's to read, or null when it
// is: the page says it, and proxy.ts answers it with a 404 (as readAuditOfWork refuses it). Only an admin reads
// the whole trail; a Work's leads read its own; to anyone with no role on it the Work is not there.
export type AuditRefusal =
  | { kind: "whole-trail" }
  | { kind: "no-work" }
  | { kind: "below-lead"; work: { id: string; name: string }; role: Role };

export async function auditRefusalOf(actor: Actor, workId: string | undefined): Promise<AuditRefusal | null> {
  if (!workId) return actor.isAdmin ? null : { kind: "whole-trail" };
  const work = await findWork({ id: workId });
  const standing = work ? await standingOn(actor, workId) : null;
  if (!work || !standing) return { kind: "no-work" };
  if (standing === "admin" || roleAllows(standing, "lead")) return null;
  return { kind: "below-lead", work: { id: work.id, name: work.name }, role: standing };
}

const CHECK_LISTS = ["checkDefaults", "acceptanceChecks"] as const;

function withholdHiddenIn(event: AuditRecord): AuditRecord {
  const strip = (value: unknown): unknown => {
    if (!value || typeof value !== "object" || Array.isArray(value)) return value;
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const key of CHECK_LISTS)
      if (Array.isArray(copy[key])) copy[key] = withholdHidden(copy[key] as { id: string }[], false);
    return copy;
  };
  return { ...event, before: strip(event.before), after: strip(event.after) };
}
