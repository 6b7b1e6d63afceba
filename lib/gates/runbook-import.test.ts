// The runbook import, one case per SPEC rule: which fence counts, what its language and executor= make
// of a check, and an error record under its heading for each mistake (never a silent drop).
import { describe, expect, it } from "vitest";
import type { Check } from "./check-schema";
import { parseGatesFile, toGatesMarkdown, toGatesYaml } from "./gates-file";

const F = "```";
const runbook = (...section: string[]) => ["# Runbook", "", "## Code Checks", "", ...section, ""].join("\n");
const entryOf = (...section: string[]) => {
  const r = parseGatesFile(runbook(...section));
  expect(r.fileProblem).toBeNull();
  expect(r.entries).toHaveLength(1);
  return r.entries[0];
};

type Case = [rule: string, section: string[], expected: { problem: RegExp } | { check: Partial<Check> }];

const CASES: Case[] = [
  ["no fence", ["### unit — Unit tests", "Run the unit tests."], { problem: /^no fenced command block/ }],
  ["unknown language", ["### unit — Unit", `${F}python`, "print(1)", F], { problem: /marked “python”/ }],
  [
    "unknown built-in",
    ["### out — Output", `${F}yaml`, "use: jsn_valid", "with:", "  path: out.json", F],
    { problem: /^use: unknown built-in "jsn_valid"/ },
  ],
  [
    "yaml without use:",
    ["### out — Output", `${F}yaml`, "path: out.json", F],
    { problem: /names a built-in with use:/ },
  ],
  [
    "a built-in's bad parameter, by name",
    ["### out — Output", `${F}yaml`, "use: json_valid", "with:", "  path: ../secret.json", F],
    { problem: /^with\.path: must stay inside the results directory/ },
  ],
  ["empty command", ["### unit — Unit", `${F}bash`, "   ", F], { problem: /^empty command/ }],
  ["{TODO: …} blank", ["### unit — Unit", `${F}bash`, "{TODO: the test command}", F], { problem: /TODO/ }],
  [
    "agent executor=jetty",
    ["### ui — UI", `${F}agent executor=jetty`, "Open the page.", F],
    { problem: /executor=jetty: not an executor/ },
  ],
  [
    "agent executor=platform",
    ["### ui — UI", `${F}agent executor=platform`, "Open the page.", F],
    { problem: /executor=platform contradicts it/ },
  ],
  [
    "executor=jety",
    ["### unit — Unit", `${F}bash executor=jety`, "npm test", F],
    { problem: /executor=jety: not an executor/ },
  ],
  [
    "executor:agent",
    ["### unit — Unit", `${F}bash executor:agent`, "npm test", F],
    { problem: /“executor:agent” on the fence/ },
  ],
  [
    "exector=agent (misspelt key)",
    ["### unit — Unit", `${F}bash exector=agent`, "npm test", F],
    { problem: /“exector=agent”/ },
  ],
  [
    "``` executor=agent with no language",
    ["### unit — Unit", `${F} executor=agent`, "npm test", F],
    { problem: /executor=agent and no language/ },
  ],
  [
    "second fence ignored",
    ["### unit — Unit", `${F}bash`, "npm test", F, "Expected output:", `${F}text`, "ok 12 tests", F],
    { check: { id: "unit", command: "npm test" } },
  ],
  [
    "case-insensitive executor",
    ["### smoke — Smoke", `${F}BASH Executor=AGENT`, "curl -f localhost:3000", F],
    { check: { command: "curl -f localhost:3000", executor: "agent" } },
  ],
  [
    "other words on the fence are ignored",
    ["### unit — Unit", `${F}bash title="unit" {.numberLines} executor=platform`, "npm test", F],
    { check: { command: "npm test", executor: "platform" } },
  ],
  [
    "an agent fence is an agent check in prose",
    ["### ui — The page renders", `${F}agent`, "Start the dev server and open /; the title says Hello.", F],
    { check: { executor: "agent", command: "Start the dev server and open /; the title says Hello." } },
  ],
  [
    "a yaml fence with use: is a built-in",
    ["### out — Output is JSON", `${F}yaml`, "use: json_valid", "with:", "  path: output.json", F],
    { check: { id: "out", use: "json_valid", with: { path: "output.json" }, kind: "custom" } },
  ],
];

