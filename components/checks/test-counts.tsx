// A check's test counts as its runner reported them: "12 passed · 1 failed · 2 skipped" (plain text, the
// failed part in red so it reads without colour too).
import { formatTestCounts, type TestCounts } from "@/lib/gates/test-summary";

export function TestCountsLabel({ tests }: { tests: TestCounts }) {
  const text = formatTestCounts(tests);
  return (
    <span
      data-testid="test-counts"
      title={tests.runner === "junit" ? "tests, from the JUnit reports" : `tests, as ${tests.runner} reported them`}
      className={`text-xs whitespace-nowrap tabular-nums ${
        tests.failed > 0 || tests.total === 0 ? "text-rose-700 dark:text-rose-300" : "text-zinc-600 dark:text-zinc-400"
      }`}
    >
      {text}
    </span>
  );
}
