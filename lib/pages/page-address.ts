// The objects a page's address names, read from the path alone: proxy.ts asks whether they exist before the
// page starts streaming (lib/services/page-objects.ts). Pages of one Work, task or run; nothing else.
import type { PageObjects } from "../services/page-objects";

// `pathname` as the request carries it (percent-encoded; proxy.ts has refused one that does not decode).
export function pageObjectsOf(pathname: string): PageObjects | null {
  const [first, id, ...rest] = pathname.split("/").slice(1).map(decodeURIComponent);
  if (!id) return null;
  // /works/:workId/settings/:section names a section of its settings as well.
  if (first === "works")
    return rest[0] === "settings" && rest.length === 2 && rest[1]
      ? { kind: "work", workId: id, section: rest[1] }
      : { kind: "work", workId: id };
  if (first === "tasks") return { kind: "task", taskId: id };
  if (first !== "runs") return null;
  // /runs/:runId/attempts/:n/checks/:checkId/log, the one page below a run.
  const [attempts, attempt, checks, check, log, ...more] = rest;
  if (attempts === "attempts" && attempt && checks === "checks" && check && log === "log" && more.length === 0)
    return { kind: "run", runId: id, attempt, check };
  return { kind: "run", runId: id };
}
