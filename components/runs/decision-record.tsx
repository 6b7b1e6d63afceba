// Who answered a run's decision, when, and why (their own words, shown as text).
import type { RunJson } from "@/lib/api/run-json";
import { formatDateTime } from "@/lib/format";

function whatWasDecided(decision: string): string {
  if (decision === "accept") return "Accepted as it stands";
  if (decision === "reject") return "Rejected";
  const granted = /^more-attempts:(\d+)$/.exec(decision)?.[1];
  return granted ? `Granted ${granted} more attempt${granted === "1" ? "" : "s"}` : decision;
}

export function DecisionRecord({ run }: { run: RunJson }) {
  if (!run.decision || !run.decidedAt) return null;
  return (
    <section
      aria-label="Decision"
      data-testid="decision-record"
      className="mb-8 rounded-lg border border-zinc-200 bg-white p-4 text-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <p>
        <span className="font-medium">{whatWasDecided(run.decision)}</span> by{" "}
        {run.decidedBy ?? "someone no longer here"} ·{" "}
        <time dateTime={run.decidedAt}>{formatDateTime(run.decidedAt)}</time>
      </p>
      {run.decisionReason ? (
        <blockquote
          className={
            "mt-2 border-l-2 border-zinc-300 pl-3 break-words whitespace-pre-wrap text-zinc-700 " +
            "dark:border-zinc-600 dark:text-zinc-300"
          }
        >
          {run.decisionReason}
        </blockquote>
      ) : (
        <p className="mt-1 text-zinc-600 dark:text-zinc-400">No reason given.</p>
      )}
    </section>
  );
}
