// The audit trail: who, when, what, with a link to what it is about; edits expand to their before and after.
import Link from "next/link";
import type { AuditRecord } from "@/lib/db/audit";
import { formatDateTime } from "@/lib/format";
import { EmptyState, Pill, rowListClass } from "../ui/page-parts";

// What the entry is about, most specific first: its run, else its task, else its Work (one deleted since
// opens a page saying it is not there).
function SubjectLink({ event }: { event: AuditRecord }) {
  const [href, label] = event.runId
    ? [`/runs/${event.runId}`, "Open the run"]
    : event.taskId
      ? [`/tasks/${event.taskId}`, "Open the task"]
      : event.workId
        ? [`/works/${event.workId}`, "Open the Work"]
        : [null, null];
  if (!href) return null;
  return (
    <Link href={href} className="inline-block py-1 text-xs font-medium text-sky-700 hover:underline dark:text-sky-400">
      {label}
    </Link>
  );
}

export function AuditList({ events, emptyTitle }: { events: AuditRecord[]; emptyTitle?: string }) {
  if (events.length === 0) return <EmptyState title={emptyTitle ?? "Nothing recorded yet"} />;
  return (
    <ol aria-label="Audit trail" className={`${rowListClass} text-sm`}>
      {events.map((e) => (
        <li key={e.id} className="px-4 py-2.5">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="w-36 shrink-0 text-xs text-zinc-500 dark:text-zinc-400 tabular-nums">
              {formatDateTime(e.at)}
            </span>
            <Pill>{e.action}</Pill>
            <span className="font-medium">{e.actorLabel}</span>
            <span className="text-zinc-500 dark:text-zinc-400">via {e.via}</span>
            <span className="min-w-0 text-zinc-700 dark:text-zinc-300">{e.summary}</span>
            <SubjectLink event={e} />
          </div>
          {e.before !== null || e.after !== null ? (
            <details className="mt-1 ml-0 sm:ml-39">
              <summary className="cursor-pointer py-1 text-xs text-sky-700 dark:text-sky-400">before / after</summary>
              <div className="mt-1 grid gap-2 sm:grid-cols-2">
                <pre className="overflow-auto rounded bg-rose-50 p-2 font-mono text-xs dark:bg-rose-950/40">
                  {JSON.stringify(e.before, null, 2)}
                </pre>
                <pre className="overflow-auto rounded bg-emerald-50 p-2 font-mono text-xs dark:bg-emerald-950/40">
                  {JSON.stringify(e.after, null, 2)}
                </pre>
              </div>
            </details>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
