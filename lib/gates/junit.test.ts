// Every JUnit fixture (real reports, see fixtures/junit/README.md) against what a person reading it would
// see: each test's status and name, the failing tests' messages, and the counts the reports give.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { ZCheck, ZCheckList } from "./check-schema";
import { toFieldIssues } from "./field-issues";
import {
  failedTestsOf,
  judgeMissingTestSummary,
  JUNIT_LIMITS,
  NO_TEST_SUMMARY,
  parseJunitXml,
  summaryFromJunit,
  testKeyOf,
  testPassRates,
  type TestCase,
} from "./junit";
import { judgeTestSummary } from "./test-summary";

const FIXTURES = path.join(__dirname, "fixtures", "junit");
const read = (file: string) => fs.readFileSync(path.join(FIXTURES, file), "utf8");
const casesOf = (file: string): TestCase[] => {
  const parsed = parseJunitXml(read(file));
  if ("problem" in parsed) throw new Error(parsed.problem);
  return parsed.cases;
};
const statuses = (cases: TestCase[]) => cases.map((c) => `${c.status} ${c.name}`);

describe("parseJunitXml against real reports", () => {
  const PASS: Record<string, string[]> = {
    "node-test-pass.xml": ["lower-cases the title", "trims spaces", "joins words with dashes"],
    "pytest-pass.xml": ["test_lower_cases_the_title", "test_trims_spaces", "test_joins_words_with_dashes"],
    "vitest-pass.xml": ["slug > lower-cases the title", "slug > trims spaces", "slug > joins words with dashes"],
    "jest-junit-pass.xml": ["slug lower-cases the title", "slug trims spaces", "slug joins words with dashes"],
    "mocha-junit-pass.xml": ["slug lower-cases the title", "slug trims spaces", "slug joins words with dashes"],
  };
  it.each(Object.entries(PASS))("%s: every test passed", (file, names) => {
    expect(statuses(casesOf(file))).toEqual(names.map((n) => `passed ${n}`));
  });

  // Each fail case: 2 passing, 2 failing (one with <, & and quotes in its title), 1 skipped (mocha-junit-reporter
  // leaves skipped tests out of its report unless told to include them).
  const FAIL: Record<string, { names: string[]; skipped: string | null; message: RegExp }> = {
    "node-test-fail.xml": {
      names: ["lower-cases the title", "escapes <b> & &quot;quotes&quot;"],
      skipped: "handles emoji",
      message: /^Expected values to be strictly equal/,
    },
    "pytest-fail.xml": {
      names: ["test_lower_cases_the_title", "test_escapes_markup"],
      skipped: "test_handles_emoji",
      message: /^(AssertionError: )?assert '/,
    },
    "vitest-fail.xml": {
      names: ["slug > lower-cases the title", 'slug > escapes <b> & "quotes"'],
      skipped: "slug > handles emoji",
      message: /^Expected values to be strictly equal/,
    },
    "jest-junit-fail.xml": {
      names: ["slug lower-cases the title", 'slug escapes <b> & "quotes"'],
      skipped: "slug handles emoji",
      message: /^assert\.strictEqual\(received, expected\)/,
    },
    "mocha-junit-fail.xml": {
      names: ["slug lower-cases the title", 'slug escapes <b> & "quotes"'],
      skipped: null,
      message: /^Expected values to be strictly equal/,
    },
  };
  it.each(Object.entries(FAIL))("%s: the failing tests, their messages and traces", (file, want) => {
    const cases = casesOf(file);
    const failed = cases.filter((c) => c.status === "failed");
    expect(failed.map((c) => c.name)).toEqual(want.names);
    for (const c of failed) {
      expect(c.message).toMatch(want.message);
      expect(c.trace).toBeTruthy();
      expect(c.trace!.split("\n").length).toBeLessThanOrEqual(JUNIT_LIMITS.traceLines + 1);
    }
    expect(cases.filter((c) => c.status === "skipped").map((c) => c.name)).toEqual(want.skipped ? [want.skipped] : []);
    expect(cases.filter((c) => c.status === "passed")).toHaveLength(2);
    const summary = summaryFromJunit({ cases, problems: [] }, 1)!;
    expect(summary.counts).toEqual({
      runner: "junit",
      passed: 2,
      failed: 2,
      skipped: want.skipped ? 1 : 0,
      total: want.skipped ? 5 : 4,
    });
    // The existing rule: a check that exits 0 while its report says tests failed is failed, naming them.
    const judged = judgeTestSummary({ verdict: "passed", kind: "test", exitCode: 0, summary });
    expect(judged).toEqual({ verdict: "failed", message: `exit 0 but 2 tests failed: ${want.names.join(", ")}` });
  });

  it("pytest: a fixture that raised is an error, with its message", () => {
    const cases = casesOf("pytest-error.xml");
    expect(statuses(cases)).toEqual(["error test_uses_the_fixture", "passed test_trims_spaces"]);
    expect(cases[0]).toMatchObject({
      suite: "pytest",
      className: "test_slug",
      message: 'failed on setup with "RuntimeError: database unavailable"',
    });
    expect(cases[0].trace).toContain("E       RuntimeError: database unavailable");
    expect(summaryFromJunit({ cases, problems: [] }, 1)?.counts).toMatchObject({ failed: 1, total: 2 });
  });

  it("keeps suite, class, file and duration where the reporter writes them", () => {
    const mocha = casesOf("mocha-junit-fail.xml")[0];
    expect(mocha).toMatchObject({ suite: "slug", className: "lower-cases the title", durationMs: 1 });
    expect(mocha.file).toMatch(/test\/slug\.test\.js$/);
    const vitest = casesOf("vitest-pass.xml")[0];
    expect(vitest).toMatchObject({ suite: "test/slug.test.js", className: "test/slug.test.js" });
    expect(testKeyOf(vitest)).toBe("test/slug.test.js › slug > lower-cases the title");
    // jest-junit repeats the title as the class: the key is the title alone.
    expect(testKeyOf(casesOf("jest-junit-pass.xml")[0])).toBe("slug lower-cases the title");
  });

  it("the row's list holds only failed and errored tests", () => {
    expect(failedTestsOf(casesOf("pytest-error.xml")).map((c) => c.name)).toEqual(["test_uses_the_fixture"]);
    expect(failedTestsOf(null)).toEqual([]);
  });
});

