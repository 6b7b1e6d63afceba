import { describe, expect, it } from "vitest";
import { firstFailureLine } from "./failure-line";

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
