// Test counts from what a check printed: the summary of the test runner it ran (node:test, Jest, Vitest,
// Mocha, uvu, pytest, go test, cargo test), read from the end of its output with colours stripped.
import { stripAnsi } from "./strip-ansi";
import { cargo, goTest, jest, mocha, nodeTest, pytest, uvu, vitest, type Recogniser } from "./test-recognisers";

// "junit": the counts came from the check's JUnit XML reports (lib/gates/junit.ts), not from its output.
const TEST_RUNNERS = ["node:test", "jest", "vitest", "mocha", "uvu", "pytest", "go", "cargo", "junit"] as const;
export type TestRunner = (typeof TEST_RUNNERS)[number];

// Stored on each check result (null when no runner's summary was recognised).
export type TestCounts = { runner: TestRunner; passed: number; failed: number; skipped: number; total: number };

export type TestSummary = {
  runner: TestRunner;
  // null when the runner printed no count (go test without -v); its failing tests may still be named.
  counts: TestCounts | null;
  // The failing tests' own titles, as the runner printed them.
  failing: string[];
};

const RECOGNISERS: readonly [TestRunner, Recogniser][] = [
  ["node:test", nodeTest],
  ["jest", jest],
  ["vitest", vitest],
  ["mocha", mocha],
  ["uvu", uvu],
  ["pytest", pytest],
  ["go", goTest],
  ["cargo", cargo],
];

// Several runners in one check (`npm run a && pytest`): the summary printed last speaks.
export function recogniseTests(output: string): TestSummary | null {
  const lines = stripAnsi(output)
    .split(/\r?\n|\r/)
    .map((l) => l.trimEnd());
  let best: (TestSummary & { at: number }) | null = null;
  for (const [runner, recognise] of RECOGNISERS) {
    const found = recognise(lines);
    if (!found || (best && found.at <= best.at)) continue;
    best = {
      runner,
      counts: found.counts && { runner, ...found.counts },
      failing: found.failing,
      at: found.at,
    };
  }
  if (!best) return null;
  const { at, ...summary } = best;
  return summary;
}

// "12 passed · 1 failed · 2 skipped", as the check row shows it.
export function formatTestCounts(counts: Pick<TestCounts, "passed" | "failed" | "skipped" | "total">): string {
  if (counts.total === 0) return "0 tests";
  const parts = [`${counts.passed} passed`];
  if (counts.failed > 0) parts.push(`${counts.failed} failed`);
  if (counts.skipped > 0) parts.push(`${counts.skipped} skipped`);
  return parts.join(" · ");
}

const NAMES_CAP = 160;

// "lower-cases the title, trims spaces, …": as many names as fit in a result's one-line message.
export function listFailingNames(names: readonly string[]): string {
  let text = "";
  for (const [i, name] of names.entries()) {
    const next = text ? `${text}, ${name}` : name;
    if (next.length > NAMES_CAP) return i === 0 ? `${name.slice(0, NAMES_CAP - 1)}…` : `${text}, …`;
    text = next;
  }
  return text;
}

const failedCountOf = (summary: TestSummary) => summary.counts?.failed ?? summary.failing.length;

export type TestJudgement = { verdict: "passed" | "failed" | "hollow"; message: string | null };

// What the recognised summary changes about a check's verdict and message:
// - passed by its exit code, but the summary reports failed tests → failed ("exit 0 but 3 tests failed");
// - a test check that would pass but ran no test → hollow ("0 tests ran");
// - failed, and the runner named the failing tests → the message names them ("3 failed: a, b, …");
//   failed with no test run → "0 tests ran".
// Returns null when the summary changes nothing.
export function judgeTestSummary(input: {
  verdict: "passed" | "failed";
  kind: string;
  exitCode: number | null;
  summary: TestSummary | null;
}): TestJudgement | null {
  const { summary } = input;
  if (!summary) return null;
  const failed = failedCountOf(summary);
  const names = summary.failing.length > 0 ? `: ${listFailingNames(summary.failing)}` : "";
  if (input.verdict === "passed") {
    if (failed > 0)
      return {
        verdict: "failed",
        message: `exit ${input.exitCode} but ${failed} test${failed === 1 ? "" : "s"} failed${names}`,
      };
    if (input.kind === "test" && summary.counts?.total === 0) return { verdict: "hollow", message: "0 tests ran" };
    return null;
  }
  if (failed > 0)
    return {
      verdict: "failed",
      message: names ? `${failed} failed${names}` : `${failed} test${failed === 1 ? "" : "s"} failed`,
    };
  // Failed with no test run (pytest's exit 5, Vitest's "No test files found"): say that, not the last line.
  if (summary.counts?.total === 0) return { verdict: "failed", message: "0 tests ran" };
  return null;
}

// A stored summary read back (a JSON column): the shape, or null.
export function toTestCounts(value: unknown): TestCounts | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  const isCount = (n: unknown) => typeof n === "number" && Number.isInteger(n) && n >= 0;
  if (!TEST_RUNNERS.includes(v.runner as TestRunner)) return null;
  if (![v.passed, v.failed, v.skipped, v.total].every(isCount)) return null;
  return {
    runner: v.runner as TestRunner,
    passed: v.passed as number,
    failed: v.failed as number,
    skipped: v.skipped as number,
    total: v.total as number,
  };
}
