// What the start page shows a delivery owner: decisions first, then what is running, then endings.
import type { Actor } from "../auth/actor";
import { listRecentEndings, listRunsInProgress, listRunsNeedingDecision } from "../db/inbox";
import { ENDINGS, type Ending } from "../gates/run-ending";
import { listVisibleWorks } from "./works";

const INBOX_PAGE = 25;

export type InboxFilters = { workId?: string; ending?: string; before?: Date };

// The Ending filter's choices: each ending, and the accepted runs whose agent did not pass (Run.agentCaveat).
const AGENT_FAILED_FILTER = "agent-failed";
export const INBOX_ENDING_FILTERS = [...ENDINGS, AGENT_FAILED_FILTER] as const;
type EndingFilter = (typeof INBOX_ENDING_FILTERS)[number];
export const ENDING_FILTER_LABELS: Record<EndingFilter, string> = {
  accepted: "Accepted",
  partial: "Partial",
  rejected: "Rejected",
  inconclusive: "Inconclusive",
  [AGENT_FAILED_FILTER]: "Accepted, agent failed",
};

const isEndingFilter = (value: string): value is EndingFilter =>
  (INBOX_ENDING_FILTERS as readonly string[]).includes(value);

export async function loadInbox(actor: Actor, filters: InboxFilters) {
  const works = await listVisibleWorks(actor);
  // The Works listed are exactly those the actor has a role on (all of them for admins).
  const visible = actor.isAdmin ? null : actor.userId ? works.map((w) => w.id) : [];
  const scoped = filters.workId
    ? visible === null || visible.includes(filters.workId)
      ? [filters.workId]
      : []
    : visible;
  const filter = filters.ending && isEndingFilter(filters.ending) ? filters.ending : undefined;
  const agentFailed = filter === AGENT_FAILED_FILTER;
  const ending: Ending | undefined = agentFailed ? "accepted" : filter;
  // The ending filter applies to every list, so what the page says agrees: runs waiting for a decision
  // are partial, and runs in progress have no ending yet.
  const [decisions, inProgress, endings] = await Promise.all([
    ending && ending !== "partial" ? [] : listRunsNeedingDecision({ workIds: scoped, take: 50 }),
    ending ? [] : listRunsInProgress({ workIds: scoped, take: 20 }),
    listRecentEndings({ workIds: scoped, ending, agentFailed, before: filters.before, take: INBOX_PAGE + 1 }),
  ]);
  return {
    works: works.map((w) => ({ id: w.id, name: w.name })),
    decisions,
    inProgress,
    endings: endings.slice(0, INBOX_PAGE),
    nextBefore: endings.length > INBOX_PAGE ? endings[INBOX_PAGE - 1].finishedAt : null,
    filters: { workId: filters.workId, ending: filter },
  };
}
