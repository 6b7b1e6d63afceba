"use client";
// The Checks section of a run: gate chip, "Attempt n of m" with earlier attempts, the agent step, and
// one expandable row per check. Live while the run is queued or running.
import { AGENT_ROW_ID, withAttempt, withOrder, withRowOpen } from "@/lib/pages/run-page-view";
import type { RunJson } from "@/lib/api/run-json";
import { CheckResultList, GroupToggle } from "../checks/check-result-list";
import { GateChip } from "../checks/gate-chip";
import { isStoppedRow } from "@/lib/gates/row-warning";
import { Card, EmptyState } from "../ui/page-parts";
import { AgentStep } from "./agent-step";
import { AttemptSwitcher } from "./attempt-switcher";
import { useChecksView } from "./use-checks-view";
import { useRun } from "./use-run";

function logPageHref(runId: string, n: number, name: string): string {
  return `/runs/${runId}/attempts/${n}/checks/${name}/log`;
}

// On the run page (`isInAddress`) the attempt shown and the rows open are in the address (./use-checks-view.ts).
export function RunChecksPanel({ initial, isInAddress = false }: { initial: RunJson; isInAddress?: boolean }) {
  const { data: run } = useRun(initial);
  const numbers = run.attempts.map((a) => a.n);
  const [view, changeView] = useChecksView(isInAddress, numbers);
  const grouped = view.byKind === true;
  const latest = run.attempts.at(-1);
  const attempt = run.attempts.find((a) => a.n === view.attempt) ?? latest;
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
          {attempt.checks.length > 1 ? (
            <GroupToggle grouped={grouped} onChange={(byKind) => changeView((v) => withOrder(v, byKind))} />
          ) : null}
        </span>
        <AttemptSwitcher
          attempts={run.attempts.map((a) => ({ n: a.n, gate: a.gate }))}
          selected={attempt.n}
          max={run.maxAttempts}
          onSelect={(n) => changeView((v) => withAttempt(v, n, numbers))}
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
      <AgentStep
        // Another attempt's step is another step: its brief starts closed too.
        key={attempt.n}
        attempt={attempt}
        logHref={logPageHref(run.id, attempt.n, AGENT_ROW_ID)}
        isOpen={view.open.includes(AGENT_ROW_ID)}
        onOpenChange={(isOpen) => changeView((v) => withRowOpen(v, AGENT_ROW_ID, isOpen))}
      />
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
          isOpen={(check) => view.open.includes(check.checkId)}
          onOpenChange={(check, isOpen) => changeView((v) => withRowOpen(v, check.checkId, isOpen))}
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
