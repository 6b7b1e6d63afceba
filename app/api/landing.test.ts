// The landing routes over the API: POST /api/tasks/:id/merge (roles, a real merge into a bare remote),
// GET /api/works/:id/checks/stats, and mergePolicy validated with its field path.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/lib/testing/call-route";
import { expectForbiddenRole, expectNoChange, grant, makePerson, type Person } from "@/lib/testing/access-fixture";
import { gitIn, makeBareRepo } from "@/lib/testing/git-repo";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "@/lib/testing/runner-harness";
import * as merge from "./tasks/[id]/merge/route";
import * as task from "./tasks/[id]/route";
import * as stats from "./works/[id]/checks/stats/route";
import * as work from "./works/[id]/route";
import * as works from "./works/route";

let h: Harness;
let viewer: Person;
let engineer: Person;
let admin: Person;
beforeAll(async () => {
  h = await createHarness();
  [viewer, engineer, admin] = [
    await makePerson("viewer"),
    await makePerson("engineer"),
    await makePerson("admin", { admin: true }),
  ];
});
afterAll(async () => h?.cleanup());

describe("POST /api/tasks/:id/merge", () => {
  it("a viewer is refused (403) and nothing changes; an engineer merges and the remote has the commit", async () => {
    const remote = makeBareRepo();
    const s = await makeScenario(
      h,
      {
        checkDefaults: [check("has-file", "test -f f.txt")],
        agentCommand: "echo f > f.txt && git add -A && git commit -qm f",
      },
      { repo: remote },
    );
    await grant(s.work.id, viewer, "viewer");
    await grant(s.work.id, engineer, "engineer");
    const ran = await dispatchAndSettle(h, s.task.id);
    const params = { id: s.task.id };
    const refused = await expectNoChange(h.t.db, () =>
      callRoute(merge.POST, { method: "POST", params, token: viewer.token }),
    );
    expectForbiddenRole(refused, "engineer", "viewer");
    expect(gitIn(remote.dir, "rev-parse", "main")).toBe(remote.head);

    const res = await callRoute(merge.POST, { method: "POST", params, token: engineer.token });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ base: "main", mergedBy: engineer.email });
    expect(gitIn(remote.dir, "rev-parse", "main")).toBe(res.json.commit);
    // The task says what it merged: the commit on the base branch and the task branch's commit it took in.
    const read = await callRoute(task.GET, { params, token: viewer.token });
    expect(read.json.mergedHead).toMatch(/^[0-9a-f]{40}$/);
    expect(read.json).toMatchObject({
      mergedCommit: res.json.commit,
      mergedHead: ran.attempts.at(-1)?.commit,
      mergedBy: engineer.email,
    });

    const again = await callRoute(merge.POST, { method: "POST", params, token: engineer.token });
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ code: "conflict", refusal: "up-to-date" });

    const history = await callRoute(stats.GET, { params: { id: s.work.id }, token: viewer.token });
    expect(history.status).toBe(200);
    expect(history.json.checks).toMatchObject([{ checkId: "has-file", runs: 1, passed: 1, flaky: 0 }]);
  });

  it("a task whose branch does not exist: 409 naming the branch", async () => {
    const s = await makeScenario(h, { mergePolicy: { requireGreenGate: false } }, { repo: makeBareRepo() });
    const res = await callRoute(merge.POST, { method: "POST", params: { id: s.task.id }, token: admin.token });
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({ refusal: "branch-missing" });
    expect(res.json.error.message).toBe(`the branch "${s.task.branch}" does not exist in the repository`);
  });
});

describe("mergePolicy", () => {
  it("defaults on create, is changed with a version, and a method not one of the three is refused \
with its path", async () => {
    const created = await callRoute(works.POST, {
      method: "POST",
      body: { name: "Landing", repoUrl: "/tmp/landing-repo" },
      token: admin.token,
    });
    expect(created.json.mergePolicy).toEqual({ requireGreenGate: true, autoMerge: false, method: "merge" });
    const params = { id: created.json.id };
    const bad = await callRoute(work.PATCH, {
      method: "PATCH",
      params,
      body: { version: created.json.version, mergePolicy: { method: "rebase" } },
      token: admin.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues).toEqual([
      { path: "mergePolicy.method", message: "must be one of merge, squash, fast-forward" },
    ]);
    const ok = await callRoute(work.PATCH, {
      method: "PATCH",
      params,
      body: { version: created.json.version, mergePolicy: { autoMerge: true, method: "squash" } },
      token: admin.token,
    });
    expect(ok.json.mergePolicy).toEqual({ requireGreenGate: true, autoMerge: true, method: "squash" });
  });
});
