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
