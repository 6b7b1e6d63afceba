// POST /api/tasks/:id/attempts: an attempt at a commit the agent pushed to the task's branch (what the stop
// hook and the MCP server's run_gate ask for). A task without a run in progress is dispatched with it as
// attempt 1; a run waiting for a fix takes it as its next attempt; the checks run on exactly that commit;
// an agent's report can ride along. Real SQLite, real git, real runs in-process.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { callRoute } from "@/lib/testing/call-route";
import type { Json } from "@/lib/testing/json";
import { commitFiles, gitIn } from "@/lib/testing/git-repo";
import { check, createHarness, makeScenario, settle, type Harness, type Scenario } from "@/lib/testing/runner-harness";
import { expectForbiddenRole, grant, makePerson, type Person } from "@/lib/testing/access-fixture";
import { loadRunDetail } from "@/lib/services/run-detail";
import * as attempts from "./tasks/[id]/attempts/route";

let h: Harness;
let s: Scenario;
let engineer: Person;
let viewer: Person;
let clone: string;

beforeAll(async () => {
  h = await createHarness();
  s = await makeScenario(
    h,
    {
      maxGateAttempts: 3,
      checkDefaults: [
        check("fixed", "grep -q fixed app.txt || { echo 'app.txt is not fixed'; exit 1; }"),
        {
          id: "smoke",
          name: "Smoke test in the agent's session",
          kind: "custom",
          command: "Open it",
          required: true,
          executor: "agent",
        },
      ],
    },
    { files: { "app.txt": "broken\n" } },
  );
  engineer = await makePerson("engineer");
  viewer = await makePerson("viewer");
  await grant(s.work.id, engineer, "engineer");
  await grant(s.work.id, viewer, "viewer");
  // The agent's own clone of the Work's repository, as a person has it.
  clone = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-agent-clone-"));
  gitIn(clone, "clone", "--quiet", s.repo.dir, ".");
});
afterAll(async () => {
  fs.rmSync(clone, { recursive: true, force: true });
  await h?.cleanup();
});

const post = (body: unknown, token = engineer.token) =>
  callRoute(attempts.POST, { method: "POST", params: { id: s.task.id }, body, token });

function pushed(files: Record<string, string>, message: string): string {
  const commit = commitFiles(clone, files, message);
  gitIn(clone, "push", "--quiet", "--force", "origin", `HEAD:refs/heads/${s.task.branch}`);
  return commit;
}

describe("POST /api/tasks/:id/attempts", () => {
  it("dispatches a task without a run at the pushed commit, then gives the waiting run its next \
attempt there", async () => {
    const wrong = pushed({ "app.txt": "still broken\n" }, "a wrong fix");
    const first = await post({
      commit: wrong,
      report: { checks: [{ id: "smoke", status: "pass", message: "it opened" }] },
    });
    expect(first.status, first.text).toBe(202);
    expect(first.json).toMatchObject({ attempt: 1, isNewRun: true, number: 1 });
    await h.executor.whenSettled(first.json.runId);
    let run = await loadRunDetail(SYSTEM_ACTOR, first.json.runId);
    expect(run.run.status).toBe("waiting");
    const a1 = run.attempts[0];
    expect(a1.commit).toBe(wrong);
    expect(a1.trigger).toBe("push");
    expect(Object.fromEntries(a1.results.map((r) => [r.checkId, [r.verdict, r.message]]))).toEqual({
      fixed: ["failed", "app.txt is not fixed"],
      smoke: ["passed", "it opened"],
    });

    const right = pushed({ "app.txt": "fixed\n" }, "the real fix");
    const second = await post({ commit: right });
    expect(second.status, second.text).toBe(202);
    expect(second.json).toMatchObject({ runId: first.json.runId, attempt: 2, isNewRun: false });
    run = await settle(h, first.json.runId);
    expect(run.run.ending).toBe("accepted");
    expect(run.attempts[1].commit).toBe(right);
    // The checkout is exactly the pushed commit: the task's branch in the Work's clone moved to it.
    expect(gitIn(s.worktree, "rev-parse", "HEAD")).toBe(right);
    expect(fs.readFileSync(path.join(s.worktree, "app.txt"), "utf8")).toBe("fixed\n");
  });

  it("a red pushed attempt waits for the next push even when the Work has an agent command", async () => {
    const withAgent = await makeScenario(
      h,
      {
        agentCommand: "touch agent-was-here",
        maxGateAttempts: 3,
        checkDefaults: [check("fixed", "grep -q fixed app.txt")],
      },
      { files: { "app.txt": "broken\n" } },
    );
    await grant(withAgent.work.id, engineer, "engineer");
    const own = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-agent-clone-"));
    try {
      gitIn(own, "clone", "--quiet", withAgent.repo.dir, ".");
      const commit = commitFiles(own, { "app.txt": "nope\n" }, "wrong");
      gitIn(own, "push", "--quiet", "origin", `HEAD:refs/heads/${withAgent.task.branch}`);
      const res = await callRoute(attempts.POST, {
        method: "POST",
        params: { id: withAgent.task.id },
        body: { commit },
        token: engineer.token,
      });
      expect(res.status, res.text).toBe(202);
      const run = await settle(h, res.json.runId);
      expect([run.run.status, run.attempts.length, run.attempts[0].agentVerdict]).toEqual(["waiting", 1, null]);
      expect(fs.existsSync(path.join(withAgent.worktree, "agent-was-here"))).toBe(false);
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  });

  it("a commit the Work's repository does not have ends the run inconclusive, saying to push it", async () => {
    const local = commitFiles(clone, { "app.txt": "fixed, never pushed\n" }, "not pushed");
    const res = await post({ commit: local });
    expect(res.status, res.text).toBe(202);
    const run = await settle(h, res.json.runId);
    expect(run.run.ending).toBe("inconclusive");
    expect(run.run.endingReason).toMatch(/not in the Work's repository: push it to the task's branch/);
  });

  it("a commit pushed to another branch is refused: the task's checkout never receives another \
branch's work", async () => {
    gitIn(clone, "checkout", "--quiet", "-b", "someone-else");
    const elsewhere = commitFiles(clone, { "app.txt": "fixed on another branch\n" }, "another branch");
    gitIn(clone, "push", "--quiet", "origin", "HEAD:refs/heads/someone-else");
    gitIn(clone, "checkout", "--quiet", "-");
    const res = await post({ commit: elsewhere });
    expect(res.status, res.text).toBe(202);
    const run = await settle(h, res.json.runId);
    expect(run.run.ending).toBe("inconclusive");
    expect(run.run.endingReason).toContain(`is not on the task's branch "${s.task.branch}"`);
    expect(() => gitIn(s.worktree, "cat-file", "-e", `${elsewhere}^{commit}`)).toThrow();
  });

  it("refuses a malformed commit or report naming the field, and a viewer", async () => {
    const bad = await post({ commit: "abc123" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues.map((i: Json) => i.path)).toEqual(["commit"]);
    // A body without the commit says it is required, not that it "must be text".
    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(missing.json.error.issues).toEqual([{ path: "commit", message: "required" }]);
    const twice = await post({
      commit: "a".repeat(40),
      report: {
        checks: [
          { id: "smoke", status: "pass" },
          { id: "smoke", status: "fail" },
        ],
      },
    });
    expect(twice.status).toBe(400);
    expect(twice.json.error.issues.map((i: Json) => i.path)).toEqual(["report.checks.1.id"]);
    expectForbiddenRole(await post({ commit: "a".repeat(40) }, viewer.token), "engineer", "viewer");
  });
});
