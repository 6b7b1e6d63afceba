import { describe, expect, it } from "vitest";
import { failureSummaryLine, firstFailureLine } from "./failure-line";

describe("firstFailureLine", () => {
  it.each([
    ["TAP", "TAP version 13\n# Subtest: adds\nnot ok 1 - adds\n  ---\n# tests 1", 3],
    ["node spec", "✔ trims (1ms)\n✖ lower-cases (2ms)\n✖ failing tests:", 2],
    ["Jest", "PASS a.test.js\n● sum › adds\n\n  expect(received)", 2],
    ["Vitest", " ✓ a.test.ts (1)\n × b.test.ts > adds 3ms", 2],
    ["Mocha", "  passing (2ms)\n  1 failing\n\n  1) sum\n       adds:", 4],
    ["pytest", "collected 2 items\n\n_____________ test_adds _____________\n", 3],
    ["go", "=== RUN   TestAdds\n--- FAIL: TestAdds (0.00s)", 2],
    ["cargo", "running 1 test\n---- tests::adds stdout ----\nthread panicked", 2],
    ["coloured", "ok 1 - fine\n\u001b[31mnot ok 2 - adds\u001b[0m", 2],
  ])("finds %s's first failure", (_runner, text, line) => {
    expect(firstFailureLine(text)).toBe(line);
  });

  it.each([
    ["no runner", "compiling\nerror: build failed\n"],
    ["only passes", "ok 1 - adds\n# tests 1\n# fail 0"],
    ["Jest's console blocks", "● Console\n\n    console.log hi"],
  ])("finds none in %s", (_what, text) => {
    expect(firstFailureLine(text)).toBeNull();
  });
});

describe("failureSummaryLine", () => {
  it.each([
    ["a warning after the failure", "✗ rounds half-even\nFAIL\nwarning: deprecated API\n", "✗ rounds half-even"],
    ["a closing count", "not ok 1 - adds\n# tests 3\n# pass 2\n1 failing\n# duration_ms 12", "1 failing"],
    [
      "a tool's error line, coloured",
      "building\n\u001b[31merror:\u001b[0m bundle too large\ndone in 2s",
      "error: bundle too large",
    ],
    [
      "pytest's closing line",
      "FAILED t.py::test_a - assert 1 == 2\n==== 1 failed, 3 passed in 0.1s ====",
      "==== 1 failed, 3 passed in 0.1s ====",
    ],
    [
      "an exception",
      "Traceback (most recent call last):\n  File x\nValueError: no such row\ncleanup ok",
      "ValueError: no such row",
    ],
  ])("says what failed: %s", (_what, text, line) => {
    expect(failureSummaryLine(text)).toBe(line);
  });

  it.each([
    ["plain output", "compiling\nlinking\nstopped"],
    ["a count of none", "Tests: 0 failed, 5 passed\n0 errors"],
    ["bare keywords", "FAIL\nerror\n"],
  ])("says nothing of %s (the last line stands)", (_what, text) => {
    expect(failureSummaryLine(text)).toBeNull();
  });
});
