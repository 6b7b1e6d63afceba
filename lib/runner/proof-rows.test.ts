// The proof rows end to end: real git repositories, a scripted agent changing the task's worktree, real
// commands run again in scratch worktrees. Each scenario is a cheat (or an honest fix) a coding agent
// might make, and what the rows and the gate say about it.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn } from "../testing/git-repo";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import type { RunDetail } from "../services/run-detail";
import { checkLogPathOf } from "./paths";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

// A small project: a buggy title() and a test of it that fails until it is fixed.
const TITLE_BUGGY = "module.exports = (s) => s;\n";
const TITLE_FIXED = "module.exports = (s) => s.toLowerCase();\n";
const HARNESS = `const assert = require("node:assert");
const it = (name, fn) => { fn(); console.log("ok " + name); };
it.skip = (name) => console.log("skip " + name);
`;
const TITLE_TEST = `${HARNESS}const title = require("../src/title");
it("lower-cases the title", () => assert.strictEqual(title("Hello"), "hello"));
`;
const PROJECT = {
  "src/title.js": TITLE_BUGGY,
  "test/title.test.js": TITLE_TEST,
  "scripts/gate.sh": "set -e\nnode test/title.test.js\n",
};
const UNIT = check("unit", 'shopt -s nullglob; for f in test/*.test.js; do node "$f"; done', { kind: "test" });

// An agent command writing files (path → content; null deletes), committing or not.
function agentWriting(files: Record<string, string | null>, commit = true): string {
  const writes = Object.entries(files).map(([file, content]) =>
    content === null
      ? `rm -f ${file}`
      : `mkdir -p ${path.posix.dirname(file)} && printf %s ${shellQuote(content)} > ${file}`,
  );
  return [...writes, ...(commit ? ["git add -A", "git commit -qm agent"] : [])].join(" && ");
}
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

type RowView = { verdict: string; required: boolean; message: string | null };
function proofOf(detail: RunDetail, n = 1): Record<string, RowView> {
  const attempt = detail.attempts.find((a) => a.n === n)!;
  return Object.fromEntries(
    attempt.results
      .filter((r) => r.checkId.startsWith("_"))
      .map((r) => [r.checkId, { verdict: r.verdict, required: r.required, message: r.message }]),
  );
}
function logOf(detail: RunDetail, checkId: string, n = 1): string {
  return fs.readFileSync(checkLogPathOf(h.dataDir, detail.run.id, n, checkId), "utf8");
}

