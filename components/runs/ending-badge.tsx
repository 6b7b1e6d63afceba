// How a run ended (or where it stands): the next move for a delivery owner.
import type { Ending, RunStatus } from "@/lib/gates/run-ending";
import { AGENT_CAVEAT_LABELS, agentCaveatOf, type AgentCaveat } from "@/lib/gates/agent-note";

const ENDING: Record<Ending, { label: string; className: string }> = {
  accepted: {
    label: "Accepted",
    className: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  },
  partial: { label: "Partial", className: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-300" },
  rejected: { label: "Rejected", className: "bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300" },
  inconclusive: {
    label: "Inconclusive",
    className: "bg-fuchsia-100 text-fuchsia-800 dark:bg-fuchsia-950 dark:text-fuchsia-300",
  },
};

const STATUS: Record<Exclude<RunStatus, "finished">, { label: string; className: string }> = {
  queued: { label: "Queued", className: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300" },
  running: { label: "Running", className: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300" },
  waiting: {
    label: "Waiting for a fix",
    className: "bg-orange-100 text-orange-800 dark:bg-orange-950 dark:text-orange-300",
  },
};

// A run in progress as words ("Waiting for a fix"), as its badge says it.
export function runStatusLabel(status: Exclude<RunStatus, "finished">): string {
  return STATUS[status].label;
}

export function EndingBadge({
  status,
  ending,
  needsDecision = false,
  isSuperseded = false,
  agentCaveat = null,
}: {
  status: RunStatus;
  ending: Ending | null;
  needsDecision?: boolean;
  // A newer accepted run of the task made this one's decision moot.
  isSuperseded?: boolean;
  // An accepted run whose agent did not pass (Run.agentCaveat, as stored).
  agentCaveat?: string | null;
}) {
  // Only an accepted run has one (the runner writes it with the ending).
  const caveat = agentCaveatOf(agentCaveat);
  const look =
    status === "finished" && ending
      ? ENDING[ending]
      : STATUS[(status === "finished" ? "queued" : status) as keyof typeof STATUS];
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span
        data-ending={ending ?? status}
        className={`inline-flex rounded-md px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${look.className}`}
      >
        {look.label}
      </span>
      {isSuperseded ? (
        <span
          className={
            "rounded-md bg-zinc-200 px-2 py-0.5 text-xs font-semibold text-zinc-800 " +
            "dark:bg-zinc-700 dark:text-zinc-100"
          }
        >
          Superseded
        </span>
      ) : null}
      {caveat ? <AgentCaveatChip caveat={caveat} /> : null}
      {needsDecision ? (
        <span className="rounded-md bg-amber-500 px-2 py-0.5 text-xs font-semibold text-amber-950">
          Decision needed
        </span>
      ) : null}
    </span>
  );
}

const CAVEAT_TITLES: Record<AgentCaveat, string> = {
  "agent-failed": "Accepted, but the agent did not pass (it failed, ran out of time or errored)",
  "agent-failed-no-change":
    "Accepted, but the agent did not pass and changed nothing: what was judged is the code as it was before the task",
};

// Beside the ending badge, or on its own where the badge's column is too narrow (the inbox's rows).
export function AgentCaveatChip({ caveat }: { caveat: AgentCaveat }) {
  return (
    <span
      data-agent-caveat={caveat}
      title={CAVEAT_TITLES[caveat]}
      className={
        "rounded-md px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset " +
        "bg-amber-50 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800"
      }
    >
      {AGENT_CAVEAT_LABELS[caveat]}
    </span>
  );
}

export function describeEndingReason(reason: string | null): string | null {
  if (reason === "interrupted") return "interrupted: the server stopped during the run";
  return reason;
}
