// The failed and errored tests of a check's JUnit reports, each expandable to its message and the first lines
// of its trace. Everything is text a test wrote: rendered as text, never as HTML.
import type { TestCase } from "@/lib/gates/junit";
import { formatDuration } from "@/lib/format";

export function FailedTests({ tests, failedCount }: { tests: readonly TestCase[]; failedCount: number }) {
  if (tests.length === 0) return null;
  const more = failedCount - tests.length;
  return (
    <section aria-label="Failed tests" data-testid="failed-tests" className="mb-3">
      <p className="mb-1 text-xs font-semibold text-zinc-600 dark:text-zinc-300">
        Failed tests ({failedCount}){" "}
        <span className="font-normal text-zinc-500 dark:text-zinc-400">from the JUnit report</span>
      </p>
      <ul className="divide-y divide-zinc-100 rounded border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {/* Two tests of a report may share a name: the position is the key. */}
        {tests.map((t, i) => (
          <li key={i}>
            <details>
              <summary
                className={
                  "flex cursor-pointer flex-wrap items-baseline gap-x-2 px-3 py-1.5 text-sm " +
                  "hover:bg-zinc-50 dark:hover:bg-zinc-800/50"
                }
              >
                <span className="font-medium break-all">{t.name}</span>
                {t.className && t.className !== t.name ? (
                  <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{t.className}</span>
                ) : null}
                <span className="text-xs text-rose-700 dark:text-rose-300">{t.status}</span>
                {t.durationMs !== undefined ? (
                  <span className="text-xs text-zinc-500 dark:text-zinc-400">{formatDuration(t.durationMs)}</span>
                ) : null}
                {t.message ? (
                  <span className="w-full truncate font-mono text-xs text-zinc-600 dark:text-zinc-400">
                    {t.message.split("\n")[0]}
                  </span>
                ) : null}
              </summary>
              <div className="space-y-2 border-t border-zinc-100 px-3 py-2 dark:border-zinc-800">
                {t.file ? <p className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{t.file}</p> : null}
                {t.message ? (
                  <pre
                    className={"overflow-x-auto font-mono text-xs whitespace-pre-wrap text-zinc-800 dark:text-zinc-200"}
                  >
                    {t.message}
                  </pre>
                ) : null}
                {t.trace ? (
                  <pre
                    className={
                      "overflow-x-auto rounded bg-zinc-50 p-2 font-mono text-xs whitespace-pre " +
                      "text-zinc-700 dark:bg-zinc-900 dark:text-zinc-300"
                    }
                  >
                    {t.trace}
                  </pre>
                ) : null}
              </div>
            </details>
          </li>
        ))}
      </ul>
      {more > 0 ? (
        <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          and {more} more (the first {tests.length} are listed)
        </p>
      ) : null}
    </section>
  );
}
