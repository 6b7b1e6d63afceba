// The brief the agent reads: the task, the checks that must pass, and from attempt 2 what failed.
import { isBlockingVerdict, type Verdict } from "./gate";
import type { TestCase } from "./junit";
import { formatTestCounts, type TestCounts } from "./test-summary";
import { passingRulesOf } from "./passing-rules";

// executor "agent": the agent runs it and reports it (hidden checks never reach the brief: the caller leaves them out).
// isBuiltin: Gatehouse runs it itself (command is its description, not something to type).
export type BriefCheck = {
  id: string;
  name: string;
  command: string;
  isBuiltin?: boolean;
  required: boolean;
  cwd?: string;
  // What passing means when it is not "exits 0": the exit code it expects, text its output must contain.
  expectExit?: number;
  expectStdout?: string;
  executor?: "platform" | "agent";
};
export type BriefFailure = {
  checkId: string;
  name: string;
  verdict: string;
  exitCode: number | null;
  logTail: string | null;
  logNote: string | null;
  // The result's message and the test runner's counts, when one was recognised.
  message?: string | null;
  tests?: TestCounts | null;
  // From the check's JUnit reports: the failed and errored tests, each with its message.
  failedTests?: readonly Pick<TestCase, "name" | "className" | "message">[];
  executor?: "platform" | "agent";
};
// A row of the previous attempt that did not block but warns (e.g. "no test summary seen: …").
export type BriefWarning = { checkId: string; name: string; warning: string };

// The previous attempt's warnings worth telling the agent: rows that did not block (a blocking one is
// listed with its failure already).
export function briefWarningsOf(
  rows: readonly { checkId: string; name: string; verdict: Verdict; warning: string | null }[],
): BriefWarning[] {
  return rows
    .filter((r) => r.warning !== null && !isBlockingVerdict(r.verdict))
    .map((r) => ({ checkId: r.checkId, name: r.name, warning: r.warning! }));
}

const HOLLOW_ADVICE =
  "0 tests ran: the test command found no tests. Make it run the tests (the test files exist and " +
  "match what the runner looks for); a test command that runs nothing proves nothing.";

export type BriefInput = {
  task: { key: string; title: string; description: string; branch: string };
  workName: string;
  attemptN: number;
  maxAttempts: number;
  checks: readonly BriefCheck[];
  policy: string;
  // Failing checks of the previous attempt (empty on attempt 1).
  failures: readonly BriefFailure[];
  // Warnings on rows of the previous attempt that did not fail (empty on attempt 1).
  warnings?: readonly BriefWarning[];
  previousAttemptN: number | null;
  // The criteria to show working in .gatehouse/evidence.md (profiles standard and full; empty: none asked).
  evidence?: readonly string[];
};

const oneLine = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
};

function fenceFor(text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  return "`".repeat(longest + 1);
}

