import { describe, expect, it } from "vitest";
import { judgeRedTeam, redTeamRow, sortProbes } from "./red-team";

describe("sortProbes", () => {
  it("keeps new test files under tests/redteam/ and refuses the rest with the reason", () => {
    expect(
      sortProbes(
        [
          { status: "A", path: "tests/redteam/a.test.js" },
          { status: "A", path: "tests/redteam/b.test.js" },
          { status: "M", path: "tests/redteam/old.test.js" },
          { status: "D", path: "src/x.js" },
          { status: "A", path: "test/c.test.js" },
          { status: "A", path: "tests/redteam/notes.md" },
        ],
        ["**/*.test.js"],
        new Set(["tests/redteam/b.test.js"]),
      ),
    ).toEqual({
      probes: ["tests/redteam/a.test.js"],
      refused: [
        { path: "tests/redteam/b.test.js", reason: "would overwrite an existing file" },
        { path: "tests/redteam/old.test.js", reason: "would overwrite an existing file" },
        { path: "src/x.js", reason: "deletes a file of the change" },
        { path: "test/c.test.js", reason: "outside tests/redteam/" },
        { path: "tests/redteam/notes.md", reason: "not a test file (testPatterns)" },
      ],
    });
  });
});

describe("judgeRedTeam", () => {
  const probe = (path: string, verdict: "passed" | "failed") => ({
    path,
    verdict,
    exitCode: verdict === "passed" ? 0 : 1,
    output: "boom",
  });
  it("a failing probe is red and its output goes into the row's log", () => {
    const r = judgeRedTeam({
      probes: [probe("tests/redteam/a.test.js", "failed")],
      refused: [],
      report: null,
      exitCode: 0,
    });
    expect(r.verdict).toBe("failed");
    expect(redTeamRow(r).details).toContain("tests/redteam/a.test.js: failed (exit code 1)\nboom");
  });
  it("no probe, or all passing: green", () => {
    expect(judgeRedTeam({ probes: [], refused: [], report: null, exitCode: 0 }).message).toBe(
      "the red team wrote no probe",
    );
    expect(judgeRedTeam({ probes: [probe("p", "passed")], refused: [], report: null, exitCode: 0 }).verdict).toBe(
      "passed",
    );
  });
});
