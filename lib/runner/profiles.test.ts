// Verification profiles end to end: a real git repository, a scripted agent, and scripted review commands
// (shell scripts) that behave well and badly. What the `_evidence` and `_review` rows, the run's ending, the
// stored review and the next brief say about each.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import type { RunDetail } from "../services/run-detail";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

const TITLE_BUGGY = "module.exports = (s) => s;\n";
const TITLE_FIXED = "module.exports = (s) => s.toLowerCase();\n";
const TITLE_TEST = `const assert = require("node:assert");
assert.strictEqual(require("../src/title")("Hello"), "hello");
console.log("ok lower-cases the title");
`;
const PROJECT = { "src/title.js": TITLE_BUGGY, "test/title.test.js": TITLE_TEST };
// The task's acceptance criterion: a check the task adds.
const CRITERION = check("title-lower", "node test/title.test.js", { kind: "test" });
const EVIDENCE = [
  "## title-lower",
  "```bash",
  "node test/title.test.js",
  "```",
  "```",
  "ok lower-cases the title",
  "```",
  "",
].join("\n");

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const write = (file: string, content: string) =>
  `mkdir -p ${path.posix.dirname(file)} && printf %s ${shellQuote(content)} > ${file}`;
// The agent fixes the code; with evidence from attempt `evidenceFrom` on (0: never).
function agent(evidenceFrom: number, evidence = EVIDENCE): string {
  return [
    write("src/title.js", TITLE_FIXED),
    `if [ "$GATEHOUSE_ATTEMPT" -ge ${evidenceFrom} ] && [ ${evidenceFrom} -gt 0 ]; then ` +
      `${write(".gatehouse/evidence.md", evidence)}; fi`,
  ].join(" && ");
}
// A review command: a shell script in the harness's scratch directory.
function reviewer(name: string, body: string): string {
  const file = path.join(h.scratch, `${name}.sh`);
  fs.writeFileSync(file, `set -e\n${body}\n`);
  return `bash ${file}`;
}
// Writes the report with node (which the shims see as one executed command).
const report = (criteria: string, gaps = "[]") =>
  `node -e 'require("fs").writeFileSync(process.env.GATEHOUSE_REPORT_FILE, ` +
  `JSON.stringify({criteria: ${criteria}, gaps: ${gaps}}))' "$out"`;

function rowOf(detail: RunDetail, checkId: string, n = 1) {
  return detail.attempts.find((a) => a.n === n)?.results.find((r) => r.checkId === checkId);
}

async function scenario(work: Record<string, unknown>) {
  return makeScenario(
    h,
    { profile: "standard", maxGateAttempts: 1, ...work },
    { files: PROJECT, task: { acceptanceChecks: [CRITERION] } },
  );
}

describe("evidence", () => {
  it("missing evidence is red and named in the next brief; evidence for every criterion turns it green", async () => {
    const s = await scenario({ agentCommand: agent(2), maxGateAttempts: 2 });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(rowOf(detail, "_evidence", 1)).toMatchObject({ verdict: "failed", required: true, kind: "proof" });
    expect(rowOf(detail, "_evidence", 1)?.message).toContain(".gatehouse/evidence.md is missing");
    expect(rowOf(detail, "title-lower", 1)?.verdict).toBe("passed");
    expect(detail.attempts[0].gate).toBe("red");
    expect(detail.attempts[1].brief).toContain("### _evidence");
    expect(detail.attempts[1].brief).toContain("title-lower");
    expect(rowOf(detail, "_evidence", 2)?.verdict).toBe("passed");
    expect(detail.run.ending).toBe("accepted");
    expect(detail.run.profile).toBe("standard");
  });

  it("names the criterion whose output block is empty", async () => {
    const hollow = EVIDENCE.replace("ok lower-cases the title\n", "");
    const s = await scenario({ agentCommand: agent(1, hollow) });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(rowOf(detail, "_evidence")?.message).toBe("Evidence missing — title-lower: empty output");
    expect(detail.run.gate).toBe("red");
  });

  it("profile lite asks for no evidence", async () => {
    const s = await scenario({ agentCommand: agent(0), profile: "lite" });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(rowOf(detail, "_evidence")).toBeUndefined();
    expect(detail.run.profile).toBe("lite");
    expect(detail.run.ending).toBe("accepted");
  });
});

