// A task's runs, newest first, paged.
import Link from "next/link";
import type { RunSummary } from "@/lib/db/run-history";
import { formatDuration } from "@/lib/format";
import { GateChip } from "../checks/gate-chip";
import { TimeAgo } from "../ui/time-ago";
import { EndingBadge } from "./ending-badge";

export function RunHistory({ runs, olderHref }: { runs: RunSummary[]; olderHref: string | null }) {
  return (
    <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <ol className="divide-y divide-zinc-200 dark:divide-zinc-800" aria-label="Runs">
        {runs.map((run) => (
          <li key={run.id}>
            <Link
              href={`/runs/${run.id}`}
              className={
                "grid grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-3 px-4 py-2.5 text-sm " +
                "hover:bg-zinc-50 sm:grid-cols-[4rem_8rem_minmax(0,1fr)_7rem_6rem] " +
                "dark:hover:bg-zinc-800/50"
              }
            >
              <span className="font-medium tabular-nums">#{run.number}</span>
              <span className="hidden sm:block">
                <GateChip gate={run.gate} ending={run.ending} size="sm" />
              </span>
              <span className="min-w-0 truncate">
                <EndingBadge
                  status={run.status}
                  ending={run.ending}
                  needsDecision={run.needsDecision}
                  agentCaveat={run.agentCaveat}
                />
                <span className="ml-2 text-xs text-zinc-500 dark:text-zinc-400">
                  {run.attemptCount} of {run.maxAttempts} attempts
                </span>
              </span>
              <span className="hidden text-xs text-zinc-500 sm:block dark:text-zinc-400">
                <TimeAgo date={run.createdAt} />
              </span>
              <span
                className="text-right text-xs text-zinc-500 tabular-nums dark:text-zinc-400"
                title="From the run's start to its end"
              >
                {run.startedAt && run.finishedAt
                  ? formatDuration(run.finishedAt.getTime() - run.startedAt.getTime())
                  : ""}
              </span>
            </Link>
          </li>
        ))}
      </ol>
      {olderHref ? (
        <div className="border-t border-zinc-200 px-4 py-2 text-right text-sm dark:border-zinc-800">
          <Link
            href={olderHref}
            className="inline-block py-0.5 font-medium text-sky-700 hover:underline dark:text-sky-400"
          >
            Older runs →
          </Link>
        </div>
      ) : null}
    </div>
  );
}
