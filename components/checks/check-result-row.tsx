"use client";
// One check of an attempt: name, id, kind, required, test counts, verdict, exit code, duration, message; the
// row expands (click, Enter or Space) to the log tail.
import { ShownText } from "@/components/logs/shown-text";
import { onDetailsToggle } from "@/components/ui/details-toggle";
import { formatDuration } from "@/lib/format";
import type { Verdict } from "@/lib/gates/gate";
import type { TestCase } from "@/lib/gates/junit";
import type { TestCounts } from "@/lib/gates/test-summary";
import { LogTail } from "../logs/log-tail";
import { ChevronRightIcon } from "../ui/icons";
import { KindLabel, RequiredLabel } from "./kind-label";
import { TestCountsLabel } from "./test-counts";
import { FailedTests } from "./failed-tests";
import { FlakyLabel } from "./flaky-label";
import { VerdictBadge } from "./verdict-badge";
import { isStoppedRow } from "@/lib/gates/row-warning";

export type CheckResultView = {
  checkId: string;
  name: string;
  kind: string;
  required: boolean;
  verdict: Verdict;
  exitCode: number | null;
  durationMs: number | null;
  message: string | null;
  logTail: string | null;
  logBytes: number | null;
  logNote: string | null;
  tests: TestCounts | null;
  logAttempt: number;
  // Passed after failing on the same commit.
  flaky?: boolean;
  // Why the row warns while its verdict stands ("no test summary seen: …"); the failed tests and the tests
  // flagged flaky of its JUnit reports.
  warning?: string | null;
  failedTests?: TestCase[];
  flakyTests?: string[];
  // Who ran it (absent: not known here), and whether it is held out from the agent.
  executor?: "platform" | "agent";
  hidden?: boolean;
};

