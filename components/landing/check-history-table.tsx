// Per check id: how often it ran and passed, how long it takes (median, p95), how often it was flaky, and
// its last 30 results as a strip of cells, oldest to newest, each a link to its run.
import Link from "next/link";
import type { CheckStripCell } from "@/lib/db/check-stats";
import type { TestHistory } from "@/lib/gates/junit";
import type { CheckHistory } from "@/lib/services/check-history";
import { formatDuration } from "@/lib/format";

const CELL: Record<string, string> = {
  passed: "bg-emerald-500 dark:bg-emerald-400",
  failed: "bg-rose-600 dark:bg-rose-400",
  hollow: "bg-violet-600 dark:bg-violet-400",
  timeout: "bg-amber-500 dark:bg-amber-400",
  error: "bg-fuchsia-600 dark:bg-fuchsia-400",
};

// A failure of a check that reports only is a warning (as on the run page), not a red cell.
const WARNING_CELL = "bg-amber-300 dark:bg-amber-200";
const cellColour = (c: CheckStripCell) =>
  !c.required && c.verdict === "failed" ? WARNING_CELL : (CELL[c.verdict] ?? "bg-zinc-400");
const cellWords = (c: CheckStripCell) =>
  `${c.taskKey} run #${c.runNumber} attempt ${c.n}: ${c.verdict}${c.required ? "" : " (reports only)"}`;

function Strip({ cells }: { cells: CheckStripCell[] }) {
  return (
    <ol className="flex flex-wrap gap-0.5" aria-label={`last ${cells.length} results, oldest first`}>
      {[...cells].reverse().map((c) => (
        <li key={`${c.runId}-${c.n}`}>
          <Link
            href={`/runs/${c.runId}`}
            aria-label={`${cellWords(c)}${c.flaky ? ", flaky" : ""}`}
            title={`${cellWords(c)}${c.flaky ? " (flaky)" : ""}`}
            data-verdict={c.verdict}
            data-required={c.required}
            className={
              `block h-5 w-2.5 rounded-sm ${cellColour(c)} ` +
              `${c.flaky ? "ring-2 ring-amber-400 ring-offset-1 dark:ring-offset-zinc-900" : ""} ` +
              `hover:opacity-75 focus-visible:outline-2 focus-visible:outline-sky-500`
            }
          />
        </li>
      ))}
    </ol>
  );
}

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

// Per-test pass rates from the check's JUnit reports: the tests that did not always pass, worst first.
function TestRates({ tests }: { tests: TestHistory }) {
  return (
    <details className="mt-1 text-xs" data-testid="test-rates">
      <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">
        {tests.tests} tests over {tests.results} results ·{" "}
        {tests.unsteady.length === 0 ? "all passed every time" : `${tests.unsteady.length} not always passing`}
      </summary>
      {tests.unsteady.length > 0 ? (
        <ul aria-label="Tests that did not always pass" className="mt-1 space-y-0.5">
          {tests.unsteady.map((t) => (
            <li key={t.key} className="flex gap-2">
              <span className="w-12 shrink-0 text-right tabular-nums">{percent(t.passRate)}</span>
              <span className="min-w-0 break-words" title={t.key}>
                {t.name}
                <span className="text-zinc-500 dark:text-zinc-400">
                  {" "}
                  ({t.passed}/{t.runs}
                  {t.flaky > 0 ? `, ${t.flaky} flaky` : ""})
                </span>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}

export function CheckHistoryTable({ checks }: { checks: CheckHistory[] }) {
  return (
    <>
      {/* On a phone the table is wider than the screen: said, since nothing else shows that it scrolls. */}
      <p className="mb-2 text-xs text-zinc-600 sm:hidden dark:text-zinc-400">
        Swipe the table sideways for durations, flaky runs and the last results.
      </p>
      <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-zinc-200 text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                Check
              </th>
              {/* Every attempt runs its checks again: the count is of times the check ran, not of runs. */}
              <th
                scope="col"
                className="whitespace-nowrap px-3 py-2 text-right font-medium"
                title="Times the check ran to a verdict: each attempt of a run counts"
              >
                Times run
              </th>
              <th scope="col" className="whitespace-nowrap px-3 py-2 text-right font-medium">
                Pass rate
              </th>
              <th scope="col" className="whitespace-nowrap px-3 py-2 text-right font-medium">
                Median
              </th>
              <th scope="col" className="whitespace-nowrap px-3 py-2 text-right font-medium">
                p95
              </th>
              <th scope="col" className="whitespace-nowrap px-3 py-2 text-right font-medium">
                Flaky
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Last results
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
            {checks.map((c) => (
              <tr key={c.checkId} data-check-id={c.checkId}>
                <th scope="row" className="min-w-44 px-4 py-3 font-normal">
                  <span className="block font-medium">{c.name}</span>
                  <code className="text-xs text-zinc-600 dark:text-zinc-400">{c.checkId}</code>
                  {c.last[0] && !c.last[0].required ? (
                    <span
                      className="ml-2 text-xs text-amber-700 dark:text-amber-300"
                      title="Its failures are warnings: they do not turn the gate red"
                    >
                      reports only
                    </span>
                  ) : null}
                  {c.tests ? <TestRates tests={c.tests} /> : null}
                </th>
                <td className="whitespace-nowrap px-3 py-3 text-right tabular-nums">{c.runs}</td>
                <td className="whitespace-nowrap px-3 py-3 text-right tabular-nums">{percent(c.passRate)}</td>
                <td className="whitespace-nowrap px-3 py-3 text-right tabular-nums">{formatDuration(c.medianMs)}</td>
                <td className="whitespace-nowrap px-3 py-3 text-right tabular-nums">{formatDuration(c.p95Ms)}</td>
                <td className="whitespace-nowrap px-3 py-3 text-right tabular-nums">{c.flaky}</td>
                <td className="min-w-48 px-4 py-3">
                  <Strip cells={c.last} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
