import { pageTextParam, pageTimeParam } from "@/lib/pages/query-params";
import type { Metadata } from "next";
import Link from "next/link";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { auditRefusalOf, readAuditOfWork } from "@/lib/services/audit";
import { AuditList } from "@/components/audit/audit-list";
import { AuditRefused } from "@/components/audit/audit-refused";
import { AuditFilters } from "@/components/audit/audit-filters";
import { Breadcrumbs, PageHeader } from "@/components/ui/page-parts";
import { auditWhoFilter, isAuditKind } from "@/lib/gates/audit-kinds";

export const metadata: Metadata = { title: "Audit" };

// Admins: everything. Leads: ?workId= for their Work. Anyone else is told why not (a 404: proxy.ts).
export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<{ workId?: string; before?: string; beforeId?: string; kind?: string; who?: string }>;
}) {
  const q = await searchParams;
  const workId = pageTextParam(q.workId);
  const before = pageTimeParam(q.before);
  const beforeId = before ? pageTextParam(q.beforeId) : undefined;
  // Filters a link or the form carried; anything else (a kind that is none) is no filter.
  const kind = isAuditKind(q.kind) ? q.kind : undefined;
  const who = auditWhoFilter(pageTextParam(q.who));
  const actor = await getPageActor();
  const refusal = await auditRefusalOf(actor, workId);
  if (refusal) return <AuditRefused refusal={refusal} />;
  const { events, hasMore, work } = await orNotFound(readAuditOfWork(actor, { workId, before, beforeId, kind, who }));
  const kept = { ...(workId ? { workId } : {}), ...(kind ? { kind } : {}), ...(who ? { who } : {}) };
  const older = hasMore
    ? `/audit?${new URLSearchParams({
        ...kept,
        before: events[events.length - 1].at.toISOString(),
        beforeId: events[events.length - 1].id,
      })}`
    : null;
  const isFiltered = !!kind || !!who;
  return (
    <>
      {work ? (
        <Breadcrumbs
          items={[
            { label: "Works", href: "/works" },
            { label: work.name, href: `/works/${work.id}` },
            { label: "Audit" },
          ]}
        />
      ) : null}
      <PageHeader
        title={work ? `Audit of ${work.name}` : "Audit"}
        meta={
          "Sign-ins, token use, dispatches, decisions, and every change to checks, policy, roles " +
          "and secrets (never their values)."
        }
      />
      <AuditFilters workId={workId} kind={kind} who={who} />
      <AuditList
        events={events}
        emptyTitle={isFiltered ? (before ? "Nothing older matches" : "Nothing matches these filters") : undefined}
      />
      {older ? (
        <p className="mt-3 text-right text-sm">
          <Link className="font-medium text-sky-700 hover:underline dark:text-sky-400" href={older}>
            Older →
          </Link>
        </p>
      ) : null}
    </>
  );
}