describe("runbook import rules", () => {
  it.each(CASES)("%s", (_rule, section, expected) => {
    const entry = entryOf(...section);
    expect(entry.label).toBe(section[0].replace(/^### /, ""));
    if ("problem" in expected) {
      expect(entry.check).toBeNull();
      expect(entry.problems).toEqual(expect.arrayContaining([expect.stringMatching(expected.problem)]));
    } else {
      expect(entry.problems).toEqual([]);
      expect(entry.check).toMatchObject(expected.check);
    }
  });

  it("every bad heading of one runbook gets its own error record; the good ones import", () => {
    // Each heading with an id of its own (one id per file).
    const heading = (section: string[], i: number) => section[0].replace(/^### \S+/, `c${i}`);
    const r = parseGatesFile(
      runbook(...CASES.flatMap(([, section], i) => [`### ${heading(section, i)}`, ...section.slice(1)])),
    );
    expect(r.entries.map((e) => [e.label, e.check ? "ok" : "error"])).toEqual(
      CASES.map(([, section, expected], i) => [heading(section, i), "check" in expected ? "ok" : "error"]),
    );
  });

  it("frontmatter code_checks.timeout_sec is the default timeout; a check's own timeout wins", () => {
    const text = [
      "---",
      "title: Release runbook",
      "code_checks:",
      "  timeout_sec: 300",
      "---",
      runbook(
        "### unit — Unit",
        `${F}bash`,
        "npm test",
        F,
        "### e2e — E2E",
        "- timeout: 20m",
        `${F}bash`,
        "npm run e2e",
        F,
      ),
    ].join("\n");
    const r = parseGatesFile(text);
    expect(r.entries.map((e) => e.check?.timeoutSec)).toEqual([300, 1200]);
    expect(r.fileNotes).toBeUndefined();
  });

  it("a bad frontmatter timeout is listed, and the checks keep the platform default", () => {
    const r = parseGatesFile(
      [
        "---",
        "code_checks:",
        "  timeout_sec: forever",
        "---",
        runbook("### unit — Unit", `${F}bash`, "npm test", F),
      ].join("\n"),
    );
    expect(r.fileNotes).toEqual([
      expect.stringMatching(/^frontmatter code_checks\.timeout_sec: must be a whole number/),
    ]);
    expect(r.entries[0].check?.timeoutSec).toBeUndefined();
  });

  it("the executor on a list line and on the fence must agree", () => {
    const entry = entryOf("### unit — Unit", "- executor: platform", `${F}agent`, "Check it.", F);
    expect(entry.problems).toEqual(["executor: the fence says agent, the list says platform"]);
  });
});

describe("export round-trips import", () => {
  const checks: Check[] = [
    {
      id: "unit",
      name: "Unit tests pass",
      kind: "test",
      command: "npm test -- --reporter=dot",
      required: true,
      timeoutSec: 900,
    },
    {
      id: "out",
      name: "Output is JSON",
      kind: "custom",
      use: "json_valid",
      with: { path: "{{results_dir}}/out.json" },
      required: true,
    },
    {
      id: "words",
      name: "Report is long enough",
      kind: "custom",
      use: "min_words",
      with: { path: "report.md", count: 300 },
      required: false,
    },
    {
      id: "words2",
      name: "Report names its parts",
      kind: "custom",
      use: "file_contains",
      with: { path: "report.md", strings: ["## Risks", "## Plan"] },
      required: true,
    },
    {
      id: "clean",
      name: "No debug output",
      kind: "lint",
      use: "no_match",
      with: { glob: "src/**/*.ts", pattern: "console\\.log\\(" },
      required: true,
    },
    {
      id: "up",
      name: "Server answers",
      kind: "custom",
      use: "http_ok",
      with: { url: "http://127.0.0.1:3000/health", status: 200 },
      required: true,
      timeoutSec: 30,
    },
    {
      id: "ui",
      name: "The page renders",
      kind: "custom",
      command: "Open / and check the title says Hello.",
      executor: "agent",
      required: true,
    },
    {
      id: "held",
      name: "Held-out tests",
      kind: "test",
      command: "npm run test:held-out",
      executor: "platform",
      hidden: true,
      required: true,
    },
    { id: "fence", name: "Prints backticks", kind: "custom", command: "printf '```\\n'", required: true },
  ];

  it.each([
    ["Markdown", toGatesMarkdown],
    ["YAML", toGatesYaml],
  ])("%s", (_format, write) => {
    const r = parseGatesFile(write(checks));
    expect(r.entries.map((e) => e.problems)).toEqual(checks.map(() => []));
    expect(r.entries.map((e) => e.check)).toEqual(checks);
  });
});
