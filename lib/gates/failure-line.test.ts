import { describe, expect, it } from "vitest";
import { firstFailureLine, messageLineOf } from "./failure-line";

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

describe("messageLineOf", () => {
  it.each([
    ["a warning after the failure", "✗ rounds half-even\nFAIL\nwarning: deprecated API\n", "✗ rounds half-even"],
    [
      "npm's closing words",
      "src/b.ts(9,3): error TS2322: nope\nnpm error Lifecycle script `lint` failed with error:\nnpm error code 2",
      "src/b.ts(9,3): error TS2322: nope",
    ],
    [
      "make's",
      "cc -o app main.c\nmain.c:3: error: x undeclared\nmake: *** [Makefile:2: app] Error 1",
      "main.c:3: error: x undeclared",
    ],
    [
      "yarn's",
      "Error: no such table\nerror Command failed with exit code 1.\ninfo Visit https://yarnpkg.com/en/docs/cli/run",
      "Error: no such table",
    ],
    ["Node's deprecation warning", "boom\n(node:4242) DeprecationWarning: Buffer() is deprecated", "boom"],
    [
      "coloured",
      "\u001b[31mmigration 0012 has no down step\u001b[0m\n\u001b[33mwarning:\u001b[0m slow disk",
      "migration 0012 has no down step",
    ],
  ])("passes over %s", (_what, text, line) => {
    expect(messageLineOf(text)).toBe(line);
  });

  it.each([
    // What it does not know as a trailer stays the message, as the last line always was.
    [
      "a recovered error before the last line",
      "Error: connect ECONNREFUSED, retrying\nmigration 0012 has no down step",
      "migration 0012 has no down step",
    ],
    [
      "eslint's count after tsc's error",
      "src/b.ts(9,3): error TS2322: nope\n✖ 3 problems (0 errors, 3 warnings)",
      "✖ 3 problems (0 errors, 3 warnings)",
    ],
    ["only trailers: the last of them", "warning: one\nwarning: two", "warning: two"],
  ])("keeps the last line for %s", (_what, text, line) => {
    expect(messageLineOf(text)).toBe(line);
  });

  it("says nothing of no output", () => {
    expect(messageLineOf("")).toBeNull();
    expect(messageLineOf("\n  \n")).toBeNull();
  });
});
