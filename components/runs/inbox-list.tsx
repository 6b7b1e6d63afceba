// Rows of runs across Works for the inbox: what ended how, where, and when.
import Link from "next/link";
import type { InboxRun } from "@/lib/db/inbox";
import { GateChip } from "../checks/gate-chip";
import { TimeAgo } from "../ui/time-ago";
import { AgentCaveatChip, EndingBadge, describeEndingReason } from "./ending-badge";
import { agentCaveatOf } from "@/lib/gates/agent-note";
import { rowListClass } from "../ui/page-parts";

export function InboxList({ runs, label }: { runs: InboxRun[]; label: string }) {
  return (
    <ol aria-label={label} className={rowListClass}>
      {runs.map((run) => (
        <InboxRow key={run.id} run={run} />
      ))}
    </ol>
  );
}

function InboxRow({ run }: { run: InboxRun }) {
  const caveat = agentCaveatOf(run.agentCaveat);
  return (
    <li>
      <Link
        href={`/runs/${run.id}`}
        className={
          "grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-1 px-4 py-3 " +
          "hover:bg-zinc-50 sm:grid-cols-[8.5rem_minmax(0,1fr)_8rem_6rem] " +
          "dark:hover:bg-zinc-800/50"
        }
      >
        <span className="order-2 sm:order-none">
          <EndingBadge status={run.status} ending={run.ending} isSuperseded={!!run.supersededById} />
        </span>
        <span className="min-w-0">
          {/* Two lines on a phone, where the title shares its row with the ending: one, cut, on a wider screen. */}
          <span className="line-clamp-2 [overflow-wrap:anywhere] sm:line-clamp-1">
            <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{run.task.key}</span>{" "}
            <span className="font-medium">{run.task.title}</span>
          </span>
          {/* Wrapped on a phone, where the gate and the time have no column of their own. */}
          <span className="block text-xs text-zinc-500 [overflow-wrap:anywhere] sm:truncate dark:text-zinc-400">
            {/* In the title's column: the ending's is too narrow for it. */}
            {caveat ? (
              <span className="mr-1.5">
                <AgentCaveatChip caveat={caveat} />
              </span>
            ) : null}
            {run.work.name} · run #{run.number} · {run.attemptCount} of {run.maxAttempts} attempts
            {run.endingReason ? <> · {describeEndingReason(run.endingReason)}</> : null}
          </span>
          <span className="mt-1 flex items-center gap-2 text-xs text-zinc-500 sm:hidden dark:text-zinc-400">
            <GateChip gate={run.gate} ending={run.ending} size="sm" />
            <TimeAgo date={run.finishedAt ?? run.createdAt} />
          </span>
        </span>
        <span className="hidden sm:block">
          <GateChip gate={run.gate} ending={run.ending} size="sm" />
        </span>
        <span className="hidden text-right text-xs text-zinc-500 sm:block dark:text-zinc-400">
          <TimeAgo date={run.finishedAt ?? run.createdAt} />
        </span>
      </Link>
    </li>
  );
}

export function DecisionCards({ runs }: { runs: InboxRun[] }) {
  return (
    <ul aria-label="Runs needing a decision" className="grid grid-cols-[minmax(0,1fr)] gap-3 md:grid-cols-2">
      {runs.map((run) => (
        <li
          key={run.id}
          className={
            "relative h-full rounded-lg border border-amber-300 bg-amber-50 p-4 shadow-sm " +
            "transition hover:border-amber-400 hover:shadow has-[a:focus-visible]:outline-2 " +
            "has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-sky-500 " +
            "dark:border-amber-700/60 dark:bg-amber-950/40"
          }
        >
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <div className="font-mono text-xs text-amber-800 dark:text-amber-300">
                {run.task.key} · run #{run.number}
              </div>
              <div className="truncate font-medium text-amber-950 dark:text-amber-50">
                {/* The title is the link, stretched over the whole card; its name starts with what it shows. */}
                <Link
                  href={`/runs/${run.id}`}
                  aria-label={`Decide ${run.task.key} run #${run.number}: ${run.task.title}`}
                  className="outline-none after:absolute after:inset-0 after:rounded-lg"
                >
                  {run.task.title}
                </Link>
              </div>
            </div>
            <GateChip gate={run.gate} ending={run.ending} size="sm" />
          </div>
          {run.onStage ? (
            <p className="mt-2 text-sm font-medium break-words text-amber-950 dark:text-amber-50">
              Stuck at stage {run.onStage.stage.name} after {run.attemptCount}{" "}
              {run.attemptCount === 1 ? "attempt" : "attempts"}{" "}
              <span className="font-normal text-amber-800 dark:text-amber-300/90">(lane {run.onStage.lane.name})</span>
            </p>
          ) : null}
          <p className="mt-2 text-sm break-words text-amber-900 dark:text-amber-200">{run.endingReason}</p>
          {run.redChecks.length > 0 ? (
            <p className="mt-1 text-sm break-words text-amber-900 dark:text-amber-200">
              Red: {run.redChecks.map((c) => `${c.name} (${c.verdict})`).join(", ")}
            </p>
          ) : null}
          <p className="mt-2 text-xs text-amber-800 dark:text-amber-300/90">
            {run.work.name} · best attempt {run.bestAttempt ?? "—"} · ended{" "}
            {run.finishedAt ? <TimeAgo date={run.finishedAt} /> : "—"}
          </p>
        </li>
      ))}
    </ul>
  );
}
