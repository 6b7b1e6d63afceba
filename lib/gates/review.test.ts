import { describe, expect, it } from "vitest";
import { judgeReview, parseReviewReport, type ReviewReport, reviewRow } from "./review";

type Reported = ReviewReport["criteria"][number];
const met = (id: string): Reported => ({ id, status: "met", command: `run ${id}`, output: "ok" });

describe("parseReviewReport", () => {
  const cases: { name: string; text: string | null; problem: string | null }[] = [
    { name: "no file", text: null, problem: "it wrote no report ($GATEHOUSE_REPORT_FILE is missing)" },
    { name: "not JSON", text: "criteria: all met", problem: "its report is not JSON" },
    { name: "wrong shape", text: '{"criteria": {}}', problem: "its report does not have the expected shape: criteria" },
    { name: "unknown status", text: '{"criteria": [{"id": "a", "status": "done"}]}', problem: "criteria.0.status" },
    {
      name: "unknown criterion",
      text: '{"criteria": [{"id": "zz", "status": "met"}]}',
      problem: "its report names unknown criteria: zz (the criteria: a, b)",
    },
    {
      name: "twice",
      text: '{"criteria": [{"id": "a", "status": "met"}, {"id": "a", "status": "met"}]}',
      problem: "its report names a twice",
    },
    {
      name: "good, gaps optional",
      text: '{"criteria": [{"id": "a", "status": "met", "command": "x", "output": "y"}]}',
      problem: null,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const parsed = parseReviewReport(c.text, ["a", "b"]);
      if (c.problem === null) expect(parsed).toHaveProperty("report");
      else expect("problem" in parsed ? parsed.problem : "").toContain(c.problem);
    });
});

describe("judgeReview", () => {
  const passed = { verdict: "passed", output: "ok" };
  const judge = (criteria: Reported[], checks: Record<string, { verdict: string; output: string }>) =>
    judgeReview({
      report: { criteria, gaps: ["g"] },
      criteria: ["a", "b"],
      checks: new Map(Object.entries(checks)),
      tries: [],
    });

  it("all met: score 1, green row", () => {
    const r = judge([met("a"), met("b")], { a: passed, b: passed });
    expect(r).toMatchObject({ outcome: "met", score: 1 });
    expect(reviewRow(r).verdict).toBe("passed");
  });
  it("a criterion not named counts as missing; unverified is no disagreement", () => {
    const r = judge([{ ...met("a"), status: "unverified" }], { a: passed });
    expect(r.outcome).toBe("short");
    expect(r.score).toBe(0);
    expect(r.message).toContain("a: unverified, b: missing");
    expect(reviewRow(r).verdict).toBe("failed");
    expect(reviewRow(r).details).toContain("  - g");
  });
  it("met without output is unverified", () => {
    const r = judge([{ ...met("a"), output: " " }, met("b")], { a: passed, b: passed });
    expect(r.criteria[0].status).toBe("unverified");
    expect(r.score).toBe(0.5);
  });
  it("missing where the check passed, or met where it failed: disagreement", () => {
    expect(judge([{ ...met("a"), status: "missing" }, met("b")], { a: passed, b: passed }).outcome).toBe(
      "disagreement",
    );
    const r = judge([met("a"), met("b")], { a: { verdict: "failed", output: "boom" }, b: passed });
    expect(r.outcome).toBe("disagreement");
    expect(r.criteria[0]).toMatchObject({ disagrees: true, check: { verdict: "failed", output: "boom" } });
    expect(reviewRow(r).verdict).toBe("error");
  });
});