// isWarning: a reports-only row that did not pass (shown amber, "Warning", whatever the run's ending). isOpen is
// kept by the list (the run page's address); the row says when the reader opens or closes it.
export function CheckResultRow({
  result,
  fullLogHref,
  isWarning = false,
  isOpen,
  onOpenChange,
}: {
  result: CheckResultView;
  fullLogHref: string | null;
  isWarning?: boolean;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
}) {
  // A check the stop cut short ran for a while: its row says "Stopped" and has its log, unlike one never started.
  const isStopped = isStoppedRow(result);
  const hasLog =
    result.verdict !== "queued" && (result.verdict !== "skipped" || isStopped) && result.executor !== "agent";
  // A held-out check's command and log are for leads: others get its name and verdict.
  const isWithheld = !!result.hidden && hasLog && fullLogHref === null;
  return (
    <li data-check-id={result.checkId} className="group">
      {/* Open, the row shows its whole message (closed, it is cut to one line). */}
      <details
        open={isOpen}
        onToggle={onDetailsToggle(isOpen, onOpenChange)}
        className={
          "[&[open]>summary_.chevron]:rotate-90 [&[open]>summary_.message]:whitespace-pre-wrap " +
          "[&[open]>summary_.message]:[overflow-wrap:anywhere]"
        }
      >
        {/* Named by its content (name, id, kind, message, exit, duration, verdict): all it shows, in order. */}
        <summary
          className={
            "grid cursor-pointer list-none grid-cols-[auto_minmax(0,1fr)_auto] items-center " +
            "gap-x-3 gap-y-1 px-4 py-3 hover:bg-zinc-50 " +
            "sm:grid-cols-[auto_minmax(0,1.4fr)_minmax(0,2fr)_auto_auto_auto] " +
            "dark:hover:bg-zinc-800/50 [&::-webkit-details-marker]:hidden " +
            // Drawn inside the row: the list's rounded, clipped frame would cut an outline drawn outside it.
            "focus-visible:-outline-offset-2"
          }
        >
          <ChevronRightIcon className="chevron text-zinc-400 transition-transform" />
          <span className="min-w-0">
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <span className="font-medium [overflow-wrap:anywhere]">{result.name}</span>
              <code className="text-xs text-zinc-500 dark:text-zinc-400">{result.checkId}</code>
              <KindLabel kind={result.kind} />
              <RequiredLabel required={result.required} />
              {result.tests ? <TestCountsLabel tests={result.tests} /> : null}
              {result.flaky ? <FlakyLabel /> : null}
              {result.executor ? (
                <span className="text-xs text-zinc-500 dark:text-zinc-400">
                  {result.executor === "agent" ? "reported by the agent" : "run by Gatehouse"}
                </span>
              ) : null}
              {result.hidden ? (
                <span className="rounded bg-zinc-100 px-1.5 text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
                  held out
                </span>
              ) : null}
              {result.flakyTests?.length ? (
                <span className="text-xs text-amber-900 dark:text-amber-200" title={result.flakyTests.join("\n")}>
                  {result.flakyTests.length} flaky test{result.flakyTests.length === 1 ? "" : "s"}
                </span>
              ) : null}
            </span>
            {result.warning ? (
              <span
                data-testid="row-warning"
                className="mt-1 block text-xs break-words text-amber-900 dark:text-amber-200"
              >
                Warning: {result.warning}
              </span>
            ) : null}
          </span>
          <span
            className={
              "message col-span-3 col-start-2 row-start-2 truncate font-mono text-xs text-zinc-600 " +
              "sm:col-span-1 sm:col-start-auto sm:row-start-auto dark:text-zinc-400"
            }
            title={result.message ?? undefined}
          >
            <ShownText text={result.message ?? ""} />
          </span>
          <span
            className="hidden text-right font-mono text-xs text-zinc-600 tabular-nums sm:block dark:text-zinc-400"
            title="exit code"
          >
            {result.exitCode === null ? "" : `exit ${result.exitCode}`}
          </span>
          <span className="hidden w-16 text-right text-xs text-zinc-500 tabular-nums sm:block dark:text-zinc-400">
            {formatDuration(result.durationMs)}
          </span>
          <span className="col-start-3 row-start-1 justify-self-end sm:col-start-auto sm:row-start-auto">
            <VerdictBadge verdict={result.verdict} isWarning={isWarning} isStopped={isStopped} />
          </span>
          {/* On a phone, where they have no column: under the message, in the row itself. */}
          {result.exitCode !== null || result.durationMs !== null ? (
            <span
              data-testid="row-exit-and-time"
              className={
                "col-span-2 col-start-2 row-start-3 font-mono text-xs text-zinc-500 sm:hidden dark:text-zinc-400"
              }
            >
              {[
                result.exitCode === null ? null : `exit ${result.exitCode}`,
                result.durationMs === null ? null : formatDuration(result.durationMs),
              ]
                .filter(Boolean)
                .join(" · ")}
            </span>
          ) : null}
        </summary>
        <div className="border-t border-zinc-100 px-4 py-3 dark:border-zinc-800">
          {isWarning ? (
            <p className="mb-2 text-xs text-amber-900 dark:text-amber-200">
              {result.verdict}, but this check only reports: it does not decide the gate.
            </p>
          ) : null}
          {result.failedTests?.length && !isWithheld ? (
            <FailedTests tests={result.failedTests} failedCount={result.tests?.failed ?? result.failedTests.length} />
          ) : null}
          {isWithheld ? (
            <p className="text-sm text-zinc-500 dark:text-zinc-400">
              Held out from the agent: its command and log are shown to leads.
            </p>
          ) : hasLog ? (
            <LogTail
              text={result.logTail}
              totalBytes={result.logBytes}
              note={result.logNote}
              fullLogHref={fullLogHref}
              isLive={result.verdict === "running"}
              isFailed={result.verdict === "failed" || result.verdict === "hollow" || result.verdict === "timeout"}
            />
          ) : (
            <p className="text-sm text-zinc-500 dark:text-zinc-400">{result.message ?? "Not run yet."}</p>
          )}
        </div>
      </details>
    </li>
  );
}