export function composeBrief(input: BriefInput): string {
  const { task } = input;
  const lines: string[] = [];
  lines.push(`# ${task.key}: ${task.title}`);
  lines.push("");
  lines.push(`Work: ${input.workName} · branch ${task.branch} · attempt ${input.attemptN} of ${input.maxAttempts}`);
  lines.push("");
  lines.push("## The task");
  lines.push("");
  lines.push(task.description.trim() || "(no description)");
  lines.push("");
  lines.push("## Checks that must pass");
  lines.push("");
  if (input.policy === "off")
    lines.push("Checks are off for this run (policy off): nothing is verified after you finish.");
  else if (input.checks.length === 0) lines.push("No checks are declared.");
  const checks = input.policy === "off" ? [] : input.checks;
  const listCheck = (check: BriefCheck, lang: string) => {
    const where = check.cwd ? ` (in ${check.cwd})` : "";
    // Where it runs is said above; what passing means when it is not "exits 0", here.
    const passes = passingRulesOf({ expectExit: check.expectExit, expectStdout: check.expectStdout });
    lines.push(
      `- ${check.id} — ${check.name}${check.required ? " (required)" : " (reports only)"}${where}` +
        `${passes.length ? ` (${passes.join("; ")})` : ""}`,
    );
    if (check.isBuiltin) {
      lines.push(`  built-in, run by Gatehouse: ${check.command}`);
      return;
    }
    const fence = fenceFor(check.command);
    lines.push(`  ${fence}${lang}`, ...check.command.split("\n").map((l) => `  ${l}`), `  ${fence}`);
  };
  for (const check of checks) if (check.executor !== "agent") listCheck(check, "bash");
  const agentChecks = checks.filter((c) => c.executor === "agent");
  if (agentChecks.length > 0) {
    lines.push("", "## Checks you run and report", "");
    lines.push("Gatehouse does not run these: you do, then report what you found.", "");
    for (const check of agentChecks) listCheck(check, "text");
    lines.push("", "When you have run them, write one JSON file at $GATEHOUSE_REPORT_FILE, exactly:", "");
    const example = agentChecks.map((c) => `{"id": "${c.id}", "status": "pass", "message": "what you saw"}`);
    lines.push("```json", `{"checks": [${example.join(", ")}]}`, "```", "");
    lines.push(
      'status is "pass" or "fail"; each id once. A check you leave out is "skipped: not reported"; ' +
        "an unreadable file makes every one of them an error.",
    );
  }
  if (input.evidence?.length) {
    lines.push("", "## Evidence", "");
    lines.push(
      "Show each acceptance criterion working in `.gatehouse/evidence.md` (that path, from the root of the checkout):",
      "for each, a `## <check id>` heading, the command you ran in a ``` fence, and what it " +
        "printed in the next ``` fence.",
      "Without it the gate is red even when every check passes.",
      `Criteria: ${input.evidence.join(", ")}`,
      "",
      "Write it like this, with the output each command really printed:",
      "",
    );
    // The exact file to write: one section per criterion, its command filled in.
    const sections = input.evidence.flatMap((id) => {
      const command = input.checks.find((c) => c.id === id && !c.isBuiltin)?.command ?? "<the command you ran>";
      return [`## ${id}`, "", "```", command, "```", "", "```", "<what it printed>", "```", ""];
    });
    const fence = fenceFor(sections.join("\n"));
    lines.push(`${fence}markdown`, ...sections.slice(0, -1), fence);
  }
  if (input.failures.length > 0) {
    lines.push("");
    lines.push(`## What failed in attempt ${input.previousAttemptN ?? input.attemptN - 1}`);
    for (const f of input.failures) {
      lines.push("");
      lines.push(
        `### ${f.checkId} — ${f.name}: ${f.verdict}${f.exitCode === null ? "" : ` (exit code ${f.exitCode})`}`,
      );
      lines.push("");
      if (f.verdict === "hollow") lines.push(HOLLOW_ADVICE, "");
      else if (f.tests) lines.push(`Tests: ${formatTestCounts(f.tests)}${f.message ? ` (${f.message})` : ""}`, "");
      if (f.failedTests?.length) {
        lines.push("Failed tests (from its JUnit report):");
        for (const t of f.failedTests)
          lines.push(
            `- ${t.className ? `${t.className} › ` : ""}${t.name}${t.message ? `: ${oneLine(t.message)}` : ""}`,
          );
        lines.push("");
      }
      if (f.logNote) lines.push(`Note: ${f.logNote}`, "");
      const tail = f.logTail ?? "";
      if (f.executor === "agent") lines.push(`From your report: ${f.message ?? "(no message)"}`);
      else if (tail.trim().length === 0) lines.push("(no output)");
      else {
        const fence = fenceFor(tail);
        lines.push(`Last lines of its log:`, "", `${fence}text`, tail.replace(/\n$/, ""), fence);
      }
    }
    lines.push("");
    lines.push("Fix what these checks report, then stop: Gatehouse runs the checks again.");
  }
  if (input.warnings?.length) {
    lines.push("", `## Warnings from attempt ${input.previousAttemptN ?? input.attemptN - 1}`, "");
    for (const w of input.warnings) lines.push(`- ${w.checkId} — ${w.name}: ${w.warning}`);
  }
  return `${lines.join("\n")}\n`;
}
