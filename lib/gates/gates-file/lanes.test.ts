// The Work's lanes in gates files (issue 26): exported and imported in YAML and Markdown, each stage's
// checks in the file's own entry shape; a bad lane is listed by its position and nothing of the lanes kept.
import { describe, expect, it } from "vitest";
import type { Check } from "../check-schema";
import type { Lane } from "../lanes";
import { parseGatesFile, toGatesMarkdown, toGatesYaml } from ".";

const checks: Check[] = [{ id: "unit", name: "Unit", kind: "test", command: "npm test", required: true }];
const lanes: Lane[] = [
  {
    id: "delivery",
    name: "Delivery",
    stages: [
      {
        id: "research",
        name: "Research",
        output: "docs/research.md",
        skill: "## How to research\n\nCite two sources.\n",
        maxAttempts: 2,
        checks: [
          {
            id: "sources",
            name: "Two sources",
            kind: "custom",
            required: true,
            use: "file_contains",
            with: { path: "docs/research.md", strings: ["verdict:"] },
          },
        ],
      },
      {
        id: "build",
        name: "Build",
        checks: [
          { id: "unit", name: "Unit", kind: "test", command: "npm test\n# ```", required: true, timeoutSec: 900 },
        ],
      },
    ],
  },
];

describe("the Work's lanes in gates files", () => {
  it.each([
    ["YAML", toGatesYaml],
    ["Markdown", toGatesMarkdown],
  ])("%s export and import keep them, beside the checks", (_format, write) => {
    const text = write(checks, { lanes });
    const read = parseGatesFile(text);
    expect(read.laneProblems).toEqual([]);
    expect(read.lanes).toEqual(lanes);
    expect(read.entries.map((e) => e.check)).toEqual(checks);
  });

  it("a Markdown file of lanes alone (no Work checks) is read", () => {
    const read = parseGatesFile(toGatesMarkdown([], { lanes }));
    expect(read.fileProblem).toBeNull();
    expect(read.lanes).toEqual(lanes);
  });

  it("writes stage checks as the file's own entries (timeout: 15m, max_attempts)", () => {
    const yaml = toGatesYaml(checks, { lanes });
    expect(yaml).toContain("lanes:\n  - id: delivery\n    name: Delivery\n    stages:\n      - id: research\n");
    expect(yaml).toContain("max_attempts: 2");
    expect(yaml).toContain("timeout: 15m");
    expect(toGatesMarkdown(checks, { lanes })).toContain("## Lanes\n\n````yaml\nlanes:\n");
  });

  it("a file without lanes says none and leaves the Work's alone", () => {
    expect(parseGatesFile("gates:\n  - npm test\n").lanes ?? null).toBeNull();
    expect(toGatesYaml(checks)).not.toContain("lanes");
    expect(toGatesMarkdown(checks)).not.toContain("## Lanes");
  });

  it("lists every problem by its position and keeps none of the lanes", () => {
    const read = parseGatesFile(
      [
        "gates:",
        "  - npm test",
        "lanes:",
        "  - id: delivery",
        "    name: Delivery",
        "    stages:",
        "      - id: Research",
        "        name: Research",
        "        output: /tmp/x.md",
        "        max_attempts: 9",
        "        checks: [{ run: 'true', timeout: soon }]",
        "      - id: build",
        "        name: Build",
        "        colour: red",
        "        checks: ['npm test']",
        "  - id: empty",
        "    name: Empty",
        "    stages: []",
        "",
      ].join("\n"),
    );
    expect(read.lanes).toBeNull();
    expect(read.laneProblems).toEqual([
      "lanes: lane 1 stage 1 check 1: timeout: not a duration (write 90, 90s, 15m or 1h)",
      "lanes: lane 1 stage 2: unknown field: colour (known: id, name, output, skill, max_attempts, checks)",
    ]);
    const fixed = parseGatesFile(
      [
        "lanes:",
        "  - id: delivery",
        "    name: Delivery",
        "    stages:",
        "      - { id: Research, name: R, output: /tmp/x.md, max_attempts: 9, checks: ['true'] }",
        "  - { id: empty, name: Empty, stages: [] }",
      ].join("\n"),
    );
    expect(fixed.laneProblems).toEqual([
      "lanes: lane 1 stage 1 id: lowercase letters, digits, - and _ only, starting with a letter or digit, at most 41 characters",
      "lanes: lane 1 stage 1 output: must be relative to the checkout, not absolute",
      "lanes: lane 1 stage 1 max_attempts: at most 5 attempts",
      "lanes: lane 2 stages: a lane needs at least one stage",
    ]);
  });
});