describe("_tests-added", () => {
  it("a change without tests is red: reported under warn, deciding the gate under required", async () => {
    const agent = agentWriting({ "src/title.js": TITLE_FIXED }, false);
    const warn = await makeScenario(
      h,
      { checkDefaults: [UNIT], agentCommand: agent, requireTests: "warn" },
      { files: PROJECT },
    );
    const reported = await dispatchAndSettle(h, warn.task.id);
    expect(proofOf(reported)["_tests-added"]).toMatchObject({
      verdict: "failed",
      required: false,
      message: "The change adds or changes no test: none of its files is a test file",
    });
    expect(reported.attempts[0].results.find((r) => r.checkId === "unit")!.verdict).toBe("passed");
    expect(reported.run.gate).toBe("green");
    expect(reported.run.ending).toBe("accepted");
    expect(reported.attempts[0].results.find((r) => r.checkId === "_tests-added")!.kind).toBe("proof");
    expect(logOf(reported, "_tests-added")).toContain("src/title.js; none matches the Work's test patterns");

    const required = await makeScenario(
      h,
      { checkDefaults: [UNIT], agentCommand: agent, requireTests: "required", maxGateAttempts: 1 },
      { files: PROJECT },
    );
    const blocked = await dispatchAndSettle(h, required.task.id);
    expect(proofOf(blocked)["_tests-added"]).toMatchObject({ verdict: "failed", required: true });
    expect(blocked.run.gate).toBe("red");
    expect(blocked.run.ending).toBe("partial");
  });

  it("a change with a test lists the test files it touched; off makes no row", async () => {
    const agent = agentWriting({
      "src/title.js": TITLE_FIXED,
      "test/upper.test.js": `${HARNESS}it("keeps lower case", () => assert.ok(true));\n`,
    });
    const s = await makeScenario(
      h,
      { checkDefaults: [UNIT], agentCommand: agent, requireTests: "required" },
      { files: PROJECT },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(proofOf(detail)["_tests-added"]).toMatchObject({
      verdict: "passed",
      message: "The change touches 1 test file: test/upper.test.js",
    });
    expect(detail.run.ending).toBe("accepted");

    const off = await makeScenario(
      h,
      { checkDefaults: [UNIT], agentCommand: agent, requireTests: "off" },
      { files: PROJECT },
    );
    expect(proofOf(await dispatchAndSettle(h, off.task.id))["_tests-added"]).toBeUndefined();
  });
});

describe("_protected", () => {
  it("an agent that edits the gate script to exit 0 turns the gate red, though the script now passes", async () => {
    const s = await makeScenario(
      h,
      {
        checkDefaults: [check("gate", "bash scripts/gate.sh")],
        agentCommand: agentWriting({ "scripts/gate.sh": "exit 0\n" }),
        maxGateAttempts: 2,
      },
      { files: PROJECT },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    const gate = detail.attempts[0].results.find((r) => r.checkId === "gate")!;
    expect(gate.verdict).toBe("passed");
    expect(proofOf(detail)._protected).toEqual({
      verdict: "failed",
      required: true,
      message: '"gate" passes only with its edited gate: scripts/gate.sh',
    });
    expect(logOf(detail, "_protected")).toContain('scripts/gate.sh (decides check "gate")');
    expect(logOf(detail, "_protected")).toContain('"gate" failed (exit code 1)');
    expect(detail.run.gate).toBe("red");
    expect(detail.run.ending).toBe("partial");
    // The next attempt's brief hands the red row back like any red check, with what to do.
    const brief = detail.attempts[1].brief ?? "";
    expect(brief).toContain("### _protected — The gate was not edited: failed");
    expect(brief).toContain("What to do: undo the changes to these files");
  });

  it("a protected file (the default conftest.py) is named, even uncommitted; an honest change \
leaves the row green", async () => {
    const s = await makeScenario(
      h,
      {
        checkDefaults: [UNIT],
        agentCommand: agentWriting(
          { "src/title.js": TITLE_FIXED, "tests/conftest.py": "# report all passed\n" },
          false,
        ),
        protectedPaths: ["**/conftest.py", "pytest.ini"],
        maxGateAttempts: 1,
      },
      { files: PROJECT },
    );
    const cheat = await dispatchAndSettle(h, s.task.id);
    expect(proofOf(cheat)._protected).toMatchObject({
      verdict: "failed",
      message: "The change edits the gate's own files: tests/conftest.py",
    });
    expect(cheat.run.gate).toBe("red");

    const honest = await makeScenario(
      h,
      {
        checkDefaults: [UNIT],
        agentCommand: agentWriting({ "src/title.js": TITLE_FIXED }),
        protectedPaths: ["**/conftest.py"],
      },
      { files: PROJECT },
    );
    const ok = await dispatchAndSettle(h, honest.task.id);
    expect(proofOf(ok)._protected).toMatchObject({
      verdict: "passed",
      message: "The change leaves the gate's own files alone",
    });
    expect(ok.run.gate).toBe("green");
  });
});

describe("_tests-kept", () => {
  const scenario = (agent: string) =>
    makeScenario(h, { checkDefaults: [UNIT], agentCommand: agent, maxGateAttempts: 1 }, { files: PROJECT });

  it("an agent that weakens an assertion: the test as it was still fails, so the row and the gate \
are red", async () => {
    const weakened = TITLE_TEST.replace('assert.strictEqual(title("Hello"), "hello")', 'assert.ok(title("Hello"))');
    const detail = await dispatchAndSettle(
      h,
      (await scenario(agentWriting({ "test/title.test.js": weakened }))).task.id,
    );
    expect(detail.attempts[0].results.find((r) => r.checkId === "unit")!.verdict).toBe("passed");
    expect(proofOf(detail)["_tests-kept"]).toEqual({
      verdict: "failed",
      required: true,
      message: 'With the tests as they were, "unit" fails: the change weakened or removed tests',
    });
    const log = logOf(detail, "_tests-kept");
    expect(log).toContain("test/title.test.js (modified)");
    expect(log).toContain('"unit" failed (exit code 1)');
    expect(log).toContain("AssertionError");
    expect(detail.run.gate).toBe("red");
  });

  it("a weakened test that writes the original back on disk as it runs: the checks changed a file of the \
change, and the gate is red", async () => {
    const restoring =
      `require("node:fs").writeFileSync(__filename, ${JSON.stringify(TITLE_TEST)});\n` +
      'console.log("ok restored");\n';
    const s = await scenario(agentWriting({ "test/title.test.js": restoring }));
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].results.find((r) => r.checkId === "unit")!.verdict).toBe("passed");
    // The checkout shows the original again; the commit keeps the weakened test.
    expect(fs.readFileSync(path.join(s.worktree, "test/title.test.js"), "utf8")).toBe(TITLE_TEST);
    expect(gitIn(s.worktree, "show", "HEAD:test/title.test.js")).toContain("ok restored");
    expect(proofOf(detail)._unchanged).toMatchObject({ verdict: "failed", required: true });
    expect(proofOf(detail)._unchanged.message).toContain("test/title.test.js (modified)");
    expect(detail.run.gate).toBe("red");
  });

  it("an agent that deletes the failing test file: red, naming the deleted file", async () => {
    const detail = await dispatchAndSettle(h, (await scenario(agentWriting({ "test/title.test.js": null }))).task.id);
    expect(detail.attempts[0].results.find((r) => r.checkId === "unit")!.verdict).toBe("passed");
    expect(proofOf(detail)["_tests-kept"]).toMatchObject({
      verdict: "failed",
      message:
        'With the tests as they were, "unit" fails: the change weakened or removed tests (the ' +
        "change deleted test/title.test.js)",
    });
    expect(detail.run.gate).toBe("red");
  });

  it("an agent that adds it.skip: red, naming the marker", async () => {
    const skipped = TITLE_TEST.replace('it("lower-cases', 'it.skip("lower-cases');
    const detail = await dispatchAndSettle(
      h,
      (await scenario(agentWriting({ "test/title.test.js": skipped }))).task.id,
    );
    expect(proofOf(detail)["_tests-kept"]).toMatchObject({
      verdict: "failed",
      message:
        'With the tests as they were, "unit" fails: the change weakened or removed tests (the change added it.skip)',
    });
    expect(logOf(detail, "_tests-kept")).toContain('test/title.test.js: it.skip — it.skip("lower-cases the title"');
  });

  it("an honest fix keeps the tests that were there; the task's worktree is left as the agent left it", async () => {
    const s = await scenario(agentWriting({ "src/title.js": TITLE_FIXED }, false));
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(proofOf(detail)["_tests-kept"]).toMatchObject({
      verdict: "passed",
      message: "No test file that was there was changed or deleted",
    });
    expect(detail.run.gate).toBe("green");
    // Uncommitted, untouched by the proof step; no scratch worktree is left behind.
    expect(gitIn(s.worktree, "status", "--porcelain")).toBe("M src/title.js");
    // (The checkout is a repository of its own: its only worktree is itself.)
    expect(gitIn(s.worktree, "worktree", "list").split("\n")).toHaveLength(1);
  });

  it("a test file the change modified without weakening it still passes as it was: green", async () => {
    const extended = `${TITLE_TEST}it("keeps lower case", () => assert.strictEqual(title("abc"), "abc"));\n`;
    const detail = await dispatchAndSettle(
      h,
      (await scenario(agentWriting({ "src/title.js": TITLE_FIXED, "test/title.test.js": extended }))).task.id,
    );
    expect(proofOf(detail)["_tests-kept"]).toMatchObject({
      verdict: "passed",
      message: "The 1 test file the change modified or deleted still passes as it was",
    });
    expect(detail.run.gate).toBe("green");
  });
});

