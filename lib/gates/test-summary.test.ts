// Every fixture (real runner output, see fixtures/test-output/README.md) against what a person reading it
// would count: passed, failed, skipped, total, and the failing tests' names.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// The stored log tail (lib/runner/output/log-sink TAIL_BYTES): what recognition reads after a run.
const TAIL_BYTES = 16 * 1024;
import { formatTestCounts, judgeTestSummary, listFailingNames, recogniseTests, type TestRunner } from "./test-summary";

const FIXTURES = path.join(__dirname, "fixtures", "test-output");
const read = (file: string) => fs.readFileSync(path.join(FIXTURES, file), "utf8");

type Expected = [
  runner: TestRunner,
  passed: number,
  failed: number,
  skipped: number,
  total: number,
  failing?: string[],
];

const TWO = ["lower-cases the title", "trims spaces"];
const PY = ["test_lower_cases_the_title", "test_trims_spaces"];
const RS = ["lower_cases_the_title", "trims_spaces"];
const GO = ["TestLowerCasesTheTitle", "TestTrimsSpaces"];

const CASES: Record<string, Expected> = {
  "node-test/spec-pass.txt": ["node:test", 3, 0, 0, 3],
  "node-test/spec-fail.txt": ["node:test", 3, 2, 0, 5, TWO],
  "node-test/spec-fail-color.txt": ["node:test", 3, 2, 0, 5, TWO],
  "node-test/spec-skipped.txt": ["node:test", 3, 0, 2, 5],
  "node-test/spec-zero.txt": ["node:test", 0, 0, 0, 0],
  "node-test/spec-no-files.txt": ["node:test", 0, 0, 0, 0],
  "node-test/spec-describe-fail.txt": ["node:test", 1, 1, 1, 3, ["lower-cases the title"]],
  "node-test/tap-pass.txt": ["node:test", 3, 0, 0, 3],
  "node-test/tap-fail.txt": ["node:test", 3, 2, 0, 5, TWO],
  "node-test/tap-skipped.txt": ["node:test", 3, 0, 2, 5],
  "node-test/tap-zero.txt": ["node:test", 0, 0, 0, 0],
  "node-test/tap-no-files.txt": ["node:test", 0, 0, 0, 0],
  "node-test/tap-describe-fail.txt": ["node:test", 1, 1, 1, 3, ["lower-cases the title"]],
  "node-test/default-pass.txt": ["node:test", 3, 0, 0, 3],
  "node-test/default-fail.txt": ["node:test", 3, 2, 0, 5, TWO],
  "node-test/default-skipped.txt": ["node:test", 3, 0, 2, 5],
  "node-test/default-zero.txt": ["node:test", 0, 0, 0, 0],
  "jest/pass.txt": ["jest", 3, 0, 0, 3],
  "jest/fail.txt": ["jest", 3, 2, 0, 5, TWO],
  "jest/fail-color.txt": ["jest", 3, 2, 0, 5, TWO],
  "jest/skipped.txt": ["jest", 3, 0, 2, 5],
  "jest/zero.txt": ["jest", 0, 0, 0, 0],
  "jest/zero-pass-with-no-tests.txt": ["jest", 0, 0, 0, 0],
  "vitest/pass.txt": ["vitest", 3, 0, 0, 3],
  "vitest/fail.txt": ["vitest", 3, 2, 0, 5, TWO],
  "vitest/fail-color.txt": ["vitest", 3, 2, 0, 5, TWO],
  "vitest/fail-no-color.txt": ["vitest", 3, 2, 0, 5, TWO],
  "vitest/skipped.txt": ["vitest", 3, 0, 2, 5],
  "vitest/zero.txt": ["vitest", 0, 0, 0, 0],
  "vitest/zero-pass-with-no-tests.txt": ["vitest", 0, 0, 0, 0],
  "mocha/pass.txt": ["mocha", 3, 0, 0, 3],
  "mocha/fail.txt": ["mocha", 3, 2, 0, 5, TWO],
  "mocha/fail-color.txt": ["mocha", 3, 2, 0, 5, TWO],
  "mocha/skipped.txt": ["mocha", 3, 0, 2, 5],
  "mocha/zero.txt": ["mocha", 0, 0, 0, 0],
  "uvu/pass.txt": ["uvu", 3, 0, 0, 3],
  "uvu/fail.txt": ["uvu", 3, 2, 0, 5, TWO],
  "uvu/fail-color.txt": ["uvu", 3, 2, 0, 5, TWO],
  "uvu/skipped.txt": ["uvu", 3, 0, 2, 5],
  "uvu/zero.txt": ["uvu", 0, 0, 0, 0],
  "pytest/pass.txt": ["pytest", 3, 0, 0, 3],
  "pytest/fail.txt": ["pytest", 3, 2, 0, 5, PY],
  "pytest/fail-color.txt": ["pytest", 3, 2, 0, 5, PY],
  "pytest/fail-quiet.txt": ["pytest", 3, 2, 0, 5, PY],
  "pytest/skipped.txt": ["pytest", 3, 0, 2, 5],
  "pytest/zero.txt": ["pytest", 0, 0, 0, 0],
  "cargo/pass.txt": ["cargo", 3, 0, 0, 3],
  "cargo/fail.txt": ["cargo", 3, 2, 0, 5, RS],
  "cargo/fail-color.txt": ["cargo", 3, 2, 0, 5, RS],
  "cargo/skipped.txt": ["cargo", 3, 0, 2, 5],
  "cargo/zero.txt": ["cargo", 0, 0, 0, 0],
  "go/pass-verbose.txt": ["go", 3, 0, 0, 3],
  "go/fail-verbose.txt": ["go", 3, 2, 0, 5, GO],
  "go/skipped-verbose.txt": ["go", 3, 0, 2, 5],
  "go/zero.txt": ["go", 0, 0, 0, 0],
  "go/zero-no-match.txt": ["go", 0, 0, 0, 0],
  "go/mixed-packages-verbose.txt": ["go", 2, 0, 0, 2],
  "go/subtests-fail-verbose.txt": ["go", 2, 1, 0, 3, ["TestSlug/lower-cases_the_title"]],
};

