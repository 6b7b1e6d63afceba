// Lanes through the JSON API (issue 26): a Work's lanes validated with their field paths and nothing
// half-saved, a task put on a lane (at its first stage) or refused, no moving while a run is active, and a
// lane that a run is working through not changed under it. Real SQLite, in-process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertRunWithFirstAttempt } from "@/lib/db/runs";
import { resolveChecks } from "@/lib/gates/merge-checks";
import type { Lane } from "@/lib/gates/lanes";
import { createTestDb, type TestDb } from "@/lib/testing/test-db";
import { callRoute, sendTokenByDefault } from "@/lib/testing/call-route";
import type { Json } from "@/lib/testing/json";
import { grant, makePerson } from "@/lib/testing/access-fixture";
import * as works from "./works/route";
import * as work from "./works/[id]/route";
import * as workTasks from "./works/[id]/tasks/route";
import * as task from "./tasks/[id]/route";
import * as board from "./works/[id]/board/route";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  sendTokenByDefault((await makePerson("admin", { admin: true })).token);
});
afterAll(async () => t?.cleanup());

const check = { id: "notes", name: "Notes written", kind: "custom", required: true, command: "test -s notes.md" };
const LANES = [
  {
    id: "delivery",
    name: "Delivery",
    stages: [
      { id: "research", name: "Research", output: "docs/research.md", checks: [check] },
      { id: "build", name: "Build", checks: [check], maxAttempts: 2 },
    ],
  },
  { id: "ops", name: "Ops", stages: [{ id: "deploy", name: "Deploy", checks: [check] }] },
];

