// The test set does not silently shrink (README, "Proof rows"): the tests a check ran against those it ran
// at the start commit. With names — a verbose reporter that names each test (node:test's TAP, pytest -v,
// the ✔/✓ lines of spec-style reporters), or per-test results from JUnit XML when a check declares them —
// a test that passed at the start must still run; without names, the count must not drop. Pure.
import type { TestCase as JunitCase } from "./junit";
import { stripAnsi } from "./strip-ansi";
import type { TestCounts } from "./test-summary";

// What one run of a check shows of its tests. `names` null: the output does not name every test.
export type TestSet = { ran: number | null; names: string[] | null };

// Per-test results from a check's JUnit reports (the `testCases` its result stores, lib/gates/junit.ts).
type TestCase = Pick<JunitCase, "name" | "className" | "status">;

const TAP = /^\s*(not )?ok \d+ - (.*?)(\s+#\s*(SKIP|TODO)\b.*)?$/i;
const PYTEST_VERBOSE = /^(\S+::\S.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/;
const CHECK_MARK = /^\s*[✔✓√]\s+(.+?)(\s+\(\d+(\.\d+)?\s*m?s\)|\s+\d+(\.\d+)?\s*m?s)?$/;

// The names of the tests that passed, as the runner printed them, or null when it named none.
export function passedNamesOf(output: string): string[] | null {
  const names: string[] = [];
  let named = false;
  for (const raw of stripAnsi(output).split(/\r?\n/)) {
    const line = raw.trimEnd();
    const tap = TAP.exec(line);
    if (tap) {
      named = true;
      // node:test names a file it ran as a test of its own (an absolute path): the file is not a test.
      if (!tap[1] && !tap[4] && !tap[2].startsWith("/")) names.push(tap[2].replace(/\\#/g, "#"));
      continue;
    }
    const py = PYTEST_VERBOSE.exec(line);
    if (py) {
      named = true;
      if (py[2] === "PASSED" || py[2] === "XPASS") names.push(py[1]);
      continue;
    }
    const mark = CHECK_MARK.exec(line);
    if (mark) {
      named = true;
      names.push(mark[1]);
    }
  }
  return named ? [...new Set(names)] : null;
}

// The test set of one run: from per-test results when there are any, else from the output and its counts.
// Names count only when the output holds all of them (its tail not cut, every passed test named).
export function testSetOf(input: {
  counts: Pick<TestCounts, "passed" | "failed" | "total"> | null;
  output: string | null;
  isWhole: boolean;
  cases?: readonly TestCase[] | null;
}): TestSet {
  if (input.cases?.length) {
    const passed = input.cases.filter((c) => c.status === "passed");
    return {
      ran: input.cases.filter((c) => c.status !== "skipped").length,
      names: [...new Set(passed.map((c) => (c.className ? `${c.className}::${c.name}` : c.name)))],
    };
  }
  const ran = input.counts ? input.counts.passed + input.counts.failed : null;
  const named = input.output && input.isWhole ? passedNamesOf(input.output) : null;
  const names = named && input.counts && named.length >= input.counts.passed ? named : null;
  return { ran, names };
}

export type Shrink = { checkId: string; vanished: string[]; before: number | null; after: number | null };

// How the tests a check ran shrank since the start (null: they did not). A test file the change deleted
// outright is what `_tests-kept` reports as deleted: then fewer tests is expected, not a silent shrink.
export function shrinkOf(input: {
  checkId: string;
  before: TestSet;
  after: TestSet;
  deletesTests: boolean;
}): Shrink | null {
  const { before, after } = input;
  if (input.deletesTests) return null;
  if (before.names && after.names) {
    const now = new Set(after.names);
    const vanished = before.names.filter((n) => !now.has(n));
    return vanished.length ? { checkId: input.checkId, vanished, before: before.ran, after: after.ran } : null;
  }
  if (before.ran !== null && after.ran !== null && after.ran < before.ran)
    return { checkId: input.checkId, vanished: [], before: before.ran, after: after.ran };
  return null;
}

// Renames from `git diff-tree -r -z -M --name-status` output: [from, to] pairs.
export function parseRenames(output: string): { from: string; to: string }[] {
  const parts = output.split("\0").filter((p) => p !== "");
  const renames: { from: string; to: string }[] = [];
  for (let i = 0; i < parts.length; ) {
    const code = parts[i];
    if (code.startsWith("R") || code.startsWith("C")) {
      if (code.startsWith("R")) renames.push({ from: parts[i + 1], to: parts[i + 2] });
      i += 3;
    } else i += 2;
  }
  return renames;
}
