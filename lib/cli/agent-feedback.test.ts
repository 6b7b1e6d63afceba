// What the agent is told after a gate (the stop hook's reason, run_gate's answer, get_brief's last failures):
// it must be able to tell what holds the gate back, and what passing means for a check that does not pass
// on exit 0.
import { describe, expect, it } from "vitest";
import type { RunJson } from "./api-client";
import { describeFailures } from "./agent-feedback";
import { passingRulesOf } from "../gates/passing-rules";

type Row = Partial<RunJson["attempts"][number]["checks"][number]>;
const row = (checkId: string, extra: Row): Row => ({
  checkId,
  name: `${checkId} passes`,
  required: true,
  hidden: false,
  verdict: "failed",
  exitCode: null,
  message: null,
  logTail: null,
  ...extra,
});

function runWith(rows: Row[], checks: Record<string, unknown>[], gate = "red") {
  const run = {
    number: 4,
    maxAttempts: 3,
    checks,
    attempts: [{ n: 2, gate, commit: "0123456789abcdef", checks: rows }],
  } as unknown as RunJson;
  return describeFailures(run, run.attempts[0]);
}

describe("describeFailures", () => {
  it("lists a failing row that is not required apart from the failing checks, saying it does not decide", () => {
    const text = runWith(
      [
        row("unit", { exitCode: 1, logTail: "not ok 1 - totals\n" }),
        row("_tests-added", { name: "Tests were added", required: false, message: "no test file changed" }),
      ],
      [{ id: "unit", name: "unit passes", command: "npm test", required: true }],
    );
    expect(text.split("\n")).toEqual([
      "Gatehouse: the gate is red on attempt 2 of 3 at commit 0123456789ab (run #4).",
      "",
      "Failing checks:",
      '- unit "unit passes": failed, exit code 1',
      "  command: npm test",
      "  end of its log:",
      "    not ok 1 - totals",
      "",
      "Failing, but not required (these do not decide the gate):",
      '- _tests-added "Tests were added": failed — no test file changed',
    ]);
  });

  it("on a green gate, a failing row that is not required is not called a failing check", () => {
    const text = runWith([row("_tests-added", { name: "Tests were added", required: false })], [], "green");
    expect(text).not.toContain("Failing checks:");
    expect(text).toContain(
      'Failing, but not required (these do not decide the gate):\n- _tests-added "Tests were added"',
    );
  });

  it("says what passing means when it is not exit 0: a check expecting exit 1 that exited 0", () => {
    const text = runWith(
      [row("no-todo", { exitCode: 0, logTail: "src/a.ts:3: // TODO\n" })],
      [{ id: "no-todo", name: "No TODO", command: 'grep -rn "TODO" src', required: true, expectExit: 1 }],
    );
    expect(text).toContain('- no-todo "no-todo passes": failed, exit code 0 (passes on exit code 1)');
  });

  it("a held-out row is its name and verdict only, required or not", () => {
    const text = runWith(
      [row("acceptance", { name: "Acceptance", hidden: true, exitCode: 1, logTail: "secret" })],
      [{ id: "acceptance", name: "Acceptance", required: true, hidden: true }],
    );
    expect(text).toContain('- held-out check "Acceptance": failed (held out: what it runs and prints is not shown)');
    expect(text).not.toContain("secret");
  });
});

describe("passingRulesOf", () => {
  it.each<[string, Parameters<typeof passingRulesOf>[0], string[]]>([
    ["exit 0 and nothing else", { expectExit: 0 }, []],
    ["an exit code other than 0", { expectExit: 1 }, ["passes on exit code 1"]],
    ["an output it must print", { expectStdout: "all passed" }, ['its output must contain "all passed"']],
    ["a directory of its own", { cwd: "packages/app" }, ["runs in packages/app"]],
  ])("%s", (_what, check, rules) => {
    expect(passingRulesOf(check)).toEqual(rules);
  });
});
