// Reading a check's JUnit reports out of the checkout after the check ran. The checkout is the agent's, so
// every path in it may be a trap: the walk never enters or reads a symlink, each file is read through
// lib/runner/checkout/checkout-files.ts (no link anywhere on its path, a regular file, size-capped), and the
// files, bytes and entries visited are capped. A report older than the check's run is a leftover (of an
// earlier attempt, or committed), not this run's word, and is not read.
import path from "node:path";
import picomatch from "picomatch";
import { JUNIT_LIMITS, judgeMissingTestSummary, parseJunitXml, summaryFromJunit, type TestCase } from "../gates/junit";
import { recogniseTests, type TestSummary } from "../gates/test-summary";
import { readCheckoutFile, readCheckoutFolder } from "./checkout/checkout-files";
import { readJunitReportsOffThread } from "./junit-off-thread";

const MAX_ENTRIES_VISITED = 100_000;
const SKIPPED_DIRS = new Set([".git", "node_modules"]);

// One report of the checkout, read through the platform's one reader of a checkout's files (never through a
// link, anywhere on its path). `rel` uses "/".
// Clock steps between the check's end and this read: a report dated later than now by more is no report of it.
const FUTURE_SLACK_MS = 2000;

export function readReportFile(
  checkoutDir: string,
  rel: string,
  maxBytes: number,
): { text: string; mtimeMs: number } | { problem: string } {
  const read = readCheckoutFile(checkoutDir, rel, { maxBytes });
  if (read.kind === "file") return { text: read.bytes.toString("utf8"), mtimeMs: read.mtimeMs };
  return { problem: read.kind === "missing" ? `${rel} went away: not read` : `${read.reason}: not read` };
}

// The checkout-relative files matching the glob, walking only real folders (a symlinked folder is not
// entered, a symlinked file that matches is named so the row can say why it was not read).
export function findReportFiles(
  checkoutDir: string,
  glob: string,
): { files: string[]; symlinks: string[]; problem: string | null } {
  const isMatch = picomatch(glob, { dot: true });
  const scan = picomatch.scan(glob);
  const base = scan.isGlob ? scan.base : path.posix.dirname(scan.base);
  const files: string[] = [];
  const symlinks: string[] = [];
  // The static folder the glob starts in (every folder listed is reached from the checkout by descriptors,
  // none through a link: the checkout is the run-as user's to swap a folder in while this walks).
  const start = base
    .split("/")
    .filter((p) => p && p !== ".")
    .join("/");
  const stack = [start];
  let visited = 0;
  while (stack.length > 0) {
    const rel = stack.pop()!;
    const listed = readCheckoutFolder(checkoutDir, rel);
    if (listed.kind !== "folder") continue;
    const entries = listed.entries;
    entries.sort((a, b) => (a.name < b.name ? 1 : -1));
    for (const entry of entries) {
      if (++visited > MAX_ENTRIES_VISITED)
        return {
          files,
          symlinks,
          problem: `more than ${MAX_ENTRIES_VISITED} entries under ${start || "the checkout"}`,
        };
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) stack.push(child);
      } else if (isMatch(child)) {
        if (entry.isSymbolicLink()) symlinks.push(child);
        else if (entry.isFile()) files.push(child);
      }
    }
  }
  files.sort();
  return { files, symlinks, problem: null };
}

export type JunitRead = { cases: TestCase[]; filesRead: number; problems: string[] };

