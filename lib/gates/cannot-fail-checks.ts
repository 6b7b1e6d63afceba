// Checks that cannot fail, or prove nothing, are pointed out while editing: a warning saying why and
// what to write instead (never a refusal: the team may know better).
// (Not the verdict `hollow`, which is a test check that ran no test: see test-summary.ts.)
import type { Check } from "./check-schema";

export type CannotFailWarning = { reason: string; instead: string };

const ALWAYS_PASSES = /^(true|:|\/bin\/true|\/usr\/bin\/true|exit(\s+0)?)$/;
const PRINTS_ONLY = /^(echo|printf)\b/;
const SWALLOWS_FAILURE = /(\|\|\s*(true|:|exit(\s+0)?)|;\s*(true|:|exit(\s+0)?))\s*$/;
// A pipeline (`a | b`, not `a || b`) can fail in its later commands: checks run with pipefail.
const IS_PIPELINE = /(^|[^|])\|(?!\|)/;

// The statements of a command, split on newlines, `;`, `&&` (good enough for single-line checks).
function statementsOf(command: string): string[] {
  return withoutComments(command)
    .split(/\n|;|&&/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !/^set\s+-/.test(s));
}

// Drops `# comments` (a # at a line start or after a space, outside quotes: good enough for warnings).
function withoutComments(command: string): string {
  return command
    .split("\n")
    .map((line) => (/^[^'"]*$/.test(line) ? line.replace(/(^|\s)#.*$/, "") : line))
    .join("\n");
}

export function findCannotFailWarnings(
  check: Pick<Check, "command" | "required" | "expectExit" | "expectStdout">,
): CannotFailWarning[] {
  if (!check.required || check.expectStdout !== undefined) return [];
  const command = (check.command ?? "").trim();
  if (!command) return [];
  const warnings: CannotFailWarning[] = [];
  const statements = statementsOf(command);
  const expectsZero = (check.expectExit ?? 0) === 0;

  const isPlain = (s: string) => !IS_PIPELINE.test(s);
  if (expectsZero && statements.length > 0 && statements.every((s) => ALWAYS_PASSES.test(s))) {
    warnings.push({
      reason: `"${command}" always exits 0: this check can never fail, so it verifies nothing`,
      instead: "a command that fails when the work is not done, e.g. npm test",
    });
  } else if (
    expectsZero &&
    statements.length > 0 &&
    statements.every((s) => isPlain(s) && (PRINTS_ONLY.test(s) || ALWAYS_PASSES.test(s)))
  ) {
    warnings.push({
      reason: "it only prints: echo passes whatever the code does",
      instead: "the command that proves it, e.g. npm test, or test -f dist/app.js",
    });
  } else if (
    expectsZero &&
    statements.length === 1 &&
    isPlain(statements[0]) &&
    /^git\s+status\b/.test(statements[0])
  ) {
    warnings.push({
      reason: "git status exits 0 whatever the checkout holds: it reports, it never fails",
      instead:
        'test -n "$(git status --porcelain)" (fails when nothing changed) or test -z "$(git status ' +
        '--porcelain)" (fails on uncommitted changes)',
    });
  } else if (
    expectsZero &&
    statements.length === 1 &&
    isPlain(statements[0]) &&
    /^git\s+diff\b.*--stat\b/.test(statements[0])
  ) {
    warnings.push({
      reason: "git diff --stat exits 0 with or without changes: it never fails",
      instead: "! git diff --quiet HEAD (fails when nothing changed) or git diff --quiet (fails on changes)",
    });
  } else if (expectsZero && statements.length === 1 && isPlain(statements[0]) && /^ls(\s|$)/.test(statements[0])) {
    warnings.push({
      reason: "ls passes as long as the directory exists: it proves nothing about the files",
      instead: 'test -f path/to/file, or test -n "$(ls dist)"',
    });
  }
  if (SWALLOWS_FAILURE.test(withoutComments(command).trim())) {
    warnings.push({
      reason: "the final `|| true` (or `; true`) turns every failure into a pass",
      instead: "drop it; if this step may fail without blocking, make the check not required instead",
    });
  }
  return warnings;
}
