// Test selection in the proof re-runs, end to end with real node --test: `_tests-kept` runs only the test
// files the change modified or deleted, `_fails-without-change` only the change's new and modified ones,
// each row's log says how the check ran again, and a command Gatehouse cannot select for runs whole,
// saying why. The judgements are those of whole re-runs.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunDetail } from "../services/run-detail";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import { checkLogPathOf } from "./paths";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
function agentWriting(files: Record<string, string | null>): string {
  const writes = Object.entries(files).map(([file, content]) =>
    content === null
      ? `rm -f ${q(file)}`
      : `mkdir -p ${path.posix.dirname(file)} && printf %s ${q(content)} > ${q(file)}`,
  );
  return [...writes, "git add -A", "git commit -qm agent"].join(" && ");
}

const HEAD = 'const test = require("node:test");\nconst assert = require("node:assert");\n';
const PRICE_BUGGY = "module.exports = (cents) => cents / 10;\n";
const PRICE_FIXED = "module.exports = (cents) => cents / 100;\n";
const PRICE_TEST =
  `${HEAD}const price = require("../src/price");\n` +
  'test("converts cents", () => assert.strictEqual(price(250), 2.5));\n';
const ZERO_TEST = 'test("zero", () => assert.strictEqual(require("../src/price")(0), 0));\n';
const PROJECT = {
  "src/price.js": PRICE_BUGGY,
  "test/price.test.js": PRICE_TEST,
  "test/other.test.js": `${HEAD}test("is there", () => {});\n`,
  "test/more.test.js": `${HEAD}test("is there too", () => {});\n`,
  // The suite through a script: a command Gatehouse cannot select files for.
  "scripts/run-tests.sh": "node --test\n",
};
const UNIT = check("unit", "node --test", { kind: "test", provesChange: true });

const scenario = (agent: string, checks: unknown[] = [UNIT]) =>
  makeScenario(
    h,
    { checkDefaults: checks, agentCommand: agent, maxGateAttempts: 1, vacuousPolicy: "required" },
    { files: PROJECT },
  );

const rowOf = (detail: RunDetail, id: string) => detail.attempts[0].results.find((r) => r.checkId === id)!;
const logOf = (detail: RunDetail, id: string) =>
  fs.readFileSync(checkLogPathOf(h.dataDir, detail.run.id, 1, id), "utf8");
const notesOf = (detail: RunDetail, id: string) => logOf(detail, id).split("How the checks ran again:\n")[1] ?? "";

describe("test selection in the proof re-runs", () => {
  it("an honest fix with a modified test file: each rule runs only that file, and says so", async () => {
    const agent = agentWriting({
      "src/price.js": PRICE_FIXED,
      "test/price.test.js": `${PRICE_TEST}${ZERO_TEST}`,
    });
    const detail = await dispatchAndSettle(h, (await scenario(agent)).task.id);
    expect(rowOf(detail, "_tests-kept")).toMatchObject({ verdict: "passed" });
    expect(rowOf(detail, "_fails-without-change")).toMatchObject({ verdict: "passed" });
    expect(detail.run.gate).toBe("green");
    expect(notesOf(detail, "_tests-kept")).toContain(
      '"unit": only test/price.test.js (node --test: node --test test/price.test.js)',
    );
    expect(notesOf(detail, "_fails-without-change")).toBe(
      '  "unit": only test/price.test.js (node --test: node --test test/price.test.js)\n',
    );
  });

  it("a deleted failing test file: its selected run fails, the whole command confirms, the row is red", async () => {
    const agent = agentWriting({ "test/price.test.js": null, "test/new.test.js": `${HEAD}test("new", () => {});\n` });
    const detail = await dispatchAndSettle(h, (await scenario(agent)).task.id);
    expect(rowOf(detail, "unit").verdict).toBe("passed");
    expect(rowOf(detail, "_tests-kept")).toMatchObject({
      verdict: "failed",
      message:
        'With the tests as they were, "unit" fails: the change weakened or removed tests ' +
        "(the change deleted test/price.test.js)",
    });
    expect(notesOf(detail, "_tests-kept")).toContain(
      "only test/price.test.js (node --test: node --test test/price.test.js), which failed; " +
        "then the whole command, which decides",
    );
    // The new test passes without the change: the selected run proves nothing, the whole command decides.
    expect(rowOf(detail, "_fails-without-change")).toMatchObject({ verdict: "failed" });
    expect(notesOf(detail, "_fails-without-change")).toContain("which passed; then the whole command, which decides");
  });

  it("a renamed test file: the old file runs as it was, every test still runs, green", async () => {
    const agent = agentWriting({
      "src/price.js": PRICE_FIXED,
      "test/price.test.js": null,
      "test/price-cents.test.js": `${PRICE_TEST}${ZERO_TEST}`,
    });
    const detail = await dispatchAndSettle(h, (await scenario(agent)).task.id);
    expect(rowOf(detail, "_tests-kept")).toMatchObject({ verdict: "passed" });
    expect(notesOf(detail, "_tests-kept")).toContain("only test/price.test.js (node --test");
    expect(notesOf(detail, "_fails-without-change")).toContain("only test/price-cents.test.js (node --test");
    expect(detail.run.gate).toBe("green");
  });

  it("a command Gatehouse cannot select for runs whole, the log saying why; the verdicts are the same", async () => {
    const script = check("unit", "bash scripts/run-tests.sh", { kind: "test", provesChange: true });
    const agent = agentWriting({
      "src/price.js": PRICE_FIXED,
      "test/price.test.js": `${PRICE_TEST}${ZERO_TEST}`,
    });
    const detail = await dispatchAndSettle(h, (await scenario(agent, [script])).task.id);
    expect(rowOf(detail, "_tests-kept")).toMatchObject({ verdict: "passed" });
    expect(rowOf(detail, "_fails-without-change")).toMatchObject({ verdict: "passed" });
    const why = '"unit": the whole command (no selection: bash is not a test runner Gatehouse can select files for)';
    expect(notesOf(detail, "_tests-kept")).toContain(why);
    expect(notesOf(detail, "_fails-without-change")).toContain(why);
  });
});
