import { expect, it } from "vitest";
import type { RunDetail } from "../services/run-detail";
import { makeCheckSourceRepo } from "../testing/check-source-repos";
import { describeAsRoot } from "../testing/needs-root";
import { sandboxedHarness } from "../testing/sandboxed-harness";
import { check, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";

const TITLE_TEST = `const assert = require("node:assert");
assert.strictEqual(require("../src/title")("Hello"), "hello");
console.log("ok lower-cases the title");
`;
const EVIDENCE = "## title-lower\n```bash\nnode test/title.test.js\n```\n```\nok lower-cases the title\n```\n";
// The review: runs the criterion, says whether it shares a HOME with the agent, writes its report.
const REVIEW = `set -e
out=$(node test/title.test.js)
gaps='[]'
if [ -e "$HOME/agent-note" ]; then gaps='["LEAK: the review shares the agent HOME"]'; fi
node -e 'require("fs").writeFileSync(process.env.GATEHOUSE_REPORT_FILE, JSON.stringify({criteria: \
[{id: "title-lower", status: "met", command: "node test/title.test.js", output: process.argv[1]}], \
gaps: JSON.parse(process.argv[2])}))' "$out" "$gaps"
`;
const PROBE = `const assert = require("node:assert");
assert.strictEqual(require("../../src/title")("MiXeD"), "mixed");
`;
const RED_TEAM = `set -e
mkdir -p tests/redteam
cat > tests/redteam/mixed.test.js <<'JS'
${PROBE}JS
echo "tried mixed case" > "$GATEHOUSE_REPORT_FILE"
`;
const AGENT = [
  'echo planted > "$HOME/agent-note"',
  "printf 'module.exports = (s) => s.toLowerCase();\\n' > src/title.js",
  `mkdir -p .gatehouse && printf %s '${EVIDENCE}' > .gatehouse/evidence.md`,
].join(" && ");

let h: Harness;
const rowOf = (d: RunDetail, id: string) => d.attempts[0].results.find((r) => r.checkId === id);

describeAsRoot("every step of an attempt, sandboxed", () => {
  sandboxedHarness((made) => {
    h = made;
  });

  it("proof re-runs, the review and the red team do their work in the sandbox; the run is accepted", async () => {
    const s = await makeScenario(
      h,
      {
        profile: "full",
        maxGateAttempts: 1,
        requireTests: "warn",
        vacuousPolicy: "required",
        agentCommand: AGENT,
        checkDefaults: [check("unit", "node test/title.test.js", { kind: "test" })],
        reviewCommand: "bash review.sh",
        redTeamCommand: "bash redteam.sh",
        redTeamTestCommand: 'node "$GATEHOUSE_PROBE"',
      },
      {
        files: {
          "src/title.js": "module.exports = (s) => s;\n",
          "test/title.test.js": TITLE_TEST,
          "review.sh": REVIEW,
          "redteam.sh": RED_TEAM,
        },
        task: { acceptanceChecks: [check("title-lower", "node test/title.test.js", { kind: "test" })] },
      },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.sandboxMode).toBe("bwrap");
    expect(rowOf(detail, "_fails-without-change")?.verdict).toBe("passed");
    expect(rowOf(detail, "_evidence")?.verdict).toBe("passed");
    expect(detail.attempts[0].review).toMatchObject({ outcome: "met", score: 1, gaps: [] });
    expect(detail.attempts[0].review?.tries[0].executed).toContain("node test/title.test.js");
    expect(rowOf(detail, "_redteam")).toMatchObject({ verdict: "passed" });
    expect(detail.attempts[0].redTeam).toMatchObject({ report: "tried mixed case\n" });
    expect(detail.attempts[0].redTeam?.committed).toBeTruthy();
    expect(detail.run.ending).toBe("accepted");
  });

  it("a check reads its check sources' clone, read-only, and the agent never sees it", async () => {
    const source = makeCheckSourceRepo("v7");
    h.repos.push(source);
    const s = await makeScenario(h, {
      checkSources: [{ name: "gates", url: source.dir, ref: "main" }],
      agentCommand: 'echo done > done.txt; if [ -n "$GATEHOUSE_CHECKS_DIR" ]; then echo "LEAK: checks dir named"; fi',
      checkDefaults: [
        check("gate", 'bash "$GATEHOUSE_CHECKS_DIR/gates/check.sh"'),
        check(
          "tamper",
          '(echo "exit 0" > "$GATEHOUSE_CHECKS_DIR/gates/check.sh") 2>/dev/null && echo "LEAK: ' +
            'wrote the clone" || echo read-only',
        ),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].agentLogTail ?? "").not.toContain("LEAK");
    expect(rowOf(detail, "gate")).toMatchObject({ verdict: "passed", message: "genuine gate v7" });
    expect(rowOf(detail, "tamper")?.message).toBe("read-only");
    expect(detail.run.ending).toBe("accepted");
  });
});