describe("review", () => {
  it("a reviewer that runs the criterion and pastes its output: met, score 1, the run accepted", async () => {
    const good = reviewer(
      "good",
      `out=$(node test/title.test.js)\n` +
        `${report(
          `[{id: "title-lower", status: "met", command: "node test/title.test.js", output: process.argv[1]}]`,
        )}`,
    );
    const s = await scenario({ agentCommand: agent(1), reviewCommand: good });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(rowOf(detail, "_review")).toMatchObject({ verdict: "passed", required: true });
    const review = detail.attempts[0].review!;
    expect(review.outcome).toBe("met");
    expect(review.score).toBe(1);
    expect(review.criteria[0]).toMatchObject({ id: "title-lower", status: "met", output: "ok lower-cases the title" });
    expect(review.tries).toHaveLength(1);
    expect(review.tries[0].executed).toContain("node test/title.test.js");
    // The review command's own shell is not counted.
    expect(review.tries[0].executed.some((c) => c.startsWith("bash "))).toBe(false);
    expect(detail.run.ending).toBe("accepted");
  });

  it("a reviewer that executes nothing is discarded and retried, then the run is inconclusive", async () => {
    const idle = reviewer(
      "idle",
      `printf '%s' '{"criteria":[{"id":"title-lower","status":"met","command":"node ` +
        `test/title.test.js","output":"ok"}],"gaps":[]}' > "$GATEHOUSE_REPORT_FILE"`,
    );
    const s = await scenario({ agentCommand: agent(1), reviewCommand: idle });
    const detail = await dispatchAndSettle(h, s.task.id);
    const review = detail.attempts[0].review!;
    expect(review.outcome).toBe("not-run");
    expect(review.tries).toHaveLength(4);
    expect(review.tries.every((t) => t.problem === "it executed no command" && t.executed.length === 0)).toBe(true);
    expect(rowOf(detail, "_review")?.verdict).toBe("error");
    expect(detail.run.ending).toBe("inconclusive");
    expect(detail.run.endingReason).toContain("the review did not run after 4 tries: it executed no command");
  });

  it("met claimed with no output counts as unverified: red, and the gaps go into the next brief", async () => {
    const claims = reviewer(
      "claims",
      `out=$(ls)\n` +
        `${report(
          `[{id: "title-lower", status: "met", command: "node test/title.test.js", output: ""}]`,
          `["nothing was pasted for title-lower"]`,
        )}`,
    );
    const s = await scenario({ agentCommand: agent(1), reviewCommand: claims, maxGateAttempts: 2 });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(rowOf(detail, "_review", 1)?.verdict).toBe("failed");
    expect(rowOf(detail, "_review", 1)?.message).toContain("0 of 1 criteria met");
    expect(detail.attempts[0].review?.criteria[0].status).toBe("unverified");
    expect(detail.attempts[0].gate).toBe("red");
    expect(detail.attempts[1].brief).toContain("### _review");
    expect(detail.attempts[1].brief).toContain("nothing was pasted for title-lower");
    expect(detail.run.ending).toBe("partial");
  });

  it("a reviewer that disagrees with a passing check: inconclusive, both outputs kept side by side", async () => {
    const contrary = reviewer(
      "contrary",
      `out=$(echo 'title("Hello") gave "Hello"')\n` +
        `${report(
          `[{id: "title-lower", status: "missing", command: "node test/title.test.js", output: process.argv[1]}]`,
        )}`,
    );
    const s = await scenario({ agentCommand: agent(1), reviewCommand: contrary });
    const detail = await dispatchAndSettle(h, s.task.id);
    const review = detail.attempts[0].review!;
    expect(review.outcome).toBe("disagreement");
    expect(review.criteria[0]).toMatchObject({
      status: "missing",
      disagrees: true,
      output: 'title("Hello") gave "Hello"',
    });
    expect(review.criteria[0].check).toMatchObject({ verdict: "passed" });
    expect(review.criteria[0].check?.output).toContain("ok lower-cases the title");
    expect(detail.run.ending).toBe("inconclusive");
    expect(detail.run.endingReason).toContain(
      "disagrees with the checks on title-lower (review: missing, check: passed)",
    );
  });

  it("a report that is not JSON or names unknown criteria counts as not run and is retried", async () => {
    const counter = path.join(h.scratch, "flaky-count");
    const flaky = reviewer(
      "flaky",
      [
        `n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${counter}`,
        "out=$(node test/title.test.js)",
        `if [ $n = 1 ]; then echo 'not json {' > "$GATEHOUSE_REPORT_FILE"; exit 0; fi`,
        `if [ $n = 2 ]; then ${report(`[{id: "no-such", status: "met", command: "x", output: "y"}]`)}; exit 0; fi`,
        report(`[{id: "title-lower", status: "met", command: "node test/title.test.js", output: process.argv[1]}]`),
      ].join("\n"),
    );
    const s = await scenario({ agentCommand: agent(1), reviewCommand: flaky });
    const detail = await dispatchAndSettle(h, s.task.id);
    const review = detail.attempts[0].review!;
    expect(review.tries.map((t) => t.problem)).toEqual([
      expect.stringContaining("its report is not JSON"),
      "its report names unknown criteria: no-such (the criteria: title-lower)",
      null,
    ]);
    expect(review.outcome).toBe("met");
    expect(detail.run.ending).toBe("accepted");
  });
});
