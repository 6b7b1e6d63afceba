// Attacks on the platform's own reads and writes in a checkout, as an agent would make them: a committed
// `tests/redteam` link to a folder outside (the red team's probes must not land there), a mutation report
// that is a link to the database or to a JSON file outside (neither is read nor shown). Real git,
// real processes, real links.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import type { RunDetail } from "../services/run-detail";

let h: Harness;
let outside: string;
beforeAll(async () => {
  h = await createHarness();
  outside = path.join(h.scratch, "outside");
  fs.mkdirSync(outside);
});
afterAll(async () => h.cleanup());

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const rowOf = (d: RunDetail, id: string) => d.attempts[0].results.find((r) => r.checkId === id);
const PROJECT = {
  "src/title.js": "module.exports = (s) => s;\n",
  "test/title.test.js": 'require("node:assert").strictEqual(require("../src/title")("A"), "a");\n',
};
const LOWER = "module.exports = (s) => s.toLowerCase();\n";

async function run(work: Record<string, unknown>) {
  const s = await makeScenario(
    h,
    {
      profile: "full",
      checkDefaults: [check("unit", "node test/title.test.js", { kind: "test" })],
      maxGateAttempts: 1,
      ...work,
    },
    { files: PROJECT },
  );
  return { s, detail: await dispatchAndSettle(h, s.task.id) };
}

describe("the platform never follows a link out of the checkout", () => {
  it("red team: a committed tests/redteam link to a folder outside gets no probe file; the probe is \
an error saying why", async () => {
    const probeDir = path.join(outside, "redteam");
    fs.mkdirSync(probeDir);
    const probe = 'require("node:assert").strictEqual(require("../../src/title")("B"), "b");\n';
    const { detail } = await run({
      agentCommand:
        `printf %s ${shellQuote(LOWER)} > src/title.js && mkdir -p tests && ln -s ` +
        `${shellQuote(probeDir)} tests/redteam`,
      redTeamTestCommand: 'node "$GATEHOUSE_PROBE"',
      // The red team replaces the link with a real folder in its scratch worktree and writes its probe there.
      redTeamCommand: `rm tests/redteam && mkdir -p tests/redteam && printf %s ${shellQuote(
        probe,
      )} > tests/redteam/b.test.js`,
    });
    expect(fs.readdirSync(probeDir)).toEqual([]);
    const record = detail.attempts[0].redTeam!;
    expect(record.probes).toEqual([
      expect.objectContaining({
        path: "tests/redteam/b.test.js",
        verdict: "error",
        output: expect.stringContaining("tests/redteam is a symbolic link"),
      }),
    ]);
    expect(record.committed).toBeNull();
    expect(rowOf(detail, "_redteam")?.verdict).toBe("failed");
    expect(detail.run.ending).not.toBe("accepted");
  });

  it("mutation: a report that is a link to the database is not read; its bytes are not shown", async () => {
    const db = path.join(outside, "gatehouse.db");
    fs.writeFileSync(db, "SQLite format 3\0CREATE TABLE Secret(value)");
    const { detail } = await run({
      agentCommand: `printf %s ${shellQuote(LOWER)} > src/title.js`,
      mutationCommand: `mkdir -p out && ln -sf ${shellQuote(db)} out/m.json`,
      mutationReport: "out/m.json",
    });
    const row = rowOf(detail, "_mutation");
    expect(row?.verdict).toBe("error");
    expect(row?.message).toContain("out/m.json is a symbolic link");
    expect(JSON.stringify(detail)).not.toContain("SQLite format");
    expect(JSON.stringify(detail)).not.toContain("CREATE TABLE");
  });

  it("mutation: a report behind a linked folder (a valid report outside) is not read", async () => {
    const reports = path.join(outside, "reports");
    fs.mkdirSync(reports);
    const report = {
      schemaVersion: "2",
      thresholds: { high: 80, low: 60, break: 0 },
      files: {
        "src/title.js": {
          language: "javascript",
          source: "",
          mutants: [
            {
              id: "1",
              mutatorName: "OUTSIDE-FIELD-SHOWN",
              replacement: "x",
              status: "Killed",
              location: { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } },
            },
          ],
        },
      },
    };
    fs.writeFileSync(path.join(reports, "m.json"), JSON.stringify(report));
    const { detail } = await run({
      agentCommand: `printf %s ${shellQuote(LOWER)} > src/title.js`,
      mutationCommand: `ln -sfn ${shellQuote(reports)} out`,
      mutationReport: "out/m.json",
    });
    const row = rowOf(detail, "_mutation");
    expect(row?.verdict).toBe("error");
    expect(row?.message).toContain("out is a symbolic link");
    expect(JSON.stringify(detail)).not.toContain("OUTSIDE-FIELD-SHOWN");
  });
});
