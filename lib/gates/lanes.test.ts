// The rules of a Work's lanes (issue 26): every refusal names the field path and the rule, and the small
// questions the run flow asks of a lane.
import { describe, expect, it } from "vitest";
import { toFieldIssues } from "./field-issues";
import { laneProblem, nextStage, sameLane, stageAfterLaneChange, stageAttempts, stageToRun, type Lane } from "./lanes";
import { ZWorkPatch } from "./work-schema";

const check = { id: "has-notes", name: "Notes written", kind: "custom", required: true, command: "test -s notes.md" };
const stage = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: id, checks: [check], ...extra });
const lane = (id: string, stages: unknown[]) => ({ id, name: id, stages });

function issuesOf(lanes: unknown): [string, string][] {
  const parsed = ZWorkPatch.safeParse({ version: 1, lanes });
  if (parsed.success) return [];
  return toFieldIssues(parsed.error).map((i) => [i.path, i.message]);
}

describe("a Work's lanes are validated like every setting, naming the field path", () => {
  it("takes a lane of stages with outputs, skills and attempt budgets", () => {
    const lanes = [
      lane("delivery", [
        stage("research", { output: "docs/research.md", skill: "# Sources" }),
        stage("build", { maxAttempts: 5 }),
      ]),
    ];
    expect(issuesOf(lanes)).toEqual([]);
    expect(ZWorkPatch.parse({ version: 1, lanes }).lanes?.[0].stages.map((s) => s.id)).toEqual(["research", "build"]);
  });

  it.each<[string, unknown, [string, string]]>([
    [
      "a stage id that is not a slug",
      [lane("l", [stage("Build It")])],
      [
        "lanes.0.stages.0.id",
        "lowercase letters, digits, - and _ only, starting with a letter or digit, at most 41 characters",
      ],
    ],
    [
      "a lane id that is not a slug",
      [lane("-x", [stage("a")])],
      ["lanes.0.id", "lowercase letters, digits, - and _ only, starting with a letter or digit, at most 41 characters"],
    ],
    [
      "a repeated stage id",
      [lane("l", [stage("a"), stage("a")])],
      ["lanes.0.stages.1.id", 'duplicate id "a": already used by stage 1'],
    ],
    [
      "a repeated lane id",
      [lane("l", [stage("a")]), lane("l", [stage("b")])],
      ["lanes.1.id", 'duplicate id "l": already used by lane 1'],
    ],
    [
      "an absolute output",
      [lane("l", [stage("a", { output: "/etc/passwd" })])],
      ["lanes.0.stages.0.output", "must be relative to the checkout, not absolute"],
    ],
    [
      "an output that climbs out",
      [lane("l", [stage("a", { output: "docs/../../x.md" })])],
      ["lanes.0.stages.0.output", "must stay inside the checkout: '..' is not allowed"],
    ],
    [
      "an output in .gatehouse/",
      [lane("l", [stage("a", { output: ".gatehouse/brief.md" })])],
      ["lanes.0.stages.0.output", "must not be in .gatehouse/ or .git/"],
    ],
    ["a lane with no stages", [lane("l", [])], ["lanes.0.stages", "a lane needs at least one stage"]],
    [
      "maxAttempts 0",
      [lane("l", [stage("a", { maxAttempts: 0 })])],
      ["lanes.0.stages.0.maxAttempts", "at least 1 attempt"],
    ],
    [
      "maxAttempts 6",
      [lane("l", [stage("a", { maxAttempts: 6 })])],
      ["lanes.0.stages.0.maxAttempts", "at most 5 attempts"],
    ],
    [
      "maxAttempts 2.5",
      [lane("l", [stage("a", { maxAttempts: 2.5 })])],
      ["lanes.0.stages.0.maxAttempts", "must be a whole number from 1 to 5"],
    ],
    [
      "a stage without checks",
      [lane("l", [{ id: "a", name: "A", checks: [] }])],
      ["lanes.0.stages.0.checks", "required: at least one check decides when the stage is done"],
    ],
    [
      "an unknown stage field",
      [lane("l", [stage("a", { colour: "red" })])],
      ["lanes.0.stages.0.colour", "unknown field: colour"],
    ],
    [
      "a stage check breaking a Work check rule",
      [lane("l", [stage("a", { checks: [{ ...check, timeoutSec: 0 }] })])],
      ["lanes.0.stages.0.checks.0.timeoutSec", "at least 1 second"],
    ],
    [
      "a stage built-in with a path out",
      [
        lane("l", [
          stage("a", {
            checks: [
              { id: "f", name: "F", kind: "custom", required: true, use: "file_exists", with: { path: "../x" } },
            ],
          }),
        ]),
      ],
      ["lanes.0.stages.0.checks.0.with.path", "must stay inside the results directory: '..' is not allowed"],
    ],
    [
      "a hidden agent check in a stage",
      [lane("l", [stage("a", { checks: [{ ...check, executor: "agent", hidden: true }] })])],
      [
        "lanes.0.stages.0.checks.0.hidden",
        "an agent check cannot be hidden: the agent runs it, so it sees it (make it a platform check or not hidden)",
      ],
    ],
  ])("refuses %s", (_what, lanes, expected) => {
    expect(issuesOf(lanes)).toContainEqual(expected);
  });

  it("caps stages at 10 a lane and lanes at 10 a Work", () => {
    const stages = Array.from({ length: 11 }, (_, i) => stage(`s${i}`));
    expect(issuesOf([lane("l", stages)])).toContainEqual(["lanes.0.stages", "at most 10 stages a lane"]);
    const lanes = Array.from({ length: 11 }, (_, i) => lane(`l${i}`, [stage("a")]));
    expect(issuesOf(lanes)).toContainEqual(["lanes", "at most 10 lanes"]);
  });

  it("reports a repeated id beside the other errors of the list", () => {
    const issues = issuesOf([lane("l", [stage("a", { maxAttempts: 9 }), stage("a")])]);
    expect(issues.map(([p]) => p)).toEqual(
      expect.arrayContaining(["lanes.0.stages.0.maxAttempts", "lanes.0.stages.1.id"]),
    );
  });

  it("autoAdvance is true or false", () => {
    const parsed = ZWorkPatch.safeParse({ version: 1, autoAdvance: "yes" });
    expect(parsed.success ? [] : toFieldIssues(parsed.error).map((i) => [i.path, i.message])).toEqual([
      ["autoAdvance", "must be true or false"],
    ]);
  });
});