describe("recogniseTests: every fixture", () => {
  it("covers every fixture file", () => {
    const files = fs
      .readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
      .filter((f) => f.includes(path.sep) && f.endsWith(".txt"));
    const uncovered = files.filter((f) => !(f in CASES) && !UNCOUNTED.includes(f));
    expect(uncovered).toEqual([]);
  });

  it.each(Object.entries(CASES))("%s", (file, [runner, passed, failed, skipped, total, failing = []]) => {
    const summary = recogniseTests(read(file));
    // cargo runs tests in parallel: its failures come in any order.
    const sorted = summary && { ...summary, failing: [...summary.failing].sort() };
    expect(sorted).toEqual({
      runner,
      counts: { runner, passed, failed, skipped, total },
      failing: [...failing].sort(),
    });
  });
});

// Fixtures whose counts go does not print, or where no summary is printed at all.
const UNCOUNTED = ["go/pass.txt", "go/fail.txt", "mocha/no-files.txt"];

describe("recogniseTests: output without counts", () => {
  it("go test without -v: no counts, but the failing tests are named", () => {
    expect(recogniseTests(read("go/fail.txt"))).toEqual({ runner: "go", counts: null, failing: GO });
    expect(recogniseTests(read("go/pass.txt"))).toEqual({ runner: "go", counts: null, failing: [] });
  });

  it("mocha with no test file prints an error, not a summary", () => {
    expect(recogniseTests(read("mocha/no-files.txt"))).toBeNull();
  });

  it.each([
    ["", null],
    ["hello\nworld\n", null],
    ["eslint: 3 problems (3 errors, 0 warnings)\n", null],
    ["Tests: nothing to see\n", null],
    ["12 files in 3.1s\n", null],
    ["Compiled 3 files in 0.4s\n", null],
    ["      Tests  were written (3)\n", null],
  ])("plain output %j is not a summary", (output, expected) => {
    expect(recogniseTests(output)).toBe(expected);
  });
});

describe("recogniseTests: from the stored tail", () => {
  it("the 16 KB tail of a long log still holds the summary (the log's head is not needed)", () => {
    const noise = `${"x".repeat(100)}\n`;
    const log = noise.repeat(1000) + read("jest/fail.txt");
    const tail = Buffer.from(log).subarray(-TAIL_BYTES).toString("utf8");
    expect(recogniseTests(tail)?.counts).toEqual({ runner: "jest", passed: 3, failed: 2, skipped: 0, total: 5 });
  });

  it("two runners in one check: the summary printed last speaks", () => {
    const output = read("pytest/fail.txt") + read("jest/pass.txt");
    expect(recogniseTests(output)?.runner).toBe("jest");
    expect(recogniseTests(read("jest/pass.txt") + read("pytest/fail.txt"))?.counts?.failed).toBe(2);
  });

  it("a truncated log's note at the head does not disturb recognition", () => {
    const output = `[gatehouse] log truncated: 1.2 MB dropped of 40 MB\n${read("node-test/tap-fail.txt")}`;
    expect(recogniseTests(output)?.counts?.failed).toBe(2);
  });
});

