// Reading the audit trail: admins see everything; a Work's leads see that Work's entries.
import type { Actor } from "../auth/actor";
import { listAuditEvents, type AuditRecord } from "../db/audit";
import { findWork } from "../db/works";
import { notFound } from "../errors";
import { requireAdmin, requireRole } from "./access";

const AUDIT_PAGE = 50;

export async function readAudit(
  actor: Actor,
  opts: { workId?: string; taskId?: string; before?: Date; actionPrefix?: string },
): Promise<{ events: AuditRecord[]; hasMore: boolean }> {
  if (opts.workId) {
    if (!(await findWork({ id: opts.workId }))) throw notFound("Work");
    await requireRole(actor, opts.workId, opts.taskId ? "viewer" : "lead");
  } else requireAdmin(actor);
  const events = await listAuditEvents({
    workId: opts.workId,
    taskId: opts.taskId,
    before: opts.before,
    actionPrefix: opts.actionPrefix,
    take: AUDIT_PAGE + 1,
  });
  return { events: events.slice(0, AUDIT_PAGE), hasMore: events.length > AUDIT_PAGE };
}
