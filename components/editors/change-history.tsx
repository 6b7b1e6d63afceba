// Every saved change to checks and policy: who, when, and a readable before/after.
import type { AuditRecord } from "@/lib/db/audit";
import { diffSettings } from "@/lib/gates/settings-diff";
import { formatDateTime } from "@/lib/format";
import { EmptyState } from "../ui/page-parts";
import { DiffLines } from "./diff-lines";

export function ChangeHistory({ events }: { events: AuditRecord[] }) {
  if (events.length === 0) return <EmptyState title="No changes saved yet" />;
  return (
    <ol aria-label="Change history" className="space-y-2">
      {events.map((e) => (
        <li key={e.id}>
          <details className="rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
            <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5 text-sm">
              <span className="text-xs text-zinc-500 dark:text-zinc-400 tabular-nums">{formatDateTime(e.at)}</span>
              <span className="font-medium">{e.actorLabel}</span>
              <span className="text-zinc-600 dark:text-zinc-400">{e.summary}</span>
            </summary>
            <div className="border-t border-zinc-200 px-4 py-3 dark:border-zinc-800">
              <DiffLines
                lines={diffSettings(
                  e.before as Record<string, unknown> | null,
                  e.after as Record<string, unknown> | null,
                )}
              />
            </div>
          </details>
        </li>
      ))}
    </ol>
  );
}