describe("formatTestCounts", () => {
  it.each([
    [{ passed: 12, failed: 1, skipped: 2, total: 15 }, "12 passed · 1 failed · 2 skipped"],
    [{ passed: 3, failed: 0, skipped: 0, total: 3 }, "3 passed"],
    [{ passed: 0, failed: 2, skipped: 0, total: 2 }, "0 passed · 2 failed"],
    [{ passed: 0, failed: 0, skipped: 0, total: 0 }, "0 tests"],
  ])("%j → %s", (counts, text) => {
    expect(formatTestCounts(counts)).toBe(text);
  });
});

describe("listFailingNames", () => {
  it("lists names that fit and ends with … when they do not", () => {
    expect(listFailingNames(["a", "b"])).toBe("a, b");
    const many = Array.from({ length: 30 }, (_, i) => `test number ${i}`);
    const text = listFailingNames(many);
    expect(text.length).toBeLessThanOrEqual(165);
    expect(text).toMatch(/^test number 0, test number 1, .*, …$/);
    expect(listFailingNames(["y".repeat(500)])).toHaveLength(160);
  });
});

describe("judgeTestSummary", () => {
  const summaryOf = (file: string) => recogniseTests(read(file));

  it("exit 0 with failed tests in the summary is failed, naming them", () => {
    expect(
      judgeTestSummary({ verdict: "passed", kind: "test", exitCode: 0, summary: summaryOf("vitest/fail.txt") }),
    ).toEqual({ verdict: "failed", message: "exit 0 but 2 tests failed: lower-cases the title, trims spaces" });
  });

  it("a failing check names the failing tests instead of its last line", () => {
    expect(
      judgeTestSummary({ verdict: "failed", kind: "test", exitCode: 1, summary: summaryOf("node-test/tap-fail.txt") }),
    ).toEqual({ verdict: "failed", message: "2 failed: lower-cases the title, trims spaces" });
  });

  it("a failing check whose runner named nobody says how many failed", () => {
    const summary = {
      runner: "jest" as const,
      counts: { runner: "jest" as const, passed: 0, failed: 1, skipped: 0, total: 1 },
      failing: [],
    };
    expect(judgeTestSummary({ verdict: "failed", kind: "test", exitCode: 1, summary })?.message).toBe("1 test failed");
  });

  it.each([
    "node-test/tap-zero.txt",
    "node-test/spec-no-files.txt",
    "jest/zero-pass-with-no-tests.txt",
    "vitest/zero-pass-with-no-tests.txt",
    "mocha/zero.txt",
    "uvu/zero.txt",
    "cargo/zero.txt",
    "go/zero.txt",
  ])("a test check that passes with no test run is hollow: %s", (file) => {
    expect(judgeTestSummary({ verdict: "passed", kind: "test", exitCode: 0, summary: summaryOf(file) })).toEqual({
      verdict: "hollow",
      message: "0 tests ran",
    });
  });

  it("zero tests in a check of another kind is not hollow; a check that failed anyway stays failed", () => {
    const zero = summaryOf("node-test/tap-no-files.txt");
    expect(judgeTestSummary({ verdict: "passed", kind: "custom", exitCode: 0, summary: zero })).toBeNull();
    expect(
      judgeTestSummary({ verdict: "failed", kind: "test", exitCode: 5, summary: summaryOf("pytest/zero.txt") }),
    ).toEqual({ verdict: "failed", message: "0 tests ran" });
  });

  it("a passing summary or no summary changes nothing", () => {
    expect(
      judgeTestSummary({ verdict: "passed", kind: "test", exitCode: 0, summary: summaryOf("jest/pass.txt") }),
    ).toBeNull();
    expect(judgeTestSummary({ verdict: "passed", kind: "test", exitCode: 0, summary: null })).toBeNull();
    expect(judgeTestSummary({ verdict: "failed", kind: "test", exitCode: 1, summary: null })).toBeNull();
  });
});
