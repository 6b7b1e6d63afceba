// What the reader of a run page chose to look at, as its address carries it: the attempt (?attempt=2), the
// check rows they opened (?open=unit,lint) and the rows' order (?order=kind: grouped by kind), so Back, a
// reload and a pasted link show the same. Read leniently: an attempt the run does not have ("0", "99", "x",
// given twice) is no choice (the latest is shown), and an id no check could have is dropped, so a stale or
// mistyped link shows the page rather than an error.
import { attemptNumberOf } from "../gates/attempt-number";

export type RunPageView = {
  // The attempt chosen, one the run has; null: none chosen, the latest is shown (and followed while it runs).
  attempt: number | null;
  // The ids of the check rows open in the attempt shown, in the order they were opened.
  open: string[];
  // The rows grouped by kind (build, test, …); absent: in the order they ran.
  byKind?: true;
};

// The agent step's row, opened and closed like a check's: the id its log is read by (…/checks/_agent/log).
export const AGENT_ROW_ID = "_agent";

export const NO_CHOICE: RunPageView = { attempt: null, open: [] };

// A check's id (lib/gates/check-schema.ts) or a proof row's ("_" and one), and no more rows than an attempt has.
const ROW_ID = /^_?[a-z0-9][a-z0-9-_]{0,40}$/;
const MAX_OPEN = 100;

// The view an address's query asks for, on a run whose attempts are `attempts` (their numbers).
export function runPageViewOf(query: Pick<URLSearchParams, "getAll">, attempts: readonly number[]): RunPageView {
  const asked = query.getAll("attempt");
  const n = asked.length === 1 && asked[0] !== undefined ? attemptNumberOf(asked[0]) : null;
  const ids = query.getAll("open").flatMap((value) => value.split(","));
  const order = query.getAll("order");
  return {
    attempt: n !== null && attempts.includes(n) ? n : null,
    open: [...new Set(ids.filter((id) => ROW_ID.test(id)))].slice(0, MAX_OPEN),
    ...(order.length === 1 && order[0] === "kind" ? { byKind: true as const } : {}),
  };
}

// The query (with its "?", or "" for none) that says `view`, other parameters of `search` kept. The ids are
// written as they are (a row id needs no escaping), so the address reads ?open=unit,lint rather than unit%2Clint.
export function runPageSearchOf(search: string, view: RunPageView): string {
  const others = new URLSearchParams(search);
  others.delete("attempt");
  others.delete("open");
  others.delete("order");
  const open = view.open.filter((id) => ROW_ID.test(id));
  const parts = [
    others.toString(),
    view.attempt === null ? "" : `attempt=${view.attempt}`,
    open.length === 0 ? "" : `open=${open.join(",")}`,
    view.byKind ? "order=kind" : "",
  ].filter(Boolean);
  return parts.length === 0 ? "" : `?${parts.join("&")}`;
}

// The address of run `runId`'s page showing `view`: how a log page leads back to its row (?attempt=1&open=unit).
export function runPageHrefOf(runId: string, view: RunPageView): string {
  return `/runs/${runId}${runPageSearchOf("", view)}`;
}

// The attempt shown: the one chosen, else the latest (null before the first).
export function shownAttemptOf(view: RunPageView, attempts: readonly number[]): number | null {
  return view.attempt ?? attempts.at(-1) ?? null;
}

// Choosing attempt `n`: it is pinned (a later attempt of a live run does not take its place). Another attempt's
// rows are other rows, so they start closed; choosing the attempt already shown keeps its open rows.
export function withAttempt(view: RunPageView, n: number, attempts: readonly number[]): RunPageView {
  return { ...view, attempt: n, open: n === shownAttemptOf(view, attempts) ? view.open : [] };
}

// The rows as they ran, or grouped by kind (kept across attempts: it is how the reader reads them).
export function withOrder(view: RunPageView, byKind: boolean): RunPageView {
  const { byKind: _, ...rest } = view;
  return byKind ? { ...rest, byKind: true } : rest;
}

// Opening or closing the row `id` of the attempt shown.
export function withRowOpen(view: RunPageView, id: string, isOpen: boolean): RunPageView {
  const others = view.open.filter((open) => open !== id);
  return { ...view, open: isOpen ? [...others, id] : others };
}
