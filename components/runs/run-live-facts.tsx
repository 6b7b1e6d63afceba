"use client";
// The facts of a run's header that change while it runs (its start commit, its spend, the attempts
// used), kept live from the same polled run as the Checks panel, so they never disagree with it.
import { useEffect, useState } from "react";
import type { RunJson } from "@/lib/api/run-json";
import { isRunLive } from "@/lib/api/run-json";
import { formatDuration, shortCommit } from "@/lib/format";
import { formatUsd } from "@/lib/gates/usd-budget";
import { CommitIcon } from "../ui/icons";
import { useRun } from "./use-run";

export function RunFromCommit({ initial }: { initial: RunJson }) {
  const { data: run } = useRun(initial);
  return (
    <span className="inline-flex items-center gap-1" data-testid="run-from">
      <CommitIcon /> from{" "}
      {run.startCommit ? (
        <code className="font-mono">{shortCommit(run.startCommit)}</code>
      ) : (
        <span>the base branch (commit not resolved yet)</span>
      )}
    </span>
  );
}

// While the run is live its spend grows between the runner's writes: the clock since it started is shown.
export function RunSpent({ initial }: { initial: RunJson }) {
  const { data: run } = useRun(initial);
  const isLive = isRunLive(run);
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    if (!isLive) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [isLive]);
  const startedAt = run.startedAt ? Date.parse(run.startedAt) : null;
  const budget = run.budgetSec ? ` of ${run.budgetSec}s budget` : "";
  if (isLive)
    return (
      <span data-testid="run-spent">
        {!startedAt
          ? "not started yet"
          : now
            ? `running for ${formatDuration(Math.max(0, now - startedAt))}`
            : "running"}
        {budget ? ` · spent ${formatDuration(run.spentMs)}${budget}` : ""}
      </span>
    );
  // Two clocks: from the run's start to its end (what its task's history shows), and the time its agent and
  // checks ran (what a budget counts; waiting between attempts and Gatehouse's own steps are not in it).
  const finishedAt = run.finishedAt ? Date.parse(run.finishedAt) : null;
  return (
    <span data-testid="run-spent">
      {startedAt && finishedAt ? `took ${formatDuration(finishedAt - startedAt)} · ` : ""}
      agent and checks {formatDuration(run.spentMs)}
      {budget}
    </span>
  );
}

// The agent CLI's reported cost against the run's USD budget (shown only when the run has one).
export function RunAgentCost({ initial }: { initial: RunJson }) {
  const { data: run } = useRun(initial);
  if (run.budgetUsd === null) return null;
  return (
    <span data-testid="run-agent-cost">
      agent cost {formatUsd(run.spentUsd)} of {formatUsd(run.budgetUsd)} budget
    </span>
  );
}

export function AttemptsUsed({ initial }: { initial: RunJson }) {
  const { data: run } = useRun(initial);
  return (
    <span data-testid="attempts-used">
      {run.attempts.length} of {run.maxAttempts} attempts
    </span>
  );
}