describe("parseJunitXml on hostile or broken reports", () => {
  it("refuses a DOCTYPE, so no entity is ever expanded (billion laughs)", () => {
    const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`,
    ).join("")}]><testsuites><testcase name="&lol9;"/></testsuites>`;
    const started = performance.now();
    expect(parseJunitXml(lol)).toEqual({ problem: "it declares a DOCTYPE (entity declarations are not read)" });
    expect(performance.now() - started).toBeLessThan(100);
  });

  it("refuses more test cases than the cap before building any tree", () => {
    const many = `<testsuites>${'<testcase name="t"/>'.repeat(JUNIT_LIMITS.testCases + 1)}</testsuites>`;
    expect(parseJunitXml(many)).toEqual({ problem: `more than ${JUNIT_LIMITS.testCases} test cases` });
  });

  it("refuses a report over the size cap", () => {
    const big = `<testsuites><!--${"x".repeat(JUNIT_LIMITS.fileBytes)}--></testsuites>`;
    expect(parseJunitXml(big)).toEqual({ problem: "larger than 16 MB" });
  });

  it("bounds nesting and says what is wrong with a file that is not a report", () => {
    const deep = `${"<testsuite>".repeat(200)}${"</testsuite>".repeat(200)}`;
    expect(parseJunitXml(deep)).toMatchObject({ problem: expect.stringMatching(/^not valid XML/) });
    expect(parseJunitXml("<testsuites><testcase")).toMatchObject({ problem: expect.stringMatching(/^not valid XML/) });
    expect(parseJunitXml("<html><body/></html>")).toEqual({
      problem: "not a JUnit report: no <testsuites> or <testsuite>",
    });
  });

  it("caps a failure's message and trace, and keeps a name a test gave as text, never markup", () => {
    const trace = Array.from({ length: 500 }, (_, i) => `at line ${i}`).join("\n");
    const xml = `<testsuite name="s"><testcase name="&lt;img src=x onerror=alert(1)&gt;"><failure message="${"m".repeat(
      5000,
    )}">${trace}</failure></testcase></testsuite>`;
    const [c] = casesOf2(xml);
    expect(c.name).toBe("<img src=x onerror=alert(1)>");
    expect(c.message).toHaveLength(JUNIT_LIMITS.messageChars);
    expect(c.trace?.split("\n")).toHaveLength(JUNIT_LIMITS.traceLines + 1);
    expect(c.trace).toMatch(/… 480 more lines$/);
  });
});