let madeWorks = 0;
async function createWork(body: Record<string, unknown> = {}): Promise<Json> {
  const res = await callRoute(works.POST, {
    method: "POST",
    body: { name: `Docs ${++madeWorks}`, repoUrl: "/tmp/repo", lanes: LANES, ...body },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json;
}
const getWork = (id: string) => callRoute(work.GET, { params: { id } });
const patchWork = (id: string, body: unknown) => callRoute(work.PATCH, { method: "PATCH", params: { id }, body });
const postTask = (workId: string, body: unknown) =>
  callRoute(workTasks.POST, { method: "POST", params: { id: workId }, body });
const getTask = (id: string) => callRoute(task.GET, { params: { id } });
const patchTask = (id: string, body: unknown) => callRoute(task.PATCH, { method: "PATCH", params: { id }, body });

// A run of the task at its stage that has not started (as a dispatch leaves it).
async function activeRunOf(x: Json, lane: Lane) {
  return insertRunWithFirstAttempt({
    data: {
      taskId: x.id,
      workId: x.workId,
      policy: "required",
      maxAttempts: 3,
      checks: resolveChecks(lane.stages[0].checks, null).checks,
      suppressed: [],
      warnings: [],
      agentCommand: null,
      agentEnvPassthrough: [],
      budgetSec: null,
      budgetUsd: null,
      failFast: false,
      branch: x.branch,
      dispatchedById: null,
      lane,
      stage: lane.stages[0].id,
    },
  });
}

describe("a Work's lanes", () => {
  it("are saved and returned, with autoAdvance (off unless set)", async () => {
    const w = await createWork();
    expect(w.lanes).toEqual(LANES);
    expect(w.autoAdvance).toBe(false);
    const res = await patchWork(w.id, { version: w.version, autoAdvance: true });
    expect(res.status).toBe(200);
    expect(res.json.autoAdvance).toBe(true);
  });

  it("refuses bad lanes with every field path, saving nothing", async () => {
    const w = await createWork();
    const before = (await getWork(w.id)).json;
    const bad = [
      { id: "delivery", name: "Delivery", stages: [{ id: "Re search", name: "R", output: "../x", checks: [check] }] },
      { id: "delivery", name: "Again", stages: [] },
    ];
    const res = await patchWork(w.id, { version: w.version, lanes: bad, autoAdvance: true });
    expect(res.status).toBe(400);
    expect(res.json.error.issues.map((i: Json) => i.path)).toEqual(
      expect.arrayContaining(["lanes.0.stages.0.id", "lanes.0.stages.0.output", "lanes.1.stages", "lanes.1.id"]),
    );
    expect((await getWork(w.id)).json).toEqual(before);
  });

  it("shows held-out stage checks as their names only to someone below lead", async () => {
    const hidden = {
      ...check,
      id: "secret-spec",
      name: "Hidden spec",
      command: "diff out.txt /opt/expected",
      hidden: true,
    };
    const lanes = [{ id: "l", name: "L", stages: [{ id: "s", name: "S", checks: [hidden] }] }];
    const w = await createWork({ lanes });
    const viewer = await makePerson("viewer");
    await grant(w.id, viewer, "viewer");
    const res = await callRoute(work.GET, { params: { id: w.id }, token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.json.lanes[0].stages[0].checks[0]).toEqual({
      id: "secret-spec",
      name: "Hidden spec",
      kind: "custom",
      required: true,
      hidden: true,
    });
  });
});

describe("a task on a lane", () => {
  it("starts at the lane's first stage, and moves lanes while no run is active", async () => {
    const w = await createWork();
    const created = await postTask(w.id, { title: "Write the docs", lane: "delivery" });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect([created.json.lane, created.json.stage]).toEqual(["delivery", "research"]);
    const moved = await patchTask(created.json.id, { version: created.json.version, lane: "ops" });
    expect(moved.status).toBe(200);
    expect([moved.json.lane, moved.json.stage]).toEqual(["ops", "deploy"]);
    const off = await patchTask(created.json.id, { version: moved.json.version, lane: null });
    expect([off.json.lane, off.json.stage]).toEqual([null, null]);
    const plain = await postTask(w.id, { title: "No lane" });
    expect([plain.json.lane, plain.json.stage]).toEqual([null, null]);
  });

  it("reports its current stage's checks and attempts as what a dispatch runs, not the Work's", async () => {
    const w = await createWork({
      maxGateAttempts: 5,
      checkDefaults: [{ id: "lint", name: "Lint", kind: "lint", required: true, command: "true" }],
      lanes: [{ id: "short", name: "Short", stages: [{ id: "only", name: "Only", checks: [check], maxAttempts: 2 }] }],
    });
    const created = await postTask(w.id, { title: "Staged", lane: "short" });
    const onStage = await getTask(created.json.id);
    expect(onStage.json.effectiveChecks.map((c: Json) => c.id)).toEqual(["notes"]);
    expect(onStage.json.effectiveMaxGateAttempts).toBe(2);
    const off = await patchTask(created.json.id, { version: created.json.version, lane: null });
    expect(off.json.effectiveChecks.map((c: Json) => c.id)).toEqual(["lint"]);
    expect(off.json.effectiveMaxGateAttempts).toBe(5);
  });

  it("is refused on a lane the Work does not have, naming the field", async () => {
    const w = await createWork();
    const res = await postTask(w.id, { title: "Nowhere", lane: "spec" });
    expect(res.status).toBe(400);
    expect(res.json.error.issues).toEqual([{ path: "lane", message: 'no lane "spec": use one of delivery, ops' }]);
    const slug = await postTask(w.id, { title: "Nowhere", lane: "Not A Slug" });
    expect(slug.status).toBe(400);
    expect(slug.json.error.issues[0].path).toBe("lane");
  });

  it("is not moved while a run is active, and nothing else of the patch is saved", async () => {
    const w = await createWork();
    const x = (await postTask(w.id, { title: "Busy", lane: "delivery" })).json;
    await activeRunOf(x, LANES[0] as Lane);
    const res = await patchTask(x.id, { version: x.version, lane: "ops", title: "Renamed" });
    expect(res.status).toBe(409);
    expect(res.json.error.issues).toEqual([
      { path: "lane", message: `cannot move ${x.key} to another lane while run #1 is queued` },
    ]);
    const after = (await getTask(x.id)).json;
    expect([after.lane, after.stage, after.title]).toEqual(["delivery", "research", "Busy"]);
  });

  it("keeps its lane from being changed while its run works through it; other lanes may change", async () => {
    const w = await createWork();
    const x = (await postTask(w.id, { title: "Busy", lane: "delivery" })).json;
    await activeRunOf(x, LANES[0] as Lane);
    const changed = [{ ...LANES[0], stages: LANES[0].stages.slice(1) }, LANES[1]];
    const refused = await patchWork(w.id, { version: w.version, lanes: changed });
    expect(refused.status).toBe(409);
    expect(refused.json.error.issues).toEqual([
      {
        path: "lanes.0",
        message: `lane "delivery" cannot change while ${x.key} runs its stage research (run #1); wait for it to end or cancel it`,
      },
    ]);
    const opsRenamed = [LANES[0], { ...LANES[1], name: "Operations" }];
    const ok = await patchWork(w.id, { version: w.version, lanes: opsRenamed });
    expect(ok.status).toBe(200);
    expect(ok.json.lanes[1].name).toBe("Operations");
  });
});

describe("GET /api/works/:id/board", () => {
  it("gives a column per stage of each lane and a card per task standing there", async () => {
    const w = await createWork();
    const x = (await postTask(w.id, { title: "Write the docs", lane: "delivery" })).json;
    await postTask(w.id, { title: "No lane" });
    const res = await callRoute(board.GET, { params: { id: w.id } });
    expect(res.status).toBe(200);
    expect(res.json.lanes.map((l: Json) => [l.id, l.columns.map((c: Json) => [c.id, c.cards.length])])).toEqual([
      [
        "delivery",
        [
          ["research", 1],
          ["build", 0],
        ],
      ],
      ["ops", [["deploy", 0]]],
    ]);
    expect(res.json.lanes[0].columns[0].cards[0]).toEqual({
      taskId: x.id,
      key: x.key,
      title: "Write the docs",
      state: "current",
      attempts: 0,
      maxAttempts: null,
      gate: null,
      runId: null,
      status: null,
    });
  });
});
