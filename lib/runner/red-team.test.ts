// The red team end to end: scripted red-team commands (shell) writing probes that fail, pass, land outside
// tests/redteam/ or over existing files, or run past the budget; real git, real processes.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn } from "../testing/git-repo";
import { check, createHarness, dispatchAndSettle, makeScenario, settle, type Harness } from "../testing/runner-harness";
import { waitFor } from "../testing/processes";
import { SYSTEM_ACTOR } from "../auth/actor";
import { cancelRun, dispatchTask } from "../services/runs";
import { CUT_SHORT_BY_STOP, isStoppedRow } from "../gates/row-warning";
import { attemptDirOf } from "./paths";
import type { RunDetail } from "../services/run-detail";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

const TITLE_TEST = `const assert = require("node:assert");
assert.strictEqual(require("../src/title")("Hello"), "hello");
console.log("ok lower-cases");
`;
const PROJECT = { "src/title.js": "module.exports = (s) => s;\n", "test/title.test.js": TITLE_TEST };
const LOWER = "module.exports = (s) => s.toLowerCase();\n";
const LOWER_TRIM = "module.exports = (s) => s.trim().toLowerCase();\n";
const TRIM_PROBE = `const assert = require("node:assert");
assert.strictEqual(require("../../src/title")("  Hi "), "hi");
console.log("ok trims");
`;
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const write = (file: string, content: string) =>
  `mkdir -p ${path.posix.dirname(file)} && printf %s ${shellQuote(content)} > ${file}`;
function script(name: string, body: string): string {
  const file = path.join(h.scratch, `${name}.sh`);
  fs.writeFileSync(file, `set -e\n${body}\n`);
  return `bash ${file}`;
}
const rowOf = (d: RunDetail, n = 1) => d.attempts.find((a) => a.n === n)?.results.find((r) => r.checkId === "_redteam");

// A task of a Work with the full profile, its test check and the red team's test command, over PROJECT.
const scenario = (work: Record<string, unknown>) =>
  makeScenario(
    h,
    {
      profile: "full",
      checkDefaults: [check("unit", "node test/title.test.js", { kind: "test" })],
      redTeamTestCommand: 'node "$GATEHOUSE_PROBE"',
      maxGateAttempts: 1,
      ...work,
    },
    { files: PROJECT },
  );

async function run(work: Record<string, unknown>) {
  const s = await scenario(work);
  return { s, detail: await dispatchAndSettle(h, s.task.id) };
}

describe("red team", () => {
  it("a failing probe is the next attempt's feedback; once it passes it is committed on the task branch", async () => {
    const agent =
      `if [ "$GATEHOUSE_ATTEMPT" = 1 ]; then ${write("src/title.js", LOWER)}; else ` +
      `${write("src/title.js", LOWER_TRIM)}; fi`;
    const { s, detail } = await run({
      agentCommand: agent,
      maxGateAttempts: 2,
      redTeamCommand: script(
        "trim",
        `${write("tests/redteam/trim.test.js", TRIM_PROBE)}\necho "tried surrounding spaces" > ` +
          `"$GATEHOUSE_REPORT_FILE"`,
      ),
    });
    expect(rowOf(detail, 1)).toMatchObject({ verdict: "failed", required: true, kind: "proof" });
    expect(rowOf(detail, 1)?.message).toBe("1 of 1 red-team probe failed: tests/redteam/trim.test.js");
    expect(detail.attempts[0].redTeam).toMatchObject({ committed: null, report: "tried surrounding spaces\n" });
    expect(detail.attempts[1].brief).toContain("### _redteam");
    expect(detail.attempts[1].brief).toContain("tests/redteam/trim.test.js: failed (exit code 1)");
    expect(detail.attempts[1].brief).toContain("AssertionError");
    expect(rowOf(detail, 2)?.verdict).toBe("passed");
    const kept = detail.attempts[1].redTeam!;
    expect(kept.committed).toMatch(/^[0-9a-f]{40}$/);
    expect(detail.run.ending).toBe("accepted");
    expect(gitIn(s.worktree, "log", "-1", "--format=%s", kept.committed!)).toBe(
      `test(redteam): probes for ${s.task.key}`,
    );
    expect(gitIn(s.worktree, "show", "--name-only", "--format=", kept.committed!)).toBe("tests/redteam/trim.test.js");
  });

  it("files outside tests/redteam/, over an existing file or not matching testPatterns are refused; \
the probe is kept", async () => {
    const { s, detail } = await run({
      agentCommand: write("src/title.js", LOWER),
      testPatterns: ["**/*.test.js"],
      redTeamCommand: script(
        "sprawl",
        [
          write(
            "tests/redteam/hello.test.js",
            'require("node:assert").strictEqual(require("../../src/title")("A"), "a");\n',
          ),
          write("test/title.test.js", "process.exit(0);\n"),
          write("src/evil.js", "module.exports = 1;\n"),
          write("tests/redteam/notes.md", "ideas\n"),
        ].join("\n"),
      ),
    });
    const record = detail.attempts[0].redTeam!;
    expect(record.refused).toEqual(
      expect.arrayContaining([
        { path: "test/title.test.js", reason: "would overwrite an existing file" },
        { path: "src/evil.js", reason: "outside tests/redteam/" },
        { path: "tests/redteam/notes.md", reason: "not a test file (testPatterns)" },
      ]),
    );
    expect(record.probes.map((p) => [p.path, p.verdict])).toEqual([["tests/redteam/hello.test.js", "passed"]]);
    expect(gitIn(s.worktree, "show", "--name-only", "--format=", record.committed!)).toBe(
      "tests/redteam/hello.test.js",
    );
    // The task branch's own test is untouched, and nothing else came along.
    expect(fs.readFileSync(path.join(s.worktree, "test/title.test.js"), "utf8")).toBe(TITLE_TEST);
    expect(fs.existsSync(path.join(s.worktree, "src/evil.js"))).toBe(false);
    expect(detail.run.ending).toBe("accepted");
  });

  it("a red team that runs past the budget is stopped and reported", async () => {
    const { detail } = await run({
      agentCommand: write("src/title.js", LOWER),
      budgetSec: 8,
      redTeamCommand: "sleep 120",
    });
    expect(rowOf(detail)).toMatchObject({ verdict: "error", message: "stopped when the run's budget ran out" });
    expect(detail.run.ending).not.toBe("accepted");
  });

  it("a red team a cancel cuts short is skipped and reads Stopped: a stop is no error of anyone's", async () => {
    const s = await scenario({ agentCommand: write("src/title.js", LOWER), redTeamCommand: "echo probing; sleep 60" });
    const { id } = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    const log = path.join(attemptDirOf(h.dataDir, id, 1), "_redteam.run.log");
    await waitFor(() => fs.existsSync(log) && fs.readFileSync(log, "utf8").includes("probing"), {
      what: "the red team to start",
    });
    await cancelRun(SYSTEM_ACTOR, id);
    const detail = await settle(h, id);
    const row = rowOf(detail)!;
    expect(row).toMatchObject({ verdict: "skipped", message: CUT_SHORT_BY_STOP });
    expect(isStoppedRow(row)).toBe(true);
    expect([detail.run.ending, detail.run.gate]).toEqual(["rejected", "stopped"]);
  });
});
