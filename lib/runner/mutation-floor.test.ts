// The mutation floor with the real Stryker (@stryker-mutator/core, installed from the npm registry once and
// kept under the OS temp dir by version): a small JS repository committing a Stryker configuration with
// thresholds.break, one test suite that kills the mutants and one that does not.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import type { RunDetail } from "../services/run-detail";

const STRYKER_VERSION = "9.6.1";
const cacheDir = path.join(os.tmpdir(), `gatehouse-stryker-${STRYKER_VERSION}`);

// Installs Stryker into the cache (about a minute the first time), or reuses what is there.
function strykerModules(): string {
  const modules = path.join(cacheDir, "node_modules");
  if (fs.existsSync(path.join(modules, ".bin", "stryker"))) return modules;
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(path.join(cacheDir, "package.json"), '{"name":"gatehouse-stryker-cache","private":true}\n');
  const npm = spawnSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error", `@stryker-mutator/core@${STRYKER_VERSION}`],
    { cwd: cacheDir, encoding: "utf8", timeout: 600_000 },
  );
  if (npm.status !== 0) throw new Error(`npm install of Stryker failed: ${npm.stderr}`);
  return modules;
}

let h: Harness;
let modules: string;
beforeAll(async () => {
  modules = strykerModules();
  h = await createHarness();
}, 660_000);
afterAll(async () => h.cleanup());

const PRICE_BEFORE = "module.exports = (amount) => amount;\n";
const PRICE_AFTER = `module.exports = function price(amount, discount) {
  if (discount > 0) return amount - discount;
  return amount;
};
`;
const STRONG = `const assert = require("node:assert");
const price = require("../src/price");
assert.strictEqual(price(10, 3), 7);
assert.strictEqual(price(10, 0), 10);
assert.strictEqual(price(10, -2), 10);
console.log("ok");
`;
const WEAK = `const price = require("../src/price");
if (typeof price(10, 3) !== "number") throw new Error("not a number");
console.log("ok");
`;
const STRYKER_CONFIG = JSON.stringify({
  testRunner: "command",
  commandRunner: { command: "node test/price.test.js" },
  thresholds: { high: 90, low: 70, break: 80 },
});
const PACKAGE = JSON.stringify({ name: "price", private: true, scripts: { test: "node test/price.test.js" } });
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

// The agent links the repository's install (as `npm ci` would make it), writes the change and a test suite.
function agent(suite: string): string {
  return [
    `ln -s ${shellQuote(modules)} node_modules`,
    `printf %s ${shellQuote(PRICE_AFTER)} > src/price.js`,
    `mkdir -p test && printf %s ${shellQuote(suite)} > test/price.test.js`,
  ].join(" && ");
}

async function run(files: Record<string, string>, work: Record<string, unknown>): Promise<RunDetail> {
  const s = await makeScenario(
    h,
    {
      profile: "full",
      maxGateAttempts: 1,
      // Through npm, so the test file the change adds is not a script the gate runs (the _protected row).
      checkDefaults: [check("unit", "npm test", { kind: "test" })],
      ...work,
    },
    { files: { ".gitignore": "node_modules\n", "package.json": PACKAGE, "src/price.js": PRICE_BEFORE, ...files } },
  );
  return dispatchAndSettle(h, s.task.id);
}
const rowOf = (detail: RunDetail) => detail.attempts[0].results.find((r) => r.checkId === "_mutation");

