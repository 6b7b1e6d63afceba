// Per-test results from JUnit XML reports (a check's `junit` glob): what each test was, how it ended and why
// it failed. Pure: the runner reads the files (lib/runner/junit-reports.ts) and hands the text here.
// Parsed with fast-xml-parser, never by hand. A report comes from the code under test, so it is hostile
// until read: a DOCTYPE (the only way to declare entities, and so to expand them) is refused outright, the
// size and the number of test cases are capped before any tree is built, and nesting is bounded.
import { XMLParser } from "fast-xml-parser";
import type { TestCounts, TestSummary } from "./test-summary";

const TEST_CASE_STATUSES = ["passed", "failed", "skipped", "error"] as const;
type TestCaseStatus = (typeof TEST_CASE_STATUSES)[number];

// One test as stored on its check's result. Absent fields: the report did not say.
export type TestCase = {
  name: string;
  status: TestCaseStatus;
  suite?: string;
  className?: string;
  file?: string;
  durationMs?: number;
  // Failed and error only: the failure's message and the first lines of its trace.
  message?: string;
  trace?: string;
  // Failed earlier on the same commit and passed now (set when the attempt ends, lib/gates/flaky.ts).
  flaky?: true;
};

// Bounds for everything a check's reports may hold (all files of one check together).
export const JUNIT_LIMITS = {
  fileBytes: 16 * 1024 * 1024,
  totalBytes: 32 * 1024 * 1024,
  files: 200,
  testCases: 20_000,
  messageChars: 1000,
  traceLines: 20,
  traceChars: 4000,
  nameChars: 500,
} as const;

export type JunitFileResult = { cases: TestCase[] } | { problem: string };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  // Numeric references (&#10; in pytest's messages) and the five XML entities; nothing a report declares.
  htmlEntities: true,
  processEntities: { enabled: true, maxTotalExpansions: 1_000_000, maxExpandedLength: 64 * 1024 * 1024 },
  maxNestedTags: 64,
  isArray: (name) => ["testsuite", "testcase", "failure", "error", "skipped"].includes(name),
});

type XmlNode = Record<string, unknown>;

const text = (value: unknown): string | undefined => {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && typeof (value as XmlNode)["#text"] === "string")
    return (value as XmlNode)["#text"] as string;
  return undefined;
};
const attr = (node: XmlNode, name: string): string | undefined => {
  const v = node[name];
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
};
const cap = (value: string, chars: number) => (value.length > chars ? `${value.slice(0, chars - 1)}…` : value);

// The first lines of a failure's body: enough to see where it failed, never a whole dump.
function traceOf(body: string | undefined): string | undefined {
  if (!body) return undefined;
  const lines = body
    .replace(/\r\n?/g, "\n")
    .replace(/^\s*\n/, "")
    .trimEnd()
    .split("\n");
  if (lines.length === 0 || lines.join("").trim() === "") return undefined;
  const head = lines.slice(0, JUNIT_LIMITS.traceLines).join("\n");
  const more = lines.length > JUNIT_LIMITS.traceLines ? `\n… ${lines.length - JUNIT_LIMITS.traceLines} more lines` : "";
  return cap(head, JUNIT_LIMITS.traceChars) + more;
}

const firstLine = (value: string | undefined) =>
  value
    ?.split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== "");

function caseOf(node: XmlNode, suite: string | undefined, suiteFile: string | undefined): TestCase {
  const name = cap(attr(node, "name") ?? "(unnamed test)", JUNIT_LIMITS.nameChars);
  const problem = (["error", "failure"] as const).find((k) => Array.isArray(node[k]));
  const status: TestCaseStatus = problem
    ? problem === "error"
      ? "error"
      : "failed"
    : Array.isArray(node.skipped)
      ? "skipped"
      : // node:test writes a failure attribute on the testcase itself too
        attr(node, "failure")
        ? "failed"
        : "passed";
  const seconds = Number(attr(node, "time"));
  const found: TestCase = { name, status };
  if (suite) found.suite = cap(suite, JUNIT_LIMITS.nameChars);
  const className = attr(node, "classname");
  if (className) found.className = cap(className, JUNIT_LIMITS.nameChars);
  const file = attr(node, "file") ?? suiteFile;
  if (file) found.file = cap(file, JUNIT_LIMITS.nameChars);
  if (Number.isFinite(seconds) && seconds >= 0) found.durationMs = Math.round(seconds * 1000);
  if (status === "failed" || status === "error") {
    const detail = problem ? ((node[problem] as unknown[])[0] ?? "") : "";
    const body = text(detail);
    const message =
      (detail && typeof detail === "object" ? attr(detail as XmlNode, "message") : undefined) ??
      attr(node, "failure") ??
      firstLine(body);
    if (message) found.message = cap(message, JUNIT_LIMITS.messageChars);
    const trace = traceOf(body);
    if (trace) found.trace = trace;
  }
  return found;
}

// Walks <testsuites>/<testsuite> (nested suites included; node:test puts cases straight under <testsuites>).
function collect(node: XmlNode, suite: string | undefined, file: string | undefined, into: TestCase[]): void {
  for (const c of (node.testcase as XmlNode[] | undefined) ?? [])
    if (c && typeof c === "object") into.push(caseOf(c, suite, file));
  for (const s of (node.testsuite as XmlNode[] | undefined) ?? [])
    if (s && typeof s === "object") collect(s, attr(s, "name") ?? suite, attr(s, "file") ?? file, into);
}

