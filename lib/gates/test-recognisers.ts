// One recogniser per test runner: each reads the lines of a check's output (colours already stripped) and
// returns the runner's last summary — counts and the failing tests it named — with the line it ended on.
// Formats are taken from real output of each runner (lib/gates/fixtures/test-output).

type Counts = { passed: number; failed: number; skipped: number; total: number };
type Found = { counts: Counts | null; failing: string[]; at: number };
export type Recogniser = (lines: readonly string[]) => Found | null;

const countsOf = (passed: number, failed: number, skipped: number): Counts => ({
  passed,
  failed,
  skipped,
  total: passed + failed + skipped,
});

const NONE: Counts = countsOf(0, 0, 0);

function lastIndex(lines: readonly string[], test: (line: string) => boolean, before = lines.length): number {
  for (let i = Math.min(before, lines.length) - 1; i >= 0; i--) if (test(lines[i])) return i;
  return -1;
}

const unique = (names: string[]) => [...new Set(names.filter((n) => n.length > 0))];

// "a › b › c", "a > b > c" → "c": the test's own title.
const leaf = (path: string, separator: string) => path.split(separator).pop()!.trim();

// node --test, spec ("ℹ tests 5") and TAP ("# tests 5") reporters.
const NODE_COUNT = /^(?:#|ℹ) (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/;
// Node 20 reports a test file that ran no test() as one passing test named after the file.
const FILE_AS_TEST = /^(?:\/|[A-Za-z]:\\).*\.[cm]?[jt]sx?$/;

export const nodeTest: Recogniser = (lines) => {
  const at = lastIndex(lines, (l) => /^(?:#|ℹ) tests \d+$/.test(l));
  if (at < 0) return null;
  const n: Record<string, number> = {};
  let end = at;
  for (let i = at; i < lines.length; i++) {
    const m = NODE_COUNT.exec(lines[i]);
    if (!m) break;
    n[m[1]] = Number(m[2]);
    end = i;
  }
  if (n.pass === undefined || n.fail === undefined) return null;
  const isTap = lines[at].startsWith("#");
  const start = lastIndex(lines, (l) => /^(?:TAP version|ℹ tests )/.test(l), at) + 1;
  const files = lines
    .slice(start, at)
    .filter((l) =>
      (isTap ? /^ok \d+ - (.*)$/.exec(l)?.[1] : /^✔ (.*) \(\d[\d.]*m?s\)$/.exec(l)?.[1])?.match(FILE_AS_TEST),
    ).length;
  const passed = Math.max(0, n.pass - files);
  const counts = countsOf(passed, n.fail + (n.cancelled ?? 0), (n.skipped ?? 0) + (n.todo ?? 0));
  return { counts, failing: isTap ? tapFailures(lines, start, at) : specFailures(lines, at), at: end };
};

// Leaf tests only: a parent (suite) line follows its children's plan ("    1..3").
function tapFailures(lines: readonly string[], from: number, to: number): string[] {
  const names: string[] = [];
  for (let i = from; i < to; i++) {
    const m = /^(\s*)not ok \d+ - (.*)$/.exec(lines[i]);
    if (!m || /#\s*(TODO|SKIP)\b/i.test(m[2])) continue;
    const previous = lines[i - 1] ?? "";
    const plan = /^(\s*)1\.\.\d+$/.exec(previous);
    if (plan && plan[1].length > m[1].length) continue;
    names.push(m[2].replace(/\\#/g, "#").replace(/\\\\/g, "\\"));
  }
  return unique(names);
}

// The spec reporter repeats each failing test after "✖ failing tests:", preceded by "test at file:line".
function specFailures(lines: readonly string[], summaryAt: number): string[] {
  const section = lastIndex(lines, (l) => l === "✖ failing tests:");
  const from = section > summaryAt ? section : -1;
  const names: string[] = [];
  if (from >= 0) {
    for (let i = from + 1; i < lines.length; i++) {
      const m = /^✖ (.*) \(\d[\d.]*m?s\)$/.exec(lines[i]);
      if (m && /^test at /.test(lines[i - 1] ?? "")) names.push(m[1]);
    }
  }
  return unique(names);
}

// Jest: "Tests:       2 failed, 2 skipped, 3 passed, 5 total"; "No tests found, exiting with code 1".
export const jest: Recogniser = (lines) => {
  const at = lastIndex(
    lines,
    (l) => /^Tests:\s+.*\d+ total$/.test(l) || /^No tests found, exiting with code \d+$/.test(l),
  );
  if (at < 0) return null;
  if (lines[at].startsWith("No tests found")) return { counts: NONE, failing: [], at };
  const n = partsOf(lines[at]);
  const failing = lines
    .slice(0, at)
    .map((l) => /^\s+● (.+)$/.exec(l)?.[1])
    .filter((name): name is string => !!name && name !== "Test suite failed to run" && !name.startsWith("Console"))
    .map((name) => leaf(name, " › "));
  return {
    counts: countsOf(n.passed ?? 0, n.failed ?? 0, (n.skipped ?? 0) + (n.todo ?? 0)),
    failing: unique(failing),
    at,
  };
};

function partsOf(line: string): Record<string, number> {
  const n: Record<string, number> = {};
  for (const m of line.matchAll(/(\d+) ([a-z]+(?: [a-z]+)?)/g)) n[m[2]] = (n[m[2]] ?? 0) + Number(m[1]);
  return n;
}

// Vitest: "      Tests  2 failed | 3 passed (5)"; "No test files found, exiting with code 1".
export const vitest: Recogniser = (lines) => {
  const at = lastIndex(
    lines,
    (l) =>
      /^\s*Tests\s{2,}\d+ (?:passed|failed|skipped|todo)( \| \d+ [a-z ]+)*\s*\(\d+\)$/.test(l) ||
      /^No test files found, exiting with code \d+$/.test(l),
  );
  if (at < 0) return null;
  if (lines[at].startsWith("No test files found")) return { counts: NONE, failing: [], at };
  const n = partsOf(lines[at].replace(/\(\d+\)$/, ""));
  const failing = lines
    .slice(0, at)
    .map((l) => /^\s*FAIL\s+\S+ > (.+)$/.exec(l)?.[1])
    .filter((name): name is string => !!name)
    .map((name) => leaf(name, " > "));
  return {
    counts: countsOf(n.passed ?? 0, n.failed ?? 0, (n.skipped ?? 0) + (n.todo ?? 0)),
    failing: unique(failing),
    at,
  };
};

// Mocha: "  3 passing (6ms)", "  2 failing", "  1 pending"; then each failure as "  1) suite\n       title:".
export const mocha: Recogniser = (lines) => {
  const passingAt = lastIndex(lines, (l) => /^\s*\d+ passing(?: \(\d+(?:\.\d+)?(?:ms|s|m)\))?$/.test(l));
  if (passingAt < 0) return null;
  let at = passingAt;
  const n: Record<string, number> = { passing: Number(/\d+/.exec(lines[passingAt])![0]) };
  for (let i = passingAt + 1; i < Math.min(lines.length, passingAt + 3); i++) {
    const m = /^\s*(\d+) (failing|pending)$/.exec(lines[i]);
    if (!m) break;
    n[m[2]] = Number(m[1]);
    at = i;
  }
  const failing: string[] = [];
  if (n.failing) {
    for (let i = at + 1; i < lines.length; i++) {
      if (!/^\s+\d+\) .+/.test(lines[i])) continue;
      let title = lines[i].replace(/^\s+\d+\) /, "");
      while (!title.endsWith(":") && i + 1 < lines.length && lines[i + 1].trim() && !/^\s+\d+\) /.test(lines[i + 1]))
        title = lines[++i].trim();
      failing.push(title.replace(/:$/, "").trim());
    }
  }
  return { counts: countsOf(n.passing, n.failing ?? 0, n.pending ?? 0), failing: unique(failing), at };
};

// uvu: "  Total:     5", "  Passed:    3", "  Skipped:   0" (Total leaves the skipped out).
export const uvu: Recogniser = (lines) => {
  const at = lastIndex(lines, (l) => /^\s*Total:\s+\d+$/.test(l));
  if (at < 0) return null;
  const passed = /^\s*Passed:\s+(\d+)$/.exec(lines[at + 1] ?? "");
  const skipped = /^\s*Skipped:\s+(\d+)$/.exec(lines[at + 2] ?? "");
  if (!passed || !skipped) return null;
  const total = Number(/\d+/.exec(lines[at])![0]);
  const failing = lines
    .slice(0, at)
    .map((l) => /^\s*FAIL\s+(?:.*\s)?"(.*)"\s*$/.exec(l)?.[1])
    .filter((name): name is string => name !== undefined);
  return {
    counts: countsOf(Number(passed[1]), Math.max(0, total - Number(passed[1])), Number(skipped[1])),
    failing: unique(failing),
    at: at + 2,
  };
};

// pytest: "===== 2 failed, 3 passed, 1 skipped in 1.34s =====" (-q: without the rules); "no tests ran in 1.31s".
// Only pytest's own words count ("12 files in 3.1s" from another tool is not a test summary).
const PYTEST_PART = "\\d+ (?:passed|failed|skipped|xfailed|xpassed|errors?|deselected|warnings?|rerun)";
const PYTEST_LINE = new RegExp(
  `^=*\\s*((?:${PYTEST_PART})(?:, ${PYTEST_PART})*|no tests ran) in \\d+(?:\\.\\d+)?s(?: \\([\\d:.]+\\))?\\s*=*$`,
);

export const pytest: Recogniser = (lines) => {
  const at = lastIndex(lines, (l) => PYTEST_LINE.test(l));
  if (at < 0) return null;
  const n = partsOf(PYTEST_LINE.exec(lines[at])![1]);
  const failing = lines
    .slice(0, at)
    .map((l) => /^(?:FAILED|ERROR) (\S+?)(?: - .*)?$/.exec(l)?.[1])
    .filter((name): name is string => !!name)
    .map((name) => leaf(name, "::"));
  return {
    counts: countsOf(
      (n.passed ?? 0) + (n.xpassed ?? 0),
      (n.failed ?? 0) + (n.error ?? 0) + (n.errors ?? 0),
      (n.skipped ?? 0) + (n.xfailed ?? 0),
    ),
    failing: unique(failing),
    at,
  };
};

// go test: "--- PASS: TestX (0.00s)" lines with -v (subtests indented), package lines "ok  \tpkg\t0.002s",
// "FAIL\tpkg\t0.003s", "?   \tpkg\t[no test files]". Without -v go prints no count of passing tests.
export const goTest: Recogniser = (lines) => {
  const results = new Map<string, string>();
  let at = -1;
  let packages = 0;
  let emptyPackages = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const m = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(\d+(?:\.\d+)?s\)$/.exec(line);
    if (m) {
      results.set(m[2], m[1]);
      at = i;
      continue;
    }
    if (/^\?\s+\t?\S+\s+\[no test files\]$/.test(line) || /^ok\s+\S+\s+.*\[no tests to run\]$/.test(line)) {
      packages++;
      emptyPackages++;
      at = i;
    } else if (/^(ok {2}|FAIL)\t\S+\t/.test(line)) {
      packages++;
      at = i;
    }
  }
  if (at < 0) return null;
  // A parent test passes or fails with its subtests: count the leaves.
  const names = [...results.keys()];
  const leaves = names.filter((name) => !names.some((other) => other.startsWith(`${name}/`)));
  const failing = leaves.filter((name) => results.get(name) === "FAIL");
  const isVerbose = lines.some((l) => /^=== RUN\s/.test(l));
  const counts = isVerbose
    ? countsOf(
        leaves.filter((name) => results.get(name) === "PASS").length,
        failing.length,
        leaves.filter((name) => results.get(name) === "SKIP").length,
      )
    : packages > 0 && packages === emptyPackages && results.size === 0
      ? NONE
      : null;
  return { counts, failing, at };
};

// cargo test: one "test result: ok. 3 passed; 0 failed; 2 ignored; …" per test binary (unit, integration,
// doc tests): they add up.
export const cargo: Recogniser = (lines) => {
  let at = -1;
  const sum = { passed: 0, failed: 0, ignored: 0 };
  const failing: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;/.exec(lines[i]);
    if (m) {
      sum.passed += Number(m[1]);
      sum.failed += Number(m[2]);
      sum.ignored += Number(m[3]);
      at = i;
      continue;
    }
    const f = /^test (\S+) \.\.\. FAILED$/.exec(lines[i]);
    if (f) failing.push(leaf(f[1], "::"));
  }
  if (at < 0) return null;
  return { counts: countsOf(sum.passed, sum.failed, sum.ignored), failing: unique(failing), at };
};