describe("_mutation with Stryker", () => {
  it("a suite that kills the mutants passes the committed threshold", async () => {
    const detail = await run({ "stryker.conf.json": STRYKER_CONFIG }, { agentCommand: agent(STRONG) });
    expect(rowOf(detail)).toMatchObject({ verdict: "passed", required: true, kind: "proof" });
    const mutation = detail.attempts[0].mutation!;
    expect(mutation).toMatchObject({ tool: "stryker", breakAt: 80, mutated: ["src/price.js"] });
    expect(mutation.score).toBeGreaterThanOrEqual(80);
    expect(mutation.files.map((f) => f.path)).toEqual(["src/price.js"]);
    expect(detail.run.ending).toBe("accepted");
  }, 300_000);

  it("a suite that does not is red under the threshold, the surviving mutants listed", async () => {
    const detail = await run({ "stryker.conf.json": STRYKER_CONFIG }, { agentCommand: agent(WEAK) });
    expect(rowOf(detail)?.verdict).toBe("failed");
    expect(rowOf(detail)?.message).toMatch(/^mutation score [\d.]+ is under the threshold 80$/);
    const file = detail.attempts[0].mutation!.files[0];
    expect(file.survived).toBeGreaterThan(0);
    expect(file.survivors.some((m) => m.line === 2)).toBe(true);
    expect(detail.run.gate).toBe("red");
  }, 300_000);
});

describe("_mutation without a threshold or after a red gate", () => {
  it("no Stryker configuration: skipped, saying nobody checked", async () => {
    const detail = await run({}, { agentCommand: agent(STRONG) });
    expect(rowOf(detail)).toMatchObject({
      verdict: "skipped",
      message: "no mutation threshold committed: nobody checked",
    });
    expect(detail.run.ending).toBe("accepted");
  });

  it("a suite that deletes the committed configuration from disk as it runs: the checks changed a file of the \
change (the mutation floor would read the threshold from the change's tree anyway), and the run is not \
accepted", async () => {
    const config = 'require("node:path").join(__dirname, "..", "stryker.conf.json")';
    const deleting = `require("node:fs").rmSync(${config}, { force: true });\n${WEAK}`;
    const detail = await run(
      { "stryker.conf.json": STRYKER_CONFIG },
      {
        agentCommand: [
          `printf %s ${shellQuote(PRICE_AFTER)} > src/price.js`,
          `mkdir -p test && printf %s ${shellQuote(deleting)} > test/price.test.js`,
        ].join(" && "),
      },
    );
    expect(detail.attempts[0].results.find((r) => r.checkId === "unit")?.verdict).toBe("passed");
    const unchanged = detail.attempts[0].results.find((r) => r.checkId === "_unchanged");
    expect(unchanged).toMatchObject({ verdict: "failed", required: true });
    expect(unchanged?.message).toContain("stryker.conf.json (deleted)");
    expect(detail.run.ending).not.toBe("accepted");
  });

  it("a red gate: not run", async () => {
    const detail = await run(
      { "stryker.conf.json": STRYKER_CONFIG },
      { agentCommand: agent(STRONG), checkDefaults: [check("broken", "exit 1")] },
    );
    expect(rowOf(detail)).toMatchObject({ verdict: "skipped", message: "not run: the gate is red" });
  });

  it("another tool: mutationCommand writes a mutation-testing JSON report with its threshold", async () => {
    const report = JSON.stringify({
      schemaVersion: "2",
      thresholds: { high: 80, low: 60, break: 50 },
      files: {
        "src/price.js": {
          language: "javascript",
          source: "",
          mutants: [
            {
              id: "1",
              mutatorName: "EqualityOperator",
              replacement: "discount >= 0",
              status: "Survived",
              location: { start: { line: 2, column: 7 }, end: { line: 2, column: 19 } },
            },
            {
              id: "2",
              mutatorName: "ArithmeticOperator",
              replacement: "amount + discount",
              status: "Killed",
              location: { start: { line: 2, column: 28 }, end: { line: 2, column: 45 } },
            },
          ],
        },
      },
    });
    const detail = await run(
      {},
      {
        agentCommand: agent(STRONG),
        mutationCommand:
          `test "$GATEHOUSE_MUTATE_FILES" = src/price.js && mkdir -p out && printf %s ` +
          `${shellQuote(report)} > out/m.json`,
        mutationReport: "out/m.json",
      },
    );
    expect(rowOf(detail)).toMatchObject({ verdict: "passed", message: "mutation score 50 ≥ 50" });
    expect(detail.attempts[0].mutation?.files[0].survivors).toEqual([
      { line: 2, mutator: "EqualityOperator", replacement: "discount >= 0" },
    ]);
  });
});