function casesOf2(xml: string): TestCase[] {
  const parsed = parseJunitXml(xml);
  if ("problem" in parsed) throw new Error(parsed.problem);
  return parsed.cases;
}

describe("judgeMissingTestSummary (issue 21, item 6)", () => {
  const base = { kind: "test", verdict: "passed", hasSummary: false, junitProblem: null };
  it.each([
    ["a passing test check with no summary", base, false, { warning: NO_TEST_SUMMARY }],
    ["the same under requireTestSummary", base, true, { verdict: "hollow", message: NO_TEST_SUMMARY }],
    ["a summary was seen", { ...base, hasSummary: true }, false, null],
    ["not a test check", { ...base, kind: "lint" }, false, null],
    ["it failed anyway", { ...base, verdict: "failed" }, false, null],
    [
      "a declared report that was not found",
      { ...base, junitProblem: 'no file matches "reports/*.xml"' },
      false,
      { warning: `${NO_TEST_SUMMARY} (no file matches "reports/*.xml")` },
    ],
  ])("%s", (_, input, required, want) => {
    expect(judgeMissingTestSummary(input, required)).toEqual(want);
  });
});

describe("the junit field of a check", () => {
  const check = { id: "unit", name: "Unit tests", kind: "test", command: "npm test", required: true };
  const issues = (value: unknown, schema: z.ZodType = ZCheck) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? null : toFieldIssues(parsed.error);
  };
  it("takes a glob relative to the checkout", () => {
    expect(issues({ ...check, junit: "reports/**/*.xml" })).toBeNull();
  });
  it.each([
    ["/tmp/junit.xml", "must be relative to the checkout root, not absolute"],
    ["../out/junit.xml", "must stay inside the checkout: '..' is not allowed"],
    ["reports/[a.xml", expect.stringMatching(/^not a glob/)],
    ["", "must not be empty"],
  ])("refuses %j, naming the field path", (junit, message) => {
    expect(issues([check, { ...check, id: "other", junit }], ZCheckList)).toEqual([{ path: "1.junit", message }]);
  });
  it("is refused on an agent check and on a built-in", () => {
    expect(issues({ ...check, executor: "agent", junit: "r.xml" })).toEqual([
      { path: "junit", message: expect.stringContaining("run by the agent") },
    ]);
    const builtin = { id: "b", name: "B", kind: "custom", required: true, use: "file_exists", with: { path: "a" } };
    expect(issues({ ...builtin, junit: "r.xml" })).toEqual([
      { path: "junit", message: "not used by a built-in (it writes no test report)" },
    ]);
  });
});

describe("testPassRates", () => {
  const t = (name: string, status: TestCase["status"], flaky?: true): TestCase => ({
    name,
    status,
    ...(flaky ? { flaky } : {}),
  });
  it("lists the tests that did not always pass, worst first; skipped is not a run", () => {
    const history = testPassRates([
      [t("a", "passed", true), t("b", "passed"), t("c", "skipped"), t("d", "failed")],
      [t("a", "failed"), t("b", "passed"), t("c", "skipped"), t("d", "error")],
      [t("a", "passed"), t("b", "passed"), t("c", "skipped")],
    ]);
    expect(history).toEqual({
      results: 3,
      tests: 4,
      unsteady: [
        { key: "d", name: "d", runs: 2, passed: 0, passRate: 0, flaky: 0 },
        { key: "a", name: "a", runs: 3, passed: 2, passRate: 2 / 3, flaky: 1 },
      ],
    });
    expect(testPassRates([])).toBeNull();
    expect(testPassRates([[t("b", "passed")]])).toEqual({ results: 1, tests: 1, unsteady: [] });
  });
});