const delivery: Lane = {
  id: "delivery",
  name: "Delivery",
  stages: [
    { id: "research", name: "Research", checks: [check as Lane["stages"][0]["checks"][0]], maxAttempts: 2 },
    { id: "build", name: "Build", checks: [check as Lane["stages"][0]["checks"][0]] },
  ],
};

describe("where a task stands on its lane", () => {
  it.each<[string, { lane: string | null; stage: string | null }, string | null, string | null]>([
    ["a new lane starts at its first stage", { lane: null, stage: null }, "delivery", "research"],
    ["the same lane keeps its stage", { lane: "delivery", stage: "build" }, "delivery", "build"],
    ["the same lane whose stage is gone starts over", { lane: "delivery", stage: "spec" }, "delivery", "research"],
    ["off a lane there is no stage", { lane: "delivery", stage: "build" }, null, null],
  ])("%s", (_what, current, laneId, expected) => {
    expect(stageAfterLaneChange([delivery], current, laneId)).toBe(expected);
  });

  it("names the Work's lanes when a task is put on one it does not have", () => {
    expect(laneProblem([delivery], "ops")).toBe('no lane "ops": use one of delivery');
    expect(laneProblem([], "ops")).toBe('no lane "ops": this Work has no lanes (add one in its settings)');
    expect(laneProblem([delivery], null)).toBeNull();
  });

  it("runs the current stage, with the whole lane frozen, or says why it cannot", () => {
    expect(stageToRun([delivery], { key: "T-1", lane: "delivery", stage: "build" })).toEqual({
      lane: delivery,
      stage: delivery.stages[1],
    });
    expect(stageToRun([delivery], { key: "T-1", lane: null, stage: null })).toEqual({ lane: null, stage: null });
    expect(stageToRun([], { key: "T-1", lane: "delivery", stage: "build" })).toEqual({
      problem: 'T-1 is on lane "delivery", which this Work no longer has: move it',
    });
  });

  it("knows the next stage and each stage's attempt budget (3 unless set)", () => {
    expect(nextStage(delivery, "research")?.id).toBe("build");
    expect(nextStage(delivery, "build")).toBeNull();
    expect(delivery.stages.map(stageAttempts)).toEqual([2, 3]);
  });
});

describe("sameLane", () => {
  const lane = { id: "ops", name: "Ops", stages: [{ id: "deploy", name: "Deploy", checks: [] }] } as unknown as Lane;
  it("is the same lane whatever order its keys come in (as PostgreSQL's jsonb stores them)", () => {
    const reordered = { stages: [{ checks: [], name: "Deploy", id: "deploy" }], name: "Ops", id: "ops" };
    expect(sameLane(lane, reordered as unknown as Lane)).toBe(true);
  });
  it("is another lane when a name, a stage or its absence differs", () => {
    expect(sameLane(lane, { ...lane, name: "Operations" })).toBe(false);
    expect(sameLane(lane, { ...lane, stages: [] })).toBe(false);
    expect(sameLane(lane, null)).toBe(false);
  });
});