// Every report the glob matches, written since `since` (ms), parsed and bounded together. Blocks: a check's
// reports are read through readJunitReportsOffThread, which runs this in a worker thread.
export function readJunitReports(opts: { checkoutDir: string; glob: string; sinceMs: number }): JunitRead {
  const found = findReportFiles(opts.checkoutDir, opts.glob);
  const problems = found.symlinks.map((f) => `${f} is a symlink: not read`);
  if (found.problem) problems.push(found.problem);
  const cases: TestCase[] = [];
  let filesRead = 0;
  let bytes = 0;
  let stale = 0;
  for (const [i, file] of found.files.entries()) {
    if (i >= JUNIT_LIMITS.files) {
      problems.push(`more than ${JUNIT_LIMITS.files} reports match: the rest were not read`);
      break;
    }
    const read = readReportFile(opts.checkoutDir, file, JUNIT_LIMITS.fileBytes);
    if ("problem" in read) {
      problems.push(read.problem);
      continue;
    }
    // Older than the check's run (a leftover), or dated after now (planted with a time in the future).
    if (read.mtimeMs < opts.sinceMs || read.mtimeMs > Date.now() + FUTURE_SLACK_MS) {
      stale++;
      continue;
    }
    bytes += read.text.length;
    if (bytes > JUNIT_LIMITS.totalBytes) {
      problems.push(`the reports hold more than ${JUNIT_LIMITS.totalBytes / 1048576} MB: ${file} and later not read`);
      break;
    }
    const parsed = parseJunitXml(read.text);
    if ("problem" in parsed) {
      problems.push(`${file}: ${parsed.problem}`);
      continue;
    }
    if (cases.length + parsed.cases.length > JUNIT_LIMITS.testCases) {
      problems.push(`the reports hold more than ${JUNIT_LIMITS.testCases} test cases: ${file} and later not read`);
      break;
    }
    cases.push(...parsed.cases);
    filesRead++;
  }
  if (stale > 0)
    problems.push(
      `${stale} report${stale === 1 ? "" : "s"} matching "${opts.glob}" ` +
        `${stale === 1 ? "was" : "were"} not written by this run of the check ` +
        `(older than it, or dated later than it ended): not read`,
    );
  if (found.files.length === 0 && found.symlinks.length === 0) problems.push(`no file matches "${opts.glob}"`);
  return { cases, filesRead, problems };
}

function maskCase(c: TestCase, mask: (text: string) => string): TestCase {
  const masked = { ...c, name: mask(c.name) };
  for (const key of ["suite", "className", "file", "message", "trace"] as const)
    if (masked[key] !== undefined) masked[key] = mask(masked[key]);
  return masked;
}
const maskSummary = (s: TestSummary, mask: (text: string) => string): TestSummary => ({
  ...s,
  failing: s.failing.map(mask),
});

export type TestResults = {
  summary: TestSummary | null;
  // The per-test results of the JUnit reports (null: the check declares none, or none was read).
  cases: TestCase[] | null;
  junitProblem: string | null;
};

export const NO_TESTS: TestResults = { summary: null, cases: null, junitProblem: null };

// What a check's tests said: the JUnit reports it declares when any was read (they win over the output), or
// the summary recognised in its output's tail. One call from the check step.
// `mask` hides the Work's secrets in what the reports say (names, messages, traces), as in the log.
// The reports are read and parsed off the event loop (lib/runner/junit-off-thread.ts).
export async function readTestResults(
  checkoutDir: string,
  check: { junit?: string },
  outcome: { tail: string; durationMs: number },
  mask: (text: string) => string,
): Promise<TestResults> {
  const fromTail = () => recogniseTests(outcome.tail);
  if (!check.junit) return { summary: fromTail(), cases: null, junitProblem: null };
  // The kernel stamps files with a coarse clock (a tick behind): 50 ms of slack keeps every file the check
  // wrote and still leaves out what was there before it (an earlier attempt's report, a checked-out one).
  const sinceMs = Date.now() - outcome.durationMs - 50;
  const read = await readJunitReportsOffThread({ checkoutDir, glob: check.junit, sinceMs });
  const junitProblem = read.problems.length > 0 ? `junit: ${read.problems.join("; ")}` : null;
  const summary = summaryFromJunit({ cases: read.cases, problems: read.problems }, read.filesRead);
  if (summary)
    return { summary: maskSummary(summary, mask), cases: read.cases.map((c) => maskCase(c, mask)), junitProblem };
  return { summary: fromTail(), cases: null, junitProblem };
}

// What the test results change once the check's verdict is known: no sign that any test ran (issue 21,
// item 6) is a warning, or under the Work's `requireTestSummary` a hollow verdict with the reason as its
// message; a declared JUnit report that could not be used is a warning.
export function judgeTestSummary(
  found: TestResults,
  check: { kind: string },
  verdict: string,
  requireTestSummary: boolean,
): { verdict: "hollow" | null; message: string | null; warning: string | null } {
  const missing = judgeMissingTestSummary(
    { kind: check.kind, verdict, hasSummary: found.summary !== null, junitProblem: found.junitProblem },
    requireTestSummary,
  );
  if (missing && "verdict" in missing) return { verdict: "hollow", message: missing.message, warning: null };
  return { verdict: null, message: null, warning: missing?.warning ?? found.junitProblem };
}