describe("bounds", () => {
  it("a re-run is stopped when the run's budget runs out: the row is skipped, and the gate is not green", async () => {
    // The test as it was sleeps; the agent's version does not.
    const slowTest = `${HARNESS}require("node:child_process").execSync("sleep 120");\n`;
    const s = await makeScenario(
      h,
      {
        checkDefaults: [UNIT],
        agentCommand: agentWriting({ "test/title.test.js": `${HARNESS}it("quick", () => {});\n` }),
        budgetSec: 6,
        maxGateAttempts: 1,
      },
      { files: { ...PROJECT, "test/title.test.js": slowTest } },
    );
    const started = Date.now();
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(detail.attempts[0].results.find((r) => r.checkId === "unit")!.verdict).toBe("passed");
    expect(proofOf(detail)["_tests-kept"]).toMatchObject({
      verdict: "skipped",
      required: true,
      message: "Not run to the end: stopped when the run's budget ran out",
    });
    expect(detail.run.gate).toBe("red");
  });
});

describe("_fails-without-change", () => {
  // A task adds an acceptance check (provesChange by default).
  const withAcceptance = (command: string, vacuousPolicy: string) =>
    makeScenario(
      h,
      {
        checkDefaults: [UNIT],
        agentCommand: agentWriting({ "src/title.js": TITLE_FIXED }),
        vacuousPolicy,
        maxGateAttempts: 1,
      },
      { files: PROJECT, task: { acceptanceChecks: [check("accept", command, { kind: "test" })] } },
    );

  it("an acceptance check that passes on the start commit is red under required", async () => {
    const detail = await dispatchAndSettle(h, (await withAcceptance("test -f src/title.js", "required")).task.id);
    expect(proofOf(detail)["_fails-without-change"]).toEqual({
      verdict: "failed",
      required: true,
      message: '"accept" passes without the change too: it proves nothing',
    });
    expect(logOf(detail, "_fails-without-change")).toContain('"accept" passed');
    expect(detail.run.gate).toBe("red");
  });

  it("the same check under warn is reported, and the gate stays green", async () => {
    const detail = await dispatchAndSettle(h, (await withAcceptance("test -f src/title.js", "warn")).task.id);
    expect(proofOf(detail)["_fails-without-change"]).toMatchObject({ verdict: "failed", required: false });
    expect(detail.run.gate).toBe("green");
    expect(detail.run.ending).toBe("accepted");
  });

  it("a check that fails on the start commit proves the change: green", async () => {
    const detail = await dispatchAndSettle(h, (await withAcceptance("node test/title.test.js", "required")).task.id);
    expect(proofOf(detail)["_fails-without-change"]).toMatchObject({
      verdict: "passed",
      message: 'Without the change, "accept" fails: it tests the work',
    });
    expect(logOf(detail, "_fails-without-change")).toContain('"accept" failed (exit code 1)');
    expect(detail.run.gate).toBe("green");
  });

  it("a second run from a branch that already holds run #1's fix says so instead of blaming the check", async () => {
    const s = await makeScenario(
      h,
      {
        checkDefaults: [UNIT],
        // Idempotent: the second run finds the fix already committed.
        agentCommand:
          `${agentWriting({ "src/title.js": TITLE_FIXED }, false)} && git add -A && (git diff ` +
          `--cached --quiet || git commit -qm fix)`,
        vacuousPolicy: "warn",
        maxGateAttempts: 1,
      },
      { files: PROJECT, task: { acceptanceChecks: [check("accept", "node test/title.test.js", { kind: "test" })] } },
    );
    const first = await dispatchAndSettle(h, s.task.id);
    expect(first.run.ending).toBe("accepted");
    expect(proofOf(first)["_fails-without-change"]).toMatchObject({ verdict: "passed" });
    const second = await dispatchAndSettle(h, s.task.id);
    expect(proofOf(second)["_fails-without-change"]).toEqual({
      verdict: "failed",
      required: false,
      message: `The start commit already passes: the task's branch held run #${first.run.number}'s fix`,
    });
    const log = logOf(second, "_fails-without-change");
    expect(log).toContain(`on which run #${first.run.number} of this task went green`);
    expect(log).not.toContain("they prove nothing");
  });

  it("the change's test files are laid over the start commit: a new test fails there, so the check \
is not vacuous", async () => {
    const s = await makeScenario(
      h,
      {
        checkDefaults: [{ ...UNIT, provesChange: true }],
        agentCommand: agentWriting({
          "src/title.js": TITLE_FIXED,
          "test/more.test.js":
            `${HARNESS}const title = require("../src/title");\nit("lower-cases ABC", () => ` +
            `assert.strictEqual(title("ABC"), "abc"));\n`,
          "test/title.test.js": null,
        }),
        vacuousPolicy: "required",
        maxGateAttempts: 1,
      },
      { files: { ...PROJECT, "test/title.test.js": `${HARNESS}it("nothing", () => {});\n` } },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(proofOf(detail)["_fails-without-change"]).toMatchObject({ verdict: "passed" });
    expect(logOf(detail, "_fails-without-change")).toContain(
      "with the change's 1 test file laid over it:\n  test/more.test.js",
    );
    expect(detail.run.gate).toBe("green");
  });
});
