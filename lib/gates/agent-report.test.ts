import { describe, expect, it } from "vitest";
import {
  applyAgentReport,
  gateRequired,
  parseAgentReport,
  REPORT_MAX_ENTRIES,
  type ParsedReport,
} from "./agent-report";

const checks = [
  { id: "smoke", executor: "agent" },
  { id: "ui", executor: "agent" },
  { id: "lint" },
  { id: "secret", hidden: true },
];
const entry = (id: string, status = "pass", message?: string) => ({ id, status, ...(message ? { message } : {}) });
const report = (...entries: unknown[]) => JSON.stringify({ checks: entries });

describe("parseAgentReport: a report that cannot be read names what is wrong", () => {
  it.each<[string, string, string]>([
    ["not JSON", "pass: smoke", "not JSON"],
    ["truncated JSON", '{"checks": [', "not JSON"],
    ["a list instead of the object", "[]", 'the report: must be an object {"checks": [...]}'],
    ["null", "null", 'the report: must be an object {"checks": [...]}'],
    ["no checks field", "{}", "checks: must be a list"],
    ["an extra field", '{"checks": [], "ok": true}', "the report: unknown field: ok"],
    ["checks not a list", '{"checks": {"smoke": "pass"}}', "checks: must be a list"],
    ["an entry that is text", report("smoke"), "checks.0: must be an object"],
    ["a status other than pass or fail", report(entry("smoke", "passed")), 'checks.0.status: must be "pass" or "fail"'],
    ["no status", report({ id: "smoke" }), 'checks.0.status: must be "pass" or "fail"'],
    ["a number as id", report({ id: 7, status: "pass" }), "checks.0.id: must be text (a check id)"],
    [
      "a message that is not text",
      report({ id: "smoke", status: "pass", message: 1 }),
      "checks.0.message: must be text",
    ],
    [
      "a message over 2000 characters",
      report(entry("smoke", "pass", "x".repeat(2001))),
      "checks.0.message: at most 2000 characters",
    ],
    ["an unknown field in an entry", report({ ...entry("smoke"), verdict: "ok" }), "checks.0: unknown field: verdict"],
    ["an id twice", report(entry("smoke"), entry("ui"), entry("smoke", "fail")), '"smoke" is reported twice'],
    [
      "10,000 entries",
      report(...Array.from({ length: 10_000 }, (_, i) => entry(`c${i}`))),
      `10000 entries, at most ${REPORT_MAX_ENTRIES}`,
    ],
  ])("%s", (_label, text, problem) => {
    const parsed = parseAgentReport(text);
    expect("problem" in parsed && parsed.problem).toContain(problem);
  });

  it("does not quote the file in its problem (the agent may point the file at anything)", () => {
    const parsed = parseAgentReport("root:x:0:0:root:/root:/bin/bash");
    expect(parsed).toEqual({ problem: "not JSON" });
  });

  it("reads a good report", () => {
    expect(parseAgentReport(report(entry("smoke", "pass", "200 OK"), entry("ui", "fail")))).toEqual({
      entries: [
        { id: "smoke", status: "pass", message: "200 OK" },
        { id: "ui", status: "fail" },
      ],
    });
  });
});

describe("applyAgentReport", () => {
  const apply = (r: ParsedReport | null) => {
    const { verdicts, notes } = applyAgentReport(checks, r);
    return { verdicts: Object.fromEntries(verdicts), notes };
  };

  it("pass is passed, fail is failed with the message, a declared agent check left out is skipped", () => {
    expect(apply({ entries: [{ id: "ui", status: "fail", message: "the button is gone" }] })).toEqual({
      verdicts: {
        smoke: { verdict: "skipped", message: "not reported" },
        ui: { verdict: "failed", message: "the button is gone" },
      },
      notes: [],
    });
  });

  it("entries for undeclared ids and platform checks are dropped with a note; a hidden check's id \
reads as undeclared", () => {
    const r = apply({
      entries: [
        { id: "smoke", status: "pass" },
        { id: "ghost", status: "pass" },
        { id: "lint", status: "pass" },
        { id: "secret", status: "pass" },
      ],
    });
    expect(r.verdicts.smoke).toEqual({ verdict: "passed", message: "reported passing" });
    expect(r.verdicts.lint).toBeUndefined();
    expect(r.notes).toEqual([
      '"ghost" is not a check of this run: dropped',
      '"lint" is run by Gatehouse, not reported by the agent: dropped',
      '"secret" is not a check of this run: dropped',
    ]);
  });

  it("an unreadable report makes every agent check error, and only those", () => {
    expect(apply({ problem: "not JSON" }).verdicts).toEqual({
      smoke: { verdict: "error", message: "report unreadable: not JSON" },
      ui: { verdict: "error", message: "report unreadable: not JSON" },
    });
  });

  it("no report at all: every agent check is skipped", () => {
    expect(Object.values(apply(null).verdicts).map((v) => v.verdict)).toEqual(["skipped", "skipped"]);
  });
});

describe("gateRequired: strictEvaluation", () => {
  it.each([
    // check, verdict, strict → decides the gate as required
    [{ required: true, executor: "agent" }, "skipped", false, false],
    [{ required: true, executor: "agent" }, "skipped", true, true],
    [{ required: true, executor: "agent" }, "failed", false, true],
    [{ required: true, executor: "agent" }, "error", false, true],
    [{ required: true }, "skipped", false, true],
    [{ required: false, executor: "agent" }, "failed", true, false],
  ] as const)("%j %s strict=%s → %s", (check, verdict, strict, expected) => {
    expect(gateRequired(check, verdict, strict)).toBe(expected);
  });
});
