// Reading the audit trail: admins see everything; a Work's leads see that Work's entries.
import type { Actor } from "../auth/actor";
import { listAuditEvents, type AuditRecord } from "../db/audit";
import { findWork, type WorkRecord } from "../db/works";
import { notFound } from "../errors";
import { requireAdmin, requireRole } from "./access";

const AUDIT_PAGE = 50;

type AuditQuery = { workId?: string; taskId?: string; before?: Date; actionPrefix?: string };

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
    actionPrefix: opts.actionPrefix,
    take: AUDIT_PAGE + 1,
  });
  return { events: events.slice(0, AUDIT_PAGE), hasMore: events.length > AUDIT_PAGE, work };
}
