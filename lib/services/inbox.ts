// What the start page shows a delivery owner: decisions first, then what is running, then endings.
import type { Actor } from "../auth/actor";
import { listRecentEndings, listRunsInProgress, listRunsNeedingDecision } from "../db/inbox";
import { ENDINGS, type Ending } from "../gates/run-ending";
import { listVisibleWorks } from "./works";

const INBOX_PAGE = 25;

export type InboxFilters = { workId?: string; ending?: string; before?: Date };

const isEnding = (value: string): value is Ending => (ENDINGS as readonly string[]).includes(value);

export async function loadInbox(actor: Actor, filters: InboxFilters) {
  const works = await listVisibleWorks(actor);
  // The Works listed are exactly those the actor has a role on (all of them for admins).
  const visible = actor.isAdmin ? null : actor.userId ? works.map((w) => w.id) : [];
  const scoped = filters.workId
    ? visible === null || visible.includes(filters.workId)
      ? [filters.workId]
      : []
    : visible;
  const ending = filters.ending && isEnding(filters.ending) ? filters.ending : undefined;
  // The ending filter applies to every list, so what the page says agrees: runs waiting for a decision
  // are partial, and runs in progress have no ending yet.
  const [decisions, inProgress, endings] = await Promise.all([
    ending && ending !== "partial" ? [] : listRunsNeedingDecision({ workIds: scoped, take: 50 }),
    ending ? [] : listRunsInProgress({ workIds: scoped, take: 20 }),
    listRecentEndings({ workIds: scoped, ending, before: filters.before, take: INBOX_PAGE + 1 }),
  ]);
  return {
    works: works.map((w) => ({ id: w.id, name: w.name })),
    decisions,
    inProgress,
    endings: endings.slice(0, INBOX_PAGE),
    nextBefore: endings.length > INBOX_PAGE ? endings[INBOX_PAGE - 1].finishedAt : null,
    filters: { workId: filters.workId, ending },
  };
}
