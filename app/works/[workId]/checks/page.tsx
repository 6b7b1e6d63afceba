import type { Metadata } from "next";
import { HISTORY_DAYS, SAMPLE_RUNS } from "@/lib/services/check-history";
import { getPageActor } from "@/lib/auth/page-actor";
import { orNotFound } from "@/lib/pages/or-not-found";
import { readPageWork } from "@/lib/pages/page-reads";
import { readCheckHistory } from "@/lib/services/check-history";
import { CheckHistoryTable } from "@/components/landing/check-history-table";
import { Breadcrumbs, EmptyState, PageHeader } from "@/components/ui/page-parts";

type Props = { params: Promise<{ workId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Check history · ${(await orNotFound(readPageWork((await params).workId))).name}` };
}

export default async function CheckHistoryPage({ params }: Props) {
  const { workId } = await params;
  const actor = await getPageActor();
  const work = await orNotFound(readPageWork(workId));
  const checks = await readCheckHistory(actor, workId);
  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Works", href: "/works" },
          { label: work.name, href: `/works/${work.id}` },
          { label: "Check history" },
        ]}
      />
      <PageHeader
        title="Check history"
        meta={
          <>
            Every check of {work.name} that ran to a verdict in the last {HISTORY_DAYS} days, across all tasks, by check
            id: runs and pass rates over those days; durations and the newest results over its newest {SAMPLE_RUNS}{" "}
            runs.
          </>
        }
      />
      {checks.length === 0 ? (
        <EmptyState title="No results yet">Dispatch a task: each check it runs shows up here.</EmptyState>
      ) : (
        <CheckHistoryTable checks={checks} />
      )}
    </>
  );
}
