"use client";
// The Checks section of a run: gate chip, "Attempt n of m" with earlier attempts, the agent step, and
// one expandable row per check. Live while the run is queued or running.
import { useState } from "react";
import type { RunJson } from "@/lib/api/run-json";
import { CheckResultList, GroupToggle } from "../checks/check-result-list";
import { GateChip } from "../checks/gate-chip";
import { isStoppedRow } from "@/lib/gates/row-warning";
import { Card, EmptyState } from "../ui/page-parts";
import { AgentStep } from "./agent-step";
import { AttemptSwitcher } from "./attempt-switcher";
import { useRun } from "./use-run";

function logPageHref(runId: string, n: number, name: string): string {
  return `/runs/${runId}/attempts/${n}/checks/${name}/log`;
}

// On the run page the attempt shown is in the address (?attempt=2, given as `attempt`), so it can be
// linked to; elsewhere (`attempt` left out) the address stays as it is.
export function RunChecksPanel({ initial, attempt: linked }: { initial: RunJson; attempt?: number | null }) {
  const { data: run } = useRun(initial);
  const [picked, setPicked] = useState<number | null>(linked ?? null);
  const pick = (n: number) => {
    setPicked(n);
    if (linked === undefined) return;
    const url = new URL(window.location.href);
    url.searchParams.set("attempt", String(n));
    window.history.replaceState(null, "", `${url.pathname}${url.search}${url.hash}`);
  };
  const [grouped, setGrouped] = useState(false);
  const latest = run.attempts.at(-1);
  const attempt = run.attempts.find((a) => a.n === picked) ?? latest;
  if (!attempt) return <EmptyState title="No attempt yet" />;
  const gate = attempt.gate;
  return (
    <Card className="overflow-hidden" data-testid="run-checks">
      <div
        className={
          "flex flex-wrap items-center justify-between gap-3 border-b border-zinc-200 px-4 " +
          "py-3 dark:border-zinc-800"
        }
      >
        <span className="flex flex-wrap items-center gap-3">
          <GateChip
            gate={gate}
            ending={attempt === latest ? run.ending : null}
            isNothingRequired={run.nothingRequired}
          />
          {attempt.checks.length > 1 ? <GroupToggle grouped={grouped} onChange={setGrouped} /> : null}
        </span>
        <AttemptSwitcher
          attempts={run.attempts.map((a) => ({ n: a.n, gate: a.gate }))}
          selected={attempt.n}
          max={run.maxAttempts}
          onSelect={pick}
        />
      </div>
      {attempt.noChangeSince ? (
        <p
          role="note"
          className={
            "border-b border-zinc-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 " +
            "dark:border-zinc-800 dark:bg-amber-950/60 dark:text-amber-200"
          }
        >
          No change since attempt {attempt.noChangeSince}: the agent changed nothing, so the checks were not run again.
          The results below are attempt {attempt.noChangeSince}&apos;s; this attempt still counts toward the budget.
        </p>
      ) : null}
      <AgentStep attempt={attempt} logHref={logPageHref(run.id, attempt.n, "_agent")} />
      {attempt.reportNotes.length > 0 ? (
        <div
          role="note"
          data-testid="report-notes"
          className={
            "border-b border-zinc-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 " +
            "dark:border-zinc-800 dark:bg-amber-950/60 dark:text-amber-200"
          }
        >
          <p className="font-medium">Dropped from the agent&apos;s report:</p>
          <ul className="list-disc pl-5">
            {attempt.reportNotes.map((note) => (
              <li key={note} className="break-words">
                {note}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {attempt.checks.length === 0 ? (
        <p className="px-4 py-6 text-sm text-zinc-500 dark:text-zinc-400">
          {attempt.status === "finished" ? "No checks ran in this attempt." : "Checks start after the agent step."}
        </p>
      ) : (
        <CheckResultList
          results={attempt.checks}
          grouped={grouped}
          label={`Checks of attempt ${attempt.n}`}
          rowKey={(check) => `${attempt.n}-${check.checkId}`}
          hrefFor={(check) =>
            check.verdict === "queued" ||
            (check.verdict === "skipped" && !isStoppedRow(check)) ||
            check.executor === "agent" ||
            (check.hidden && !run.seesHidden)
              ? null
              : logPageHref(run.id, check.logAttempt, check.checkId)
          }
        />
      )}
    </Card>
  );
}
