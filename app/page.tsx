import { pageTextParam, pageTimeParam } from "@/lib/pages/query-params";
import type { Metadata } from "next";
import Link from "next/link";
import { getPageActor } from "@/lib/auth/page-actor";
import { ENDING_FILTER_LABELS, INBOX_ENDING_FILTERS, loadInbox } from "@/lib/services/inbox";
import { DecisionCards, InboxList } from "@/components/runs/inbox-list";
import { EmptyState, PageHeader, Section } from "@/components/ui/page-parts";
import { buttonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-classes";

// The root layout's title template names the site on the pages below it, not on its own segment's page.
export const metadata: Metadata = { title: { absolute: "Inbox · Gatehouse" } };

type Props = { searchParams: Promise<{ work?: string; ending?: string; before?: string }> };

// The delivery owners' start page: decisions first, then what is running, then how runs ended.
export default async function InboxPage({ searchParams }: Props) {
  const q = await searchParams;
  const actor = await getPageActor();
  const inbox = await loadInbox(actor, {
    workId: pageTextParam(q.work),
    ending: pageTextParam(q.ending),
    before: pageTimeParam(q.before),
  });
  const olderHref = inbox.nextBefore
    ? `/?${new URLSearchParams({
        ...(q.work ? { work: q.work } : {}),
        ...(q.ending ? { ending: q.ending } : {}),
        before: inbox.nextBefore.toISOString(),
      })}#endings`
    : null;
  return (
    <>
      <PageHeader title="Inbox" meta="Runs that need a decision, what is running now, and how recent runs ended." />
      <form method="get" aria-label="Filters" className="mb-6 flex flex-wrap items-end gap-3">
        {/* A select is as wide as its longest option: a Work's long name must not widen the page. */}
        <div className="flex min-w-0 max-w-full flex-col gap-1 text-sm font-medium sm:max-w-xs">
          <label htmlFor="filter-work">Work</label>
          <select id="filter-work" name="work" defaultValue={q.work ?? ""} className={`${inputClass} w-full`}>
            <option value="">All Works</option>
            {inbox.works.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor="filter-ending">Ending</label>
          <select id="filter-ending" name="ending" defaultValue={inbox.filters.ending ?? ""} className={inputClass}>
            <option value="">Any ending</option>
            {INBOX_ENDING_FILTERS.map((e) => (
              <option key={e} value={e}>
                {ENDING_FILTER_LABELS[e]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass("secondary")}>
          Filter
        </button>
        {q.work || q.ending ? (
          <Link href="/" className={buttonClass("ghost")}>
            Clear
          </Link>
        ) : null}
      </form>
      {inbox.decisions.length > 0 ? (
        <Section
          id="decisions"
          title={`Needs a decision (${inbox.decisions.length})`}
          description={
            "Partial runs: attempts or budget ran out with the gate red. Accept as it stands, " +
            "grant more attempts, or reject."
          }
        >
          <DecisionCards runs={inbox.decisions} />
        </Section>
      ) : null}
      {inbox.inProgress.length > 0 ? (
        <Section id="in-progress" title="In progress">
          <InboxList runs={inbox.inProgress} label="Runs in progress" />
        </Section>
      ) : null}
      <Section id="endings" title="Recent endings">
        {inbox.endings.length === 0 && inbox.decisions.length > 0 && inbox.filters.ending === "partial" ? (
          <EmptyState title="Every partial run here waits for a decision">
            The {inbox.decisions.length} partial run{inbox.decisions.length === 1 ? "" : "s"} matching these filters{" "}
            {inbox.decisions.length === 1 ? "waits" : "wait"} for a decision, above.
          </EmptyState>
        ) : inbox.endings.length === 0 && inbox.works.length === 0 && !(q.work || q.ending) ? (
          <EmptyState title={actor.isAdmin ? "No Works yet" : "No Works to show you yet"}>
            {actor.isAdmin ? (
              <>
                A Work is a repository and the checks its tasks must pass.{" "}
                <Link className="font-medium text-sky-700 hover:underline dark:text-sky-400" href="/works">
                  Create the first one on Works
                </Link>
                .
              </>
            ) : (
              "An admin or a Work's lead gives you a role on a Work; its runs show up here."
            )}
          </EmptyState>
        ) : inbox.endings.length === 0 ? (
          <EmptyState title={q.work || q.ending ? "No runs match these filters" : "No run has ended yet"}>
            {q.work || q.ending ? (
              "Clear the filters to see every ending."
            ) : (
              <>
                Dispatch a task from its page to see its run here.{" "}
                <Link className="font-medium text-sky-700 hover:underline dark:text-sky-400" href="/works">
                  Go to Works
                </Link>
              </>
            )}
          </EmptyState>
        ) : (
          <InboxList runs={inbox.endings} label="Recent endings" />
        )}
        {olderHref ? (
          <p className="mt-3 text-right text-sm">
            <Link className="font-medium text-sky-700 hover:underline dark:text-sky-400" href={olderHref}>
              Older →
            </Link>
          </p>
        ) : null}
      </Section>
    </>
  );
}
