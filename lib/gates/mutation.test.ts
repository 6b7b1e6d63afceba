import { describe, expect, it } from "vitest";
import { judgeMutation, mutationTargets, parseMutationReport, readStrykerConfig } from "./mutation";

describe("readStrykerConfig", () => {
  const cases: [string, string, number | null, string][] = [
    ["stryker.conf.json", '{"thresholds": {"break": 80}}', 80, "reports/mutation/mutation.json"],
    ["stryker.conf.json", '{"thresholds": {"high": 80, "low": 60}}', null, "reports/mutation/mutation.json"],
    ["stryker.conf.json", '{"thresholds": {"break": 0}}', null, "reports/mutation/mutation.json"],
    [
      "stryker.config.json",
      '{"thresholds": {"break": 70}, "jsonReporter": {"fileName": "out/m.json"}}',
      70,
      "out/m.json",
    ],
    ["stryker.conf.json", "{not json", null, "reports/mutation/mutation.json"],
    [
      "stryker.config.mjs",
      "export default { thresholds: { high: 90, low: 70, break: 65 } };",
      65,
      "reports/mutation/mutation.json",
    ],
    ["stryker.conf.js", "module.exports = { testRunner: 'command' };", null, "reports/mutation/mutation.json"],
  ];
  it.each(cases)("%s %s", (file, text, breakAt, reportFile) => {
    expect(readStrykerConfig(file, text)).toEqual({ breakAt, reportFile });
  });
});

describe("mutationTargets", () => {
  it("mutates the source files the change added or modified, not tests, deleted or other files", () => {
    expect(
      mutationTargets(
        [
          { status: "M", path: "src/price.js" },
          { status: "A", path: "src/new.ts" },
          { status: "D", path: "src/old.js" },
          { status: "A", path: "test/price.test.js" },
          { status: "M", path: "README.md" },
        ],
        ["test/**", "**/*.test.*"],
      ),
    ).toEqual(["src/price.js", "src/new.ts"]);
  });
});

describe("parseMutationReport and judgeMutation", () => {
  const mutant = (status: string, line: number) => ({
    status,
    mutatorName: "EqualityOperator",
    replacement: ">=",
    location: { start: { line } },
  });
  const text = JSON.stringify({
    thresholds: { break: 60 },
    files: {
      "a.js": { mutants: [mutant("Killed", 1), mutant("Timeout", 2), mutant("Survived", 3), mutant("NoCoverage", 4)] },
      "b.js": { mutants: [mutant("Killed", 1), mutant("CompileError", 2), mutant("Ignored", 3)] },
    },
  });
  it("scores as Stryker does: (killed + timeout) / (killed + timeout + survived + no coverage)", () => {
    const report = parseMutationReport(text);
    if ("problem" in report) throw new Error(report.problem);
    expect(report.score).toBe(60);
    expect(report.breakAt).toBe(60);
    expect(report.files.map((f) => [f.path, f.score, f.survivors.map((m) => m.line)])).toEqual([
      ["a.js", 50, [3, 4]],
      ["b.js", 100, []],
    ]);
    expect(judgeMutation({ tool: "stryker", report, breakAt: 61, exitCode: 1, mutated: [] })).toMatchObject({
      verdict: "failed",
      message: "mutation score 60 is under the threshold 61",
    });
    expect(judgeMutation({ tool: "command", report, breakAt: null, exitCode: 0, mutated: [] }).verdict).toBe("passed");
  });
  it("a report that is not one says why", () => {
    expect(parseMutationReport("nope")).toMatchObject({ problem: expect.stringContaining("not JSON") });
    expect(parseMutationReport("{}")).toEqual({
      problem: "the report has no `files` (not a mutation-testing JSON report)",
    });
  });
});
