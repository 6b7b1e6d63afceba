// Reading the audit trail: admins see everything; a Work's leads see that Work's entries.
import type { Actor } from "../auth/actor";
import { listAuditEvents, type AuditRecord } from "../db/audit";
import { findWork, type WorkRecord } from "../db/works";
import { notFound } from "../errors";
import { withholdHidden } from "../gates/held-out";
import { requireAdmin, requireRole, standingAllows, standingOn } from "./access";

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
  // A task's history is read by its viewers: a held-out check in a before/after is its name only.
  const seesHidden = !opts.workId || standingAllows(await standingOn(actor, opts.workId), "lead");
  const page = events.slice(0, AUDIT_PAGE).map((e) => (seesHidden ? e : withholdHiddenIn(e)));
  return { events: page, hasMore: events.length > AUDIT_PAGE, work };
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
