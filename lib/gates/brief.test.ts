import { describe, expect, it } from "vitest";
import { parseAgentReport } from "./agent-report";
import { briefWarningsOf, composeBrief, type BriefCheck, type BriefFailure, type BriefInput } from "./brief";
import { findEvidenceProblems } from "./evidence";

type Block = { info: string; content: string; opener: string; closed: boolean };

// Fenced code blocks as a CommonMark reader sees them: an opening run of 3+ backticks (indented at most
// 3 spaces) is closed only by a line holding a run of backticks at least as long and nothing else.
function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,})([^`]*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const content: string[] = [];
    let closed = false;
    for (i = i + 1; i < lines.length; i++) {
      const close = /^ {0,3}(`{3,})[ \t]*$/.exec(lines[i]);
      if (close && close[1].length >= fence.length) {
        closed = true;
        break;
      }
      content.push(lines[i].startsWith(indent) ? lines[i].slice(indent.length) : lines[i].trimStart());
    }
    blocks.push({ info: info.trim(), content: content.join("\n"), opener: fence, closed });
  }
  return blocks;
}

const section = (brief: string, heading: string): string => {
  const start = brief.indexOf(heading);
  if (start < 0) return "";
  const rest = brief.slice(start + heading.length);
  const next = rest.search(/\n## /);
  return next < 0 ? rest : rest.slice(0, next);
};

const checks: BriefCheck[] = [
  { id: "lint", name: "Lint is clean", command: "npm run lint", required: true },
  { id: "unit", name: "Unit tests pass", command: "npm test -- --ci", required: true, cwd: "packages/api" },
  { id: "size", name: "Bundle stays small", command: "npm run size", required: false },
  { id: "no-todo", name: "No TODO left", command: "grep -rn TODO src", required: true, expectExit: 1 },
  { id: "hello", name: "Says hello", command: "./hello", required: true, expectStdout: "hello, world" },
];

const input = (over: Partial<BriefInput> = {}): BriefInput => ({
  task: {
    key: "GATE-12",
    title: "Fix the date parser",
    description: "Dates before 1970 parse wrong.",
    branch: "gatehouse/gate-12",
  },
  workName: "Payments",
  attemptN: 1,
  maxAttempts: 3,
  checks,
  policy: "required",
  failures: [],
  previousAttemptN: null,
  ...over,
});

const failure = (over: Partial<BriefFailure> = {}): BriefFailure => ({
  checkId: "unit",
  name: "Unit tests pass",
  verdict: "failed",
  exitCode: 1,
  logTail: "FAIL src/date.test.ts\n  expected 1969 to be 1970\n",
  logNote: null,
  ...over,
});

describe("composeBrief: attempt 1", () => {
  const brief = composeBrief(input());

  it("says what the task is", () => {
    expect(brief.startsWith("# GATE-12: Fix the date parser\n")).toBe(true);
    expect(brief).toContain("Work: Payments · branch gatehouse/gate-12 · attempt 1 of 3");
    expect(section(brief, "## The task")).toContain("Dates before 1970 parse wrong.");
  });

  it("lists every check with its id, name, whether it is required, and where it runs", () => {
    const list = section(brief, "## Checks that must pass");
    expect(list).toContain("- lint — Lint is clean (required)");
    expect(list).toContain("- unit — Unit tests pass (required) (in packages/api)");
    expect(list).toContain("- size — Bundle stays small (reports only)");
    // What passing means, when it is not "exits 0".
    expect(list).toContain("- no-todo — No TODO left (required) (passes on exit code 1)");
    expect(list).toContain('- hello — Says hello (required) (its output must contain "hello, world")');
    expect(list.indexOf("- lint")).toBeLessThan(list.indexOf("- unit"));
    expect(list.indexOf("- unit")).toBeLessThan(list.indexOf("- size"));
  });

  it("gives each check's command in its own bash block", () => {
    const blocks = fencedBlocks(brief);
    expect(blocks.map((b) => [b.info, b.content, b.closed])).toEqual([
      ["bash", "npm run lint", true],
      ["bash", "npm test -- --ci", true],
      ["bash", "npm run size", true],
      ["bash", "grep -rn TODO src", true],
      ["bash", "./hello", true],
    ]);
  });

  it("has no failure section", () => {
    expect(brief).not.toContain("What failed");
    expect(brief).not.toContain("Last lines of its log");
    expect(brief).not.toContain("Fix what these checks report");
  });

  it("ends with a single newline", () => {
    expect(brief.endsWith("\n")).toBe(true);
    expect(brief.endsWith("\n\n")).toBe(false);
  });
});

describe("composeBrief: the task and its checks", () => {
  it.each([
    ["empty", ""],
    ["blank", "  \n\t "],
  ])("says '(no description)' when the description is %s", (_label, description) => {
    const brief = composeBrief(input({ task: { ...input().task, description } }));
    expect(section(brief, "## The task").trim()).toBe("(no description)");
  });

  it("trims the description", () => {
    const brief = composeBrief(input({ task: { ...input().task, description: "\n\n  Make it fast.  \n\n" } }));
    expect(section(brief, "## The task").trim()).toBe("Make it fast.");
    expect(brief).toContain("\nMake it fast.\n");
  });

  it("says when no checks are declared", () => {
    const brief = composeBrief(input({ checks: [] }));
    expect(section(brief, "## Checks that must pass").trim()).toBe("No checks are declared.");
  });

  it("says when checks are off", () => {
    const brief = composeBrief(input({ policy: "off", checks: [] }));
    expect(section(brief, "## Checks that must pass")).toContain("Checks are off for this run (policy off)");
    expect(brief).not.toContain("No checks are declared.");
  });

  it("does not list checks as 'must pass' when checks are off", () => {
    const brief = composeBrief(
      input({ policy: "off", checks: [{ id: "unit", name: "Unit tests", command: "npm test", required: true }] }),
    );
    expect(section(brief, "## Checks that must pass")).not.toContain("npm test");
  });

  it("keeps every line of a multi-line command inside its block", () => {
    const command = "set -x\nnpm ci\n\nnpm test";
    const brief = composeBrief(input({ checks: [{ id: "ci", name: "CI", command, required: true }] }));
    expect(fencedBlocks(brief)).toEqual([{ info: "bash", content: command, opener: "```", closed: true }]);
  });

  it.each([
    ["a triple-backtick run", "grep -c '```' README.md"],
    ["a line that is a fence", "cat <<'EOF'\n```\nEOF"],
    ["a four-backtick run", "echo '````'"],
  ])("fences a command containing %s correctly", (_label, command) => {
    const brief = composeBrief(input({ checks: [{ id: "md", name: "Markdown", command, required: true }] }));
    const blocks = fencedBlocks(brief);
    expect(blocks).toHaveLength(1);
    expect(blocks[0].content).toBe(command);
    expect(blocks[0].closed).toBe(true);
  });
});

describe("composeBrief: attempt 2 and later", () => {
  it("lists each failing check's id, name, verdict, exit code and log tail", () => {
    const brief = composeBrief(
      input({
        attemptN: 2,
        previousAttemptN: 1,
        failures: [
          failure(),
          failure({
            checkId: "lint",
            name: "Lint is clean",
            verdict: "failed",
            exitCode: 2,
            logTail: "src/a.ts:3 no-unused-vars",
          }),
        ],
      }),
    );
    expect(brief).toContain("attempt 2 of 3");
    const failed = section(brief, "## What failed in attempt 1");
    expect(failed).toContain("### unit — Unit tests pass: failed (exit code 1)");
    expect(failed).toContain("### lint — Lint is clean: failed (exit code 2)");
    expect(failed.indexOf("### unit")).toBeLessThan(failed.indexOf("### lint"));
    const tails = fencedBlocks(failed).filter((b) => b.info === "text");
    expect(tails.map((b) => b.content)).toEqual([
      "FAIL src/date.test.ts\n  expected 1969 to be 1970",
      "src/a.ts:3 no-unused-vars",
    ]);
    expect(brief).toContain("Fix what these checks report, then stop: Gatehouse runs the checks again.");
  });

  it("names only the failing checks in the failure section", () => {
    const brief = composeBrief(input({ attemptN: 2, previousAttemptN: 1, failures: [failure()] }));
    const failed = section(brief, "## What failed in attempt 1");
    expect(failed).not.toContain("lint");
    expect(failed).not.toContain("size");
  });

  it.each<[string, Partial<BriefFailure>, string]>([
    ["a timeout without an exit code", { verdict: "timeout", exitCode: null }, "### unit — Unit tests pass: timeout\n"],
    ["an error without an exit code", { verdict: "error", exitCode: null }, "### unit — Unit tests pass: error\n"],
    [
      "exit code 0 (expectStdout not found)",
      { verdict: "failed", exitCode: 0 },
      "### unit — Unit tests pass: failed (exit code 0)\n",
    ],
    [
      "a signal-like exit code",
      { verdict: "failed", exitCode: 137 },
      "### unit — Unit tests pass: failed (exit code 137)\n",
    ],
  ])("heads %s correctly", (_label, over, heading) => {
    const brief = composeBrief(input({ attemptN: 2, previousAttemptN: 1, failures: [failure(over)] }));
    expect(brief).toContain(heading);
  });

  it("says which attempt failed when it is not the previous number", () => {
    const brief = composeBrief(input({ attemptN: 4, maxAttempts: 5, previousAttemptN: 2, failures: [failure()] }));
    expect(brief).toContain("## What failed in attempt 2");
    expect(brief).not.toContain("## What failed in attempt 3");
  });

  it("falls back to attempt n-1 when no previous attempt is given", () => {
    const brief = composeBrief(input({ attemptN: 3, previousAttemptN: null, failures: [failure()] }));
    expect(brief).toContain("## What failed in attempt 2");
  });

  it("puts the failure section after the checks", () => {
    const brief = composeBrief(input({ attemptN: 2, previousAttemptN: 1, failures: [failure()] }));
    expect(brief.indexOf("## Checks that must pass")).toBeLessThan(brief.indexOf("## What failed"));
  });

  it.each<[string, string | null]>([
    ["null", null],
    ["empty", ""],
    ["blank", "  \n\n\t\n"],
  ])("says '(no output)' for a %s log tail, without an empty block", (_label, logTail) => {
    const brief = composeBrief(input({ attemptN: 2, previousAttemptN: 1, failures: [failure({ logTail })] }));
    const failed = section(brief, "## What failed in attempt 1");
    expect(failed).toContain("(no output)");
    expect(failed).not.toContain("Last lines of its log");
    expect(fencedBlocks(failed)).toEqual([]);
  });

  it("removes one trailing newline from the tail and keeps everything else", () => {
    const logTail = "\n  indented first\nline two  \n\nlast\n";
    const brief = composeBrief(input({ attemptN: 2, previousAttemptN: 1, failures: [failure({ logTail })] }));
    const [tail] = fencedBlocks(section(brief, "## What failed")).filter((b) => b.info === "text");
    expect(tail.content).toBe("\n  indented first\nline two  \n\nlast");
  });

  describe("a log tail containing backticks is still fenced correctly", () => {
    it.each([
      ["a ``` line", "before\n```\nafter"],
      ["a ```js opener", "```js\nconsole.log(1)\n```"],
      ["a ```` run", "x ```` y\n````"],
      ["a ````` line at the very end", "output\n`````"],
      ["only backticks", "```"],
      ["inline `code` and ``double``", "expected `a` got ``b``"],
      ["a fence indented by spaces", "   ```\nstill inside"],
    ])("%s", (_label, logTail) => {
      const brief = composeBrief(
        input({
          attemptN: 2,
          previousAttemptN: 1,
          failures: [failure({ logTail }), failure({ checkId: "lint", name: "Lint", logTail: "after" })],
        }),
      );
      const failed = section(brief, "## What failed in attempt 1");
      const tails = fencedBlocks(failed).filter((b) => b.info === "text");
      // Both tails come out whole, each in its own closed block: the first never swallows the second.
      expect(tails.map((b) => [b.content, b.closed])).toEqual([
        [logTail, true],
        ["after", true],
      ]);
      const longestRun = Math.max(...Array.from(logTail.matchAll(/`+/g), (m) => m[0].length));
      expect(tails[0].opener.length).toBeGreaterThan(longestRun);
      expect(failed).toContain("### lint — Lint: failed (exit code 1)");
    });
  });

  it("shows the note when the log was cut, before the tail", () => {
    const logNote = "log cut: 12,582,912 of 45,000,000 bytes dropped from the middle";
    const brief = composeBrief(input({ attemptN: 2, previousAttemptN: 1, failures: [failure({ logNote })] }));
    const failed = section(brief, "## What failed in attempt 1");
    expect(failed).toContain(`Note: ${logNote}`);
    expect(failed.indexOf("Note:")).toBeGreaterThan(failed.indexOf("### unit"));
    expect(failed.indexOf("Note:")).toBeLessThan(failed.indexOf("Last lines of its log"));
  });

  it("shows the note even when nothing of the log is left", () => {
    const brief = composeBrief(
      input({ attemptN: 2, previousAttemptN: 1, failures: [failure({ logNote: "log cut", logTail: "" })] }),
    );
    expect(brief).toContain("Note: log cut");
    expect(brief).toContain("(no output)");
  });

  it("has no note when the log was kept whole", () => {
    const brief = composeBrief(input({ attemptN: 2, previousAttemptN: 1, failures: [failure({ logNote: null })] }));
    expect(brief).not.toContain("Note:");
  });

  it("keeps each note with its own check", () => {
    const brief = composeBrief(
      input({
        attemptN: 2,
        previousAttemptN: 1,
        failures: [failure({ logNote: null }), failure({ checkId: "lint", name: "Lint", logNote: "cut lint log" })],
      }),
    );
    expect(brief.indexOf("Note: cut lint log")).toBeGreaterThan(brief.indexOf("### lint"));
    expect(brief.match(/^Note:/gm)).toHaveLength(1);
  });
});

describe("composeBrief: test counts and hollow checks", () => {
  it("a hollow check is handed back as 0 tests ran, with what to do", () => {
    const brief = composeBrief(
      input({
        attemptN: 2,
        previousAttemptN: 1,
        failures: [failure({ verdict: "hollow", exitCode: 0, message: "0 tests ran", logTail: "# tests 0\n" })],
      }),
    );
    const failed = section(brief, "## What failed in attempt 1");
    expect(failed).toContain("### unit — Unit tests pass: hollow (exit code 0)");
    expect(failed).toContain("0 tests ran: the test command found no tests");
  });

  it("a failed check with recognised tests gives the counts and the failing tests' names", () => {
    const tests = { runner: "node:test" as const, passed: 2, failed: 2, skipped: 0, total: 4 };
    const message = "2 failed: lower-cases, drops punctuation";
    const brief = composeBrief(input({ attemptN: 2, previousAttemptN: 1, failures: [failure({ tests, message })] }));
    expect(section(brief, "## What failed in attempt 1")).toContain(
      "Tests: 2 passed · 2 failed (2 failed: lower-cases, drops punctuation)",
    );
  });
});

describe("agent checks in the brief", () => {
  const withAgent: BriefInput = {
    task: { key: "APP-1", title: "Fix it", description: "Fix it.", branch: "gatehouse/app-1" },
    workName: "App",
    attemptN: 1,
    maxAttempts: 3,
    policy: "required",
    failures: [],
    previousAttemptN: null,
    checks: [
      { id: "lint", name: "Lint is clean", command: "npm run lint", required: true },
      {
        id: "smoke",
        name: "Health says OK",
        command: "Open /health: it must say OK.",
        required: true,
        executor: "agent",
      },
    ],
  };

  it("lists them apart, as text, with a report example the report reader accepts", () => {
    const brief = composeBrief(withAgent);
    const mine = section(brief, "## Checks you run and report");
    expect(section(brief, "## Checks that must pass")).not.toContain("smoke");
    expect(mine).toContain("- smoke — Health says OK (required)");
    expect(mine).toContain("$GATEHOUSE_REPORT_FILE");
    const blocks = fencedBlocks(mine);
    expect(blocks.map((b) => b.info)).toEqual(["text", "json"]);
    expect(parseAgentReport(blocks[1].content)).toEqual({
      entries: [{ id: "smoke", status: "pass", message: "what you saw" }],
    });
  });

  it("hands a failed agent check back with what the agent reported", () => {
    const brief = composeBrief({
      ...withAgent,
      attemptN: 2,
      previousAttemptN: 1,
      failures: [
        {
          checkId: "smoke",
          name: "Health says OK",
          verdict: "failed",
          exitCode: null,
          logTail: null,
          logNote: null,
          message: "it said 502",
          executor: "agent",
        },
      ],
    });
    expect(brief).toContain("From your report: it said 502");
    expect(brief).not.toContain("(no output)");
  });
});

describe("the evidence the brief asks for", () => {
  it("gives the file to write with each criterion's command, which the evidence rule accepts once filled in", () => {
    const brief = composeBrief(input({ evidence: ["unit", "size"] }));
    expect(brief).toContain("`.gatehouse/evidence.md` (that path, from the root of the checkout)");
    expect(brief).toContain("Without it the gate is red even when every check passes.");
    const template = fencedBlocks(brief).find((b) => b.info === "markdown");
    expect(template?.closed).toBe(true);
    expect(template?.content).toContain("## unit\n\n```\nnpm test -- --ci\n```");
    expect(template?.content).toContain("## size\n\n```\nnpm run size\n```");
    const filled = template!.content.replaceAll("<what it printed>", "ok");
    expect(findEvidenceProblems(filled, ["unit", "size"])).toEqual([]);
  });
});

describe("composeBrief: JUnit failures and warnings", () => {
  it("lists the failed tests of a JUnit report with their messages, on one line each", () => {
    const brief = composeBrief(
      input({
        attemptN: 2,
        previousAttemptN: 1,
        failures: [
          failure({
            failedTests: [
              {
                name: "lower-cases the title",
                className: "test_slug",
                message: "assert 'Hello' == 'hello'\n  - hello",
              },
              { name: "trims spaces" },
            ],
          }),
        ],
      }),
    );
    expect(brief).toContain(
      "Failed tests (from its JUnit report):\n- test_slug › lower-cases the title: assert 'Hello' " +
        "== 'hello' - hello\n- trims spaces\n",
    );
  });

  it("says the previous attempt's warnings of rows that did not fail, and only those", () => {
    const warnings = briefWarningsOf([
      {
        checkId: "smoke",
        name: "Smoke tests",
        verdict: "passed",
        warning: "no test summary seen: Gatehouse cannot tell that tests ran",
      },
      { checkId: "unit", name: "Unit", verdict: "failed", warning: 'junit: no file matches "r/*.xml"' },
      { checkId: "lint", name: "Lint", verdict: "passed", warning: null },
    ]);
    expect(warnings).toEqual([
      { checkId: "smoke", name: "Smoke tests", warning: "no test summary seen: Gatehouse cannot tell that tests ran" },
    ]);
    const brief = composeBrief(input({ attemptN: 2, previousAttemptN: 1, warnings }));
    expect(brief).toContain(
      "## Warnings from attempt 1\n\n- smoke — Smoke tests: no test summary seen: Gatehouse " +
        "cannot tell that tests ran\n",
    );
    expect(composeBrief(input())).not.toContain("## Warnings");
  });
});
