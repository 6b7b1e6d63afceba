// The first line of a log tail where a test runner reports a failure, so a tail can open there instead
// of at its bottom (a summary and trailer lines after the failure would otherwise hide the assertion).
import { stripAnsi } from "./strip-ansi";

// Each runner's own way of starting a failure report, on a line of its own (colours stripped).
const FAILURE_STARTS: readonly RegExp[] = [
  /^\s*not ok \d+\b/, // TAP, node --test's TAP reporter
  /^\s*✖ (?!failing tests:)\S/, // node --test's spec reporter (not its closing list)
  /^\s*● (?!Console\b)\S/, // Jest's failure headers
  /^\s*(?:FAIL|×|✗)\s+\S/, // Jest / Vitest file and test lines
  /^\s*\d+\) \S/, // Mocha's numbered failures
  /^_{3,} .+ _{3,}$/, // pytest's failure sections
  /^--- FAIL: /, // go test
  /^---- .+ stdout ----$/, // cargo test
];

// 1-based line number of the first failure report in `text`, or null when no runner named one.
export function firstFailureLine(text: string): number | null {
  const lines = stripAnsi(text).split("\n");
  const at = lines.findIndex((line) => FAILURE_STARTS.some((pattern) => pattern.test(line)));
  return at === -1 ? null : at + 1;
}

// Lines that say what failed: a runner's failure report (above), its closing count ("3 failed", "Tests:
// 1 failed, 4 passed", "2 failing"), or a tool's error line ("error: …", "FAILED tests/…", "TypeError: …").
const FAILURE_SAYINGS: readonly RegExp[] = [
  ...FAILURE_STARTS,
  /\b[1-9]\d* (?:failed|failing|failures?|errors?)\b/i,
  /^\s*(?:error|fatal|ERROR|FATAL|FAILED|FAIL)\b[:\s[]/,
  /^\s*(?:[A-Z]\w*)?(?:Error|Exception)\b(?:\s*\[\w+\])?:\s/,
];

// The message of a command that failed: the last line of `text` that says what failed, rather than its last
// line, which after the failure is often a trailer or a warning ("warning: deprecated API"). null when no
// line says so (the caller keeps the last line). Colours stripped, at most 500 characters.
export function failureSummaryLine(text: string): string | null {
  const lines = stripAnsi(text).split(/\r?\n|\r/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    // A bare "FAIL" or "error" says that, not what.
    if (/^(?:FAIL|FAILED|ERROR|error|fatal)$/.test(line)) continue;
    if (FAILURE_SAYINGS.some((pattern) => pattern.test(line)))
      return line.length > 500 ? `${line.slice(0, 499)}…` : line;
  }
  return null;
}
