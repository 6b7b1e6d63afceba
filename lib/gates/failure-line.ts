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

// Lines a command prints after what it has to say, which never say what happened: warnings, a package
// manager's or make's closing words about the script that failed, timings. A result's message passes over
// them (and over a bare "FAIL" or "error", which says that, not what) to the line before.
const TRAILERS: readonly RegExp[] = [
  /^(?:warning|warn|WARN|WARNING)\b[:\s]/i,
  /^\(node:\d+\) \w*Warning\b/,
  /^npm (?:ERR!|error|warn|WARN)\b/,
  /^(?:ERR_PNPM_\w+|ELIFECYCLE)\b/,
  /^error Command failed with exit code \d+\.?$/,
  /^info Visit https:\/\/yarnpkg\.com\//,
  /^make(?:\[\d+\])?: \*\*\* /,
  /^(?:✨\s+)?Done in [\d.]+m?s\.?$/,
  /^(?:real|user|sys)\s+\d+m[\d.]+s$/,
  /^(?:FAIL|FAILED|ERROR|error|fatal)$/,
];

// A result's message: the last line of `text` that is not a trailer (the last non-empty line when every line
// is one), colours stripped, at most 500 characters; null when nothing was printed.
export function messageLineOf(text: string): string | null {
  const lines = stripAnsi(text)
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const said = lines.findLast((line) => !TRAILERS.some((pattern) => pattern.test(line))) ?? lines.at(-1);
  if (said === undefined) return null;
  return said.length > 500 ? `${said.slice(0, 499)}…` : said;
}
