import { describe, expect, it } from "vitest";
import { composeBrief } from "./brief";
import { evidenceRow, findEvidenceProblems, parseEvidence } from "./evidence";

const good = [
  "# Evidence",
  "",
  "## adds-title",
  "",
  "```bash",
  "node test/title.test.js",
  "```",
  "",
  "```",
  "ok 1 - lower-cases the title",
  "```",
  "",
].join("\n");

describe("parseEvidence", () => {
  it("reads each heading's first two fences as command and output", () => {
    expect(parseEvidence(good).get("adds-title")).toEqual({
      command: "node test/title.test.js",
      output: "ok 1 - lower-cases the title",
    });
  });

  it("does not take a '## ' line inside a fence for a heading", () => {
    const text = "## a\n```\necho '## b'\n```\n```\n## b\n```\n";
    const parsed = parseEvidence(text);
    expect([...parsed.keys()]).toEqual(["a"]);
    expect(parsed.get("a")).toEqual({ command: "echo '## b'", output: "## b" });
  });

  it("keeps the first of two sections with the same heading; accepts `id` in backticks, ~~~ fences and CRLF", () => {
    const text = "## `x`\r\n~~~sh\r\ntrue\r\n~~~\r\n~~~\r\nout\r\n~~~\r\n## x\n```\nlater\n```\n```\nlater\n```\n";
    expect(parseEvidence(text).get("x")).toEqual({ command: "true", output: "out" });
  });

  it("a longer fence holds a shorter one", () => {
    const text = "## a\n````\necho '```'\n````\n````\n```\n````\n";
    expect(parseEvidence(text).get("a")).toEqual({ command: "echo '```'", output: "```" });
  });
});

describe("findEvidenceProblems", () => {
  const cases: { name: string; text: string; criteria: string[]; problems: string[] }[] = [
    { name: "all present", text: good, criteria: ["adds-title"], problems: [] },
    { name: "no heading", text: good, criteria: ["adds-title", "trims"], problems: ["trims: no heading"] },
    {
      name: "heading without fences",
      text: "## a\n\nI ran it, trust me.\n",
      criteria: ["a"],
      problems: ["a: no command"],
    },
    {
      name: "blank command",
      text: "## a\n```\n   \n```\n```\nout\n```\n",
      criteria: ["a"],
      problems: ["a: no command"],
    },
    {
      name: "command but no output fence",
      text: "## a\n```\nnpm test\n```\n",
      criteria: ["a"],
      problems: ["a: empty output"],
    },
    {
      name: "empty output block",
      text: "## a\n```\nnpm test\n```\n```\n\n```\n",
      criteria: ["a"],
      problems: ["a: empty output"],
    },
    {
      name: "a deeper heading is not a criterion",
      text: "### a\n```\nx\n```\n```\ny\n```\n",
      criteria: ["a"],
      problems: ["a: no heading"],
    },
    {
      name: "fences of the next section do not count for the previous",
      text: "## a\n## b\n```\nx\n```\n```\ny\n```\n",
      criteria: ["a", "b"],
      problems: ["a: no command"],
    },
    {
      name: "unclosed fence runs to the end",
      text: "## a\n```\nnpm test\n",
      criteria: ["a"],
      problems: ["a: empty output"],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      expect(findEvidenceProblems(c.text, c.criteria).map((p) => `${p.id}: ${p.problem}`)).toEqual(c.problems);
    });
});

describe("evidenceRow", () => {
  it("no criterion: no row", () => {
    expect(evidenceRow({ criteria: [], text: null })).toBeNull();
  });
  it("no file: red, naming every criterion", () => {
    const row = evidenceRow({ criteria: ["a", "b"], text: null });
    expect(row).toMatchObject({ checkId: "_evidence", verdict: "failed", required: true, kind: "proof" });
    expect(row?.message).toContain("a, b");
  });
  it("red names which criterion lacks what", () => {
    const row = evidenceRow({ criteria: ["adds-title", "trims"], text: good });
    expect(row?.verdict).toBe("failed");
    expect(row?.message).toBe("Evidence missing — trims: no heading");
    expect(row?.details).toContain("trims: no heading");
  });
  it("green when every criterion has a command and its output", () => {
    expect(evidenceRow({ criteria: ["adds-title"], text: good })?.verdict).toBe("passed");
  });
});

describe("the brief", () => {
  it("asks for evidence of each criterion when the profile wants it", () => {
    const input = {
      task: { key: "T-1", title: "t", description: "", branch: "b" },
      workName: "w",
      attemptN: 1,
      maxAttempts: 1,
      checks: [],
      policy: "required",
      failures: [],
      previousAttemptN: null,
    };
    expect(composeBrief({ ...input, evidence: ["adds-title"] })).toContain("## Evidence");
    expect(composeBrief({ ...input, evidence: ["adds-title"] })).toContain("Criteria: adds-title");
    expect(composeBrief(input)).not.toContain("## Evidence");
  });
});
