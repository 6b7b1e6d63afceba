import { apiRoute } from "@/lib/api/handler";
import { textQueryParam, timeQueryParam } from "@/lib/api/request-input";
import { AppError } from "@/lib/errors";
import { AUDIT_KIND_IDS, auditWhoFilter, isAuditKind } from "@/lib/gates/audit-kinds";
import { readAudit } from "@/lib/services/audit";

export const dynamic = "force-dynamic";

// ?workId= (leads of that Work) or everything (admins); ?before=<ISO time>&beforeId=<id> (the last entry read)
// for the next page; ?kind= one kind
// of entries (access, people, settings, runs), ?who= part of who did them.
export const GET = apiRoute(async ({ actor, request }) => {
  const q = new URL(request.url).searchParams;
  const before = timeQueryParam(q, "before");
  const kind = textQueryParam(q, "kind", 40) || undefined;
  if (kind !== undefined && !isAuditKind(kind))
    throw new AppError("validation", `kind: must be one of ${AUDIT_KIND_IDS.join(", ")}`, [
      { path: "kind", message: `must be one of ${AUDIT_KIND_IDS.join(", ")}` },
    ]);
  const who = auditWhoFilter(textQueryParam(q, "who", 200));
  // With ?before=, the id of the last entry read (entries of one millisecond are told apart by it).
  const beforeId = before ? textQueryParam(q, "beforeId", 200) || undefined : undefined;
  return {
    json: await readAudit(actor, { workId: textQueryParam(q, "workId") || undefined, before, beforeId, kind, who }),
  };
});
