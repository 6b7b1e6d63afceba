// The objects a page's address names, read from the path and the query: proxy.ts asks whether they exist (and
// are the reader's to see) before the page starts streaming (lib/services/page-objects.ts). Pages of one Work,
// task or run, the admins' pages and the audit trail; nothing else.
import type { PageObjects } from "../services/page-objects";
import { pageTextParam } from "./query-params";

// `pathname` as the request carries it (percent-encoded; proxy.ts has refused one that does not decode).
export function pageObjectsOf(pathname: string, query = new URLSearchParams()): PageObjects | null {
  const [first, id, ...rest] = pathname.split("/").slice(1).map(decodeURIComponent);
  // /audit: the whole trail, or one Work's (?workId=, read as the page reads it).
  if (first === "audit") return id ? null : { kind: "audit", workId: pageTextParam(queryParam(query, "workId")) };
  if (!id) return null;
  // /admin/users, /admin/workers: an admin's pages.
  if (first === "admin") return { kind: "admin" };
  // /works/:workId/settings/:section names a section of its settings as well.
  if (first === "works")
    return rest[0] === "settings" && rest.length === 2 && rest[1]
      ? { kind: "work", workId: id, section: rest[1] }
      : { kind: "work", workId: id };
  if (first === "tasks") return { kind: "task", taskId: id };
  if (first !== "runs") return null;
  // /runs/:runId: the run alone. Its ?attempt= is the reader's choice, read leniently by the page (an attempt the
  // run does not have shows the latest: lib/pages/run-page-view.ts), so it names no object here.
  if (rest.length === 0) return { kind: "run", runId: id };
  // /runs/:runId/attempts/:n/checks/:checkId/log, the one page below a run.
  const [attempts, attempt, checks, check, log, ...more] = rest;
  if (attempts === "attempts" && attempt && checks === "checks" && check && log === "log" && more.length === 0)
    return { kind: "run", runId: id, attempt, check };
  return { kind: "run", runId: id };
}

// A query parameter as a page's searchParams holds it: a string, or every value when it is given more than once.
function queryParam(query: URLSearchParams, name: string): string | string[] | undefined {
  const values = query.getAll(name);
  return values.length > 1 ? values : values[0];
}
