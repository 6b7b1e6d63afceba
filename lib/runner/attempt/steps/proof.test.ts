// The proof steps and the evidence step through their context alone: the change is whatever the test
// leaves in the task's checkout before the step runs.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptContextFor, runStep } from "../../../testing/attempt-context";
import { check, createHarness, makeScenario, type Harness } from "../../../testing/runner-harness";
import { runSteps } from "../pipeline";
import { checksStep } from "./checks";
import { evidenceStep } from "./evidence";
import { proofStep, rerunStep } from "./proof";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

const TEST = `const assert = require("node:assert");
assert.strictEqual(require("../src/title")("Hello"), "hello");
console.log("ok");
`;
const PROJECT = {
  "src/title.js": "module.exports = (s) => s;\n",
  "test/title.test.js": TEST,
  "scripts/gate.sh": "node test/title.test.js\n",
};
const UNIT = check("unit", "bash scripts/gate.sh", { kind: "test" });
const write = (dir: string, file: string, text: string) => fs.writeFileSync(path.join(dir, file), text);

describe("proofStep", () => {
  it("a change without tests and one editing the gate's script: both rows, the script's required", async () => {
    const s = await makeScenario(h, { checkDefaults: [UNIT], requireTests: "warn" }, { files: PROJECT });
    const { ctx } = await attemptContextFor(h, s);
    write(ctx.checkoutPath, "scripts/gate.sh", "exit 0\n");
    // The check passes with the edited script, so _protected runs it again with the original.
    const { verdicts } = await runStep(ctx, { run: (c) => runSteps(c, [checksStep, proofStep]) });
    expect(verdicts.map((v) => [v.checkId, v.verdict, v.required])).toEqual([
      ["unit", "passed", true],
      ["_tests-added", "failed", false],
      ["_protected", "failed", true],
    ]);
    expect(ctx.results.view().find((r) => r.checkId === "_protected")!.message).toBe(
      '"unit" passes only with its edited gate: scripts/gate.sh',
    );
  });

  it("without a start commit there is no change to judge: no row", async () => {
    const s = await makeScenario(h, { checkDefaults: [UNIT], requireTests: "warn" }, { files: PROJECT });
    const { ctx } = await attemptContextFor(h, s);
    ctx.run.startCommit = null;
    expect(await runStep(ctx, proofStep)).toEqual({ verdicts: [] });
  });
});

describe("rerunStep", () => {
  it("a weakened test: the test as it was still fails on the change, so _tests-kept is red", async () => {
    const s = await makeScenario(h, { checkDefaults: [UNIT], requireTests: "warn" }, { files: PROJECT });
    const { ctx } = await attemptContextFor(h, s);
    write(ctx.checkoutPath, "test/title.test.js", 'console.log("ok");\n');
    const { verdicts } = await runStep(ctx, rerunStep);
    expect(verdicts).toMatchObject([{ checkId: "_tests-kept", verdict: "failed", required: true }]);
  });
});

describe("evidenceStep", () => {
  it("a criterion the task added without evidence is red, naming it", async () => {
    const s = await makeScenario(
      h,
      { profile: "standard", requireTests: "off" },
      { files: PROJECT, task: { acceptanceChecks: [check("lowercase", "node test/title.test.js")] } },
    );
    const { ctx } = await attemptContextFor(h, s);
    const { verdicts } = await runStep(ctx, evidenceStep);
    expect(verdicts).toEqual([
      {
        checkId: "_evidence",
        verdict: "failed",
        required: true,
        message: ".gatehouse/evidence.md is missing: no evidence for lowercase",
      },
    ]);
  });
});