// One report's test cases, or why it was not read (the row says so; the counts then come from the tail).
export function parseJunitXml(xml: string): JunitFileResult {
  if (xml.length > JUNIT_LIMITS.fileBytes) return { problem: `larger than ${JUNIT_LIMITS.fileBytes / 1048576} MB` };
  if (/<!DOCTYPE/i.test(xml)) return { problem: "it declares a DOCTYPE (entity declarations are not read)" };
  const count = xml.match(/<testcase[\s/>]/g)?.length ?? 0;
  if (count > JUNIT_LIMITS.testCases) return { problem: `more than ${JUNIT_LIMITS.testCases} test cases` };
  let doc: XmlNode;
  try {
    doc = parser.parse(xml, true) as XmlNode;
  } catch (error) {
    return { problem: `not valid XML: ${cap(String((error as Error).message ?? error), 200)}` };
  }
  const root = (doc.testsuites ?? (doc.testsuite ? { testsuite: doc.testsuite } : null)) as XmlNode | null;
  if (!root || typeof root !== "object") return { problem: "not a JUnit report: no <testsuites> or <testsuite>" };
  const cases: TestCase[] = [];
  collect(root, undefined, undefined, cases);
  return { cases };
}

// What identifies a test across runs: its class (or file) and its name. jest-junit repeats the name as the
// class; that is the name alone.
export function testKeyOf(t: Pick<TestCase, "name" | "className">): string {
  return t.className && t.className !== t.name ? `${t.className} › ${t.name}` : t.name;
}

export type JunitOutcome = {
  cases: TestCase[];
  // Sentences about files that were not read (and why), or a glob that matched nothing.
  problems: string[];
};

// The counts and failing names the reports give, in the shape of a recognised summary (so the exit-code
// and hollow rules of lib/gates/test-summary.ts apply unchanged). null: no report was read.
export function summaryFromJunit(outcome: JunitOutcome, filesRead: number): TestSummary | null {
  if (filesRead === 0) return null;
  const n = { passed: 0, failed: 0, skipped: 0 };
  for (const c of outcome.cases) {
    if (c.status === "passed") n.passed++;
    else if (c.status === "skipped") n.skipped++;
    else n.failed++;
  }
  const counts: TestCounts = { runner: "junit", ...n, total: n.passed + n.failed + n.skipped };
  const failing = outcome.cases.filter((c) => c.status === "failed" || c.status === "error").map((c) => c.name);
  return { runner: "junit", counts, failing: [...new Set(failing)] };
}

export const NO_TEST_SUMMARY = "no test summary seen: Gatehouse cannot tell that tests ran";

// Item 6 of issue 21: a `test` check that passed while nothing shows a test ran — no recognised summary in its
// output and no JUnit report. A warning on the row and in the brief; `requireTestSummary` (a Work setting to
// come) makes it hollow instead. Returns null when there is nothing to say.
export function judgeMissingTestSummary(
  input: { kind: string; verdict: string; hasSummary: boolean; junitProblem: string | null },
  requireTestSummary: boolean,
): { verdict: "hollow"; message: string } | { warning: string } | null {
  if (input.kind !== "test" || input.verdict !== "passed" || input.hasSummary) return null;
  const reason = input.junitProblem ? `${NO_TEST_SUMMARY} (${input.junitProblem})` : NO_TEST_SUMMARY;
  return requireTestSummary ? { verdict: "hollow", message: reason } : { warning: reason };
}

// The failed and errored tests, for the row's list and the API (bounded: a run's JSON is polled).
const FAILED_TESTS_SHOWN = 50;
export function failedTestsOf(cases: readonly TestCase[] | null): TestCase[] {
  return (cases ?? []).filter((c) => c.status === "failed" || c.status === "error").slice(0, FAILED_TESTS_SHOWN);
}

// A stored list read back (a JSON column): the test cases whose shape holds, or null.
export function toTestCases(value: unknown): TestCase[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter(
    (c): c is TestCase =>
      !!c &&
      typeof c === "object" &&
      typeof (c as TestCase).name === "string" &&
      TEST_CASE_STATUSES.includes((c as TestCase).status),
  );
}

type TestPassRate = { key: string; name: string; runs: number; passed: number; passRate: number; flaky: number };
export type TestHistory = {
  // How many of the check's newest results with JUnit reports these rates are over.
  results: number;
  // Distinct tests seen in them (skipped ones included).
  tests: number;
  // The tests that did not always pass (failed, errored or flaky at least once), worst first, at most `limit`.
  unsteady: TestPassRate[];
};

// Per-test pass rates over a check's newest results (each a JUnit result's tests, newest first). A test runs
// when it passed, failed or errored (skipped is not a run); the table lists only tests that did not always
// pass, since a suite of 10,000 green tests is read by its count.
export function testPassRates(results: readonly (readonly TestCase[])[], limit = 20): TestHistory | null {
  if (results.length === 0) return null;
  const byKey = new Map<string, TestPassRate>();
  for (const cases of results)
    for (const c of cases) {
      const key = testKeyOf(c);
      const rate = byKey.get(key) ?? { key, name: c.name, runs: 0, passed: 0, passRate: 0, flaky: 0 };
      byKey.set(key, rate);
      if (c.status === "skipped") continue;
      rate.runs++;
      if (c.status === "passed") rate.passed++;
      if (c.flaky) rate.flaky++;
    }
  const all = [...byKey.values()].map((r) => ({ ...r, passRate: r.runs === 0 ? 0 : r.passed / r.runs }));
  const unsteady = all
    .filter((r) => r.passed < r.runs || r.flaky > 0)
    .sort((a, b) => a.passRate - b.passRate || b.flaky - a.flaky || (a.key < b.key ? -1 : 1))
    .slice(0, limit);
  return { results: results.length, tests: all.length, unsteady };
}
