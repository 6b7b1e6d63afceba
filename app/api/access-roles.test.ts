// Roles per Work, proved through the JSON API: every route × viewer, engineer, lead (on Work A), an admin
// (no membership needed) and a signed-in user with no role on Work A. What a role may do succeeds; what it
// may not is 403 naming the role it takes (404 "Work not found" for a non-member), and changes nothing.
// Real SQLite, real runs (git worktrees, processes) in-process; every run started is waited for.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import type { Role } from "@/lib/auth/roles";
import { callRoute } from "@/lib/testing/call-route";
import { check, createHarness, makeScenario, settle, type Harness, type Scenario } from "@/lib/testing/runner-harness";
import {
  expectForbiddenRole,
  expectNoChange,
  expectWorkNotFound,
  grant,
  makePerson,
  type Person,
} from "@/lib/testing/access-fixture";
import { createTask } from "@/lib/services/tasks";
import { dispatchTask } from "@/lib/services/runs";
import { setSecret } from "@/lib/services/secrets";
import { createWork } from "@/lib/services/works";
import * as works from "./works/route";
import * as work from "./works/[id]/route";
import * as workTasks from "./works/[id]/tasks/route";
import * as task from "./tasks/[id]/route";
import * as dispatch from "./tasks/[id]/dispatch/route";
import * as run from "./runs/[id]/route";
import * as attempts from "./runs/[id]/attempts/route";
import * as cancel from "./runs/[id]/cancel/route";
import * as decision from "./runs/[id]/decision/route";
import * as log from "./runs/[id]/attempts/[n]/checks/[checkId]/log/route";
import * as secrets from "./works/[id]/secrets/route";
import * as secret from "./works/[id]/secrets/[name]/route";
import * as members from "./works/[id]/members/route";
import * as member from "./works/[id]/members/[userId]/route";
import * as users from "./users/route";
import * as audit from "./audit/route";

type Who = Role | "admin" | "outsider";
type Need = Role | "admin";
const EVERYONE: Who[] = ["viewer", "engineer", "lead", "admin", "outsider"];
const RANK: Record<Who, number> = { outsider: 0, viewer: 1, engineer: 2, lead: 3, admin: 100 };
const allowed = (who: Who, need: Need) => (need === "admin" ? who === "admin" : RANK[who] >= RANK[need]);

let h: Harness;
let A: Scenario; // Work A: one required check that prints a line and fails; no agent; 3 attempts
let people: Record<Who, Person>;
let pawn: Person; // the user whose role on Work A is changed by the members routes
let readRunId: string; // a waiting run of Work A, with a log, for the read routes

beforeAll(async () => {
  h = await createHarness();
  A = await makeScenario(h, { checkDefaults: [check("red", "echo line-from-red; false")], maxGateAttempts: 3 });
  people = {
    viewer: await makePerson("viewer"),
    engineer: await makePerson("engineer"),
    lead: await makePerson("lead"),
    admin: await makePerson("admin", { admin: true }),
    outsider: await makePerson("outsider"),
  };
  pawn = await makePerson("pawn");
  for (const role of ["viewer", "engineer", "lead"] as const) await grant(A.work.id, people[role], role);
  const r = await dispatchTask(SYSTEM_ACTOR, A.task.id);
  const detail = await settle(h, r.id);
  expect(detail.run.status).toBe("waiting");
  readRunId = r.id;
  // A token's first use is audited (once an hour); use each once so later snapshots compare like with like.
  for (const p of [...Object.values(people), pawn])
    expect((await callRoute(works.GET, { token: p.token })).status).toBe(200);
});
afterAll(async () => h?.cleanup());

// ---- fixtures made fresh for each case (as the system, not as the caller) -------------------------

let taskSeq = 0;
async function freshTask(extra: Record<string, unknown> = {}) {
  return createTask(SYSTEM_ACTOR, A.work.id, { title: `Access case ${++taskSeq}`, ...extra });
}

// A run of Work A that ended attempt 1 red and waits for a fix (no agent, budget left).
async function waitingRun() {
  const t = await freshTask();
  const r = await dispatchTask(SYSTEM_ACTOR, t.id);
  const detail = await settle(h, r.id);
  expect(detail.run.status).toBe("waiting");
  return r.id;
}

// A run of Work A that spent its only attempt red: partial, waiting for a decision.
async function partialRun() {
  const t = await freshTask({ maxGateAttempts: 1 });
  const r = await dispatchTask(SYSTEM_ACTOR, t.id);
  const detail = await settle(h, r.id);
  expect(detail.run.ending).toBe("partial");
  expect(detail.run.needsDecision).toBe(true);
  return r.id;
}

async function dbRun(id: string) {
  return h.t.db.run.findUniqueOrThrow({ where: { id } });
}

// ---- the matrix ----------------------------------------------------------------------------------

type Res = Awaited<ReturnType<typeof callRoute>>;
// C: what prepare() makes for one try (a fresh task, a run id…), handed to call() and verify().
type Case<C> = {
  name: string;
  need: Need;
  // false for routes that are not about one Work (a non-member gets the same 403 as anyone).
  workScoped: boolean;
  ok: number;
  prepare?: () => Promise<C>;
  call: (token: string, ctx: C) => Promise<Res>;
  // After a success: what must now be true (and wait for anything it started).
  verify?: (res: Res, ctx: C, who: Who) => Promise<void>;
};

// Each case is typed by its own prepare(); the table holds them side by side (the runner passes each
// case only what its own prepare() made).
const defineCase = <C>(c: Case<C>) => c as Case<unknown>;

let seq = 0;
const CASES = [
  // reads: viewer and up
  defineCase({
    name: "GET /api/works/:id",
    need: "viewer",
    workScoped: true,
    ok: 200,
    call: (token) => callRoute(work.GET, { token, params: { id: A.work.id } }),
    verify: async (res) => expect(res.json.id).toBe(A.work.id),
  }),
  defineCase({
    name: "GET /api/works/:id/tasks",
    need: "viewer",
    workScoped: true,
    ok: 200,
    call: (token) => callRoute(workTasks.GET, { token, params: { id: A.work.id } }),
    verify: async (res) => expect(res.json.tasks.map((t) => t.id)).toContain(A.task.id),
  }),
  defineCase({
    name: "GET /api/tasks/:id",
    need: "viewer",
    workScoped: true,
    ok: 200,
    call: (token) => callRoute(task.GET, { token, params: { id: A.task.id } }),
    verify: async (res) => expect(res.json.effectiveChecks.map((c) => c.id)).toEqual(["red"]),
  }),
  defineCase({
    name: "GET /api/runs/:id",
    need: "viewer",
    workScoped: true,
    ok: 200,
    call: (token) => callRoute(run.GET, { token, params: { id: readRunId } }),
    verify: async (res) => {
      expect(res.json.status).toBe("waiting");
      expect(res.json.attempts[0].checks[0].logTail).toContain("line-from-red");
    },
  }),
  defineCase({
    name: "GET /api/runs/:id/attempts/1/checks/red/log",
    need: "viewer",
    workScoped: true,
    ok: 200,
    call: (token) => callRoute(log.GET, { token, params: { id: readRunId, n: "1", checkId: "red" } }),
    verify: async (res) => {
      expect(res.text).toContain("line-from-red");
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    },
  }),
  defineCase({
    name: "GET /api/works/:id/members",
    need: "viewer",
    workScoped: true,
    ok: 200,
    call: (token) => callRoute(members.GET, { token, params: { id: A.work.id } }),
    verify: async (res) =>
      expect(res.json.members.map((m) => m.role).sort()).toEqual(
        expect.arrayContaining(["engineer", "lead", "viewer"]),
      ),
  }),

  // engineer and up
  defineCase({
    name: "POST /api/works/:id/tasks",
    need: "engineer",
    workScoped: true,
    ok: 201,
    call: (token) =>
      callRoute(workTasks.POST, {
        token,
        method: "POST",
        params: { id: A.work.id },
        body: { title: `Created through the API ${++seq}` },
      }),
    verify: async (res) => expect(await h.t.db.task.findUnique({ where: { id: res.json.id } })).not.toBeNull(),
  }),
  defineCase({
    name: "PATCH /api/tasks/:id (overrides)",
    need: "engineer",
    workScoped: true,
    ok: 200,
    prepare: () => freshTask(),
    call: (token, t) =>
      callRoute(task.PATCH, {
        token,
        method: "PATCH",
        params: { id: t.id },
        body: { version: t.version, maxGateAttempts: 2, acceptanceChecks: [check("extra", "true")] },
      }),
    verify: async (res, t) => {
      expect(res.json.version).toBe(t.version + 1);
      expect(res.json.effectiveChecks.map((c) => [c.id, c.source])).toEqual([
        ["red", "inherited"],
        ["extra", "added"],
      ]);
      expect((await h.t.db.task.findUniqueOrThrow({ where: { id: t.id } })).maxGateAttempts).toBe(2);
    },
  }),
  defineCase({
    name: "POST /api/tasks/:id/dispatch",
    need: "engineer",
    workScoped: true,
    ok: 202,
    prepare: () => freshTask(),
    call: (token, t) => callRoute(dispatch.POST, { token, method: "POST", params: { id: t.id } }),
    verify: async (res, t) => {
      expect(typeof res.json.runId).toBe("string");
      const detail = await settle(h, res.json.runId);
      expect(detail.run.taskId).toBe(t.id);
      expect(detail.run.status).toBe("waiting");
    },
  }),
  defineCase({
    name: "POST /api/runs/:id/attempts (a run waiting for a fix)",
    need: "engineer",
    workScoped: true,
    ok: 202,
    prepare: () => waitingRun(),
    call: (token, runId) => callRoute(attempts.POST, { token, method: "POST", params: { id: runId } }),
    verify: async (res, runId) => {
      expect(res.json).toEqual({ runId, attempt: 2 });
      const detail = await settle(h, runId);
      expect(detail.attempts.map((a) => a.n)).toEqual([1, 2]);
    },
  }),
  defineCase({
    name: "POST /api/runs/:id/cancel",
    need: "engineer",
    workScoped: true,
    ok: 200,
    prepare: () => waitingRun(),
    call: (token, runId) => callRoute(cancel.POST, { token, method: "POST", params: { id: runId } }),
    verify: async (res, runId) => {
      expect(res.json.ending).toBe("rejected");
      const row = await dbRun(runId);
      expect([row.status, row.ending]).toEqual(["finished", "rejected"]);
    },
  }),

  // lead and up
  defineCase({
    name: "POST /api/runs/:id/decision",
    need: "lead",
    workScoped: true,
    ok: 200,
    prepare: () => partialRun(),
    call: (token, runId) =>
      callRoute(decision.POST, { token, method: "POST", params: { id: runId }, body: { choice: "reject" } }),
    verify: async (res, runId) => {
      expect(res.json.ending).toBe("rejected");
      const row = await dbRun(runId);
      expect([row.ending, row.needsDecision, row.decision]).toEqual(["rejected", false, "reject"]);
    },
  }),
  defineCase({
    name: "PATCH /api/works/:id",
    need: "lead",
    workScoped: true,
    ok: 200,
    prepare: async () => (await h.t.db.work.findUniqueOrThrow({ where: { id: A.work.id } })).version,
    call: (token, version) =>
      callRoute(work.PATCH, {
        token,
        method: "PATCH",
        params: { id: A.work.id },
        body: { version, budgetSec: 600 + ++seq },
      }),
    verify: async (res, version) => {
      expect(res.json.version).toBe(version + 1);
      expect((await h.t.db.work.findUniqueOrThrow({ where: { id: A.work.id } })).version).toBe(version + 1);
    },
  }),
  defineCase({
    name: "GET /api/works/:id/secrets",
    need: "lead",
    workScoped: true,
    ok: 200,
    call: (token) => callRoute(secrets.GET, { token, params: { id: A.work.id } }),
    verify: async (res) => expect(Array.isArray(res.json.secrets)).toBe(true),
  }),
  defineCase({
    name: "PUT /api/works/:id/secrets/:name",
    need: "lead",
    workScoped: true,
    ok: 201,
    prepare: async () => `ROLE_CASE_${++seq}`,
    call: (token, name) =>
      callRoute(secret.PUT, {
        token,
        method: "PUT",
        params: { id: A.work.id, name },
        body: { value: "value-set-by-a-test" },
      }),
    verify: async (res, name) => {
      expect(res.json).toEqual({ name, created: true });
      expect(await h.t.db.secret.count({ where: { workId: A.work.id, name } })).toBe(1);
    },
  }),
  defineCase({
    name: "DELETE /api/works/:id/secrets/:name",
    need: "lead",
    workScoped: true,
    ok: 200,
    prepare: async () => {
      const name = `ROLE_CASE_${++seq}`;
      await setSecret(SYSTEM_ACTOR, A.work.id, name, { value: "to-be-deleted" });
      return name;
    },
    call: (token, name) => callRoute(secret.DELETE, { token, method: "DELETE", params: { id: A.work.id, name } }),
    verify: async (_res, name) => expect(await h.t.db.secret.count({ where: { workId: A.work.id, name } })).toBe(0),
  }),
  defineCase({
    name: "PUT /api/works/:id/members/:userId",
    need: "lead",
    workScoped: true,
    ok: 200,
    prepare: async () => {
      await grant(A.work.id, pawn, "viewer");
      return null;
    },
    call: (token) =>
      callRoute(member.PUT, {
        token,
        method: "PUT",
        params: { id: A.work.id, userId: pawn.id },
        body: { role: "engineer" },
      }),
    verify: async (res) => {
      expect(res.json).toEqual({ userId: pawn.id, role: "engineer" });
      const row = await h.t.db.membership.findUniqueOrThrow({
        where: { workId_userId: { workId: A.work.id, userId: pawn.id } },
      });
      expect(row.role).toBe("engineer");
    },
  }),
  defineCase({
    name: "DELETE /api/works/:id/members/:userId",
    need: "lead",
    workScoped: true,
    ok: 200,
    prepare: async () => {
      await grant(A.work.id, pawn, "viewer");
      return null;
    },
    call: (token) => callRoute(member.DELETE, { token, method: "DELETE", params: { id: A.work.id, userId: pawn.id } }),
    verify: async () =>
      expect(await h.t.db.membership.count({ where: { workId: A.work.id, userId: pawn.id } })).toBe(0),
  }),
  defineCase({
    name: "GET /api/audit?workId=A",
    need: "lead",
    workScoped: true,
    ok: 200,
    call: (token) => callRoute(audit.GET, { token, path: `/api/audit?workId=${A.work.id}` }),
    verify: async (res) => expect(res.json.events.every((e) => e.workId === A.work.id)).toBe(true),
  }),

  // admin only
  defineCase({
    name: "POST /api/works",
    need: "admin",
    workScoped: false,
    ok: 201,
    call: (token) =>
      callRoute(works.POST, { token, method: "POST", body: { name: `Admin made ${++seq}`, repoUrl: A.repo.dir } }),
    verify: async (res) => expect(await h.t.db.work.count({ where: { id: res.json.id } })).toBe(1),
  }),
  defineCase({
    name: "GET /api/users",
    need: "admin",
    workScoped: false,
    ok: 200,
    call: (token) => callRoute(users.GET, { token }),
    verify: async (res) => {
      expect(res.json.users.map((u) => u.email)).toContain(people.viewer.email);
      expect(JSON.stringify(res.json)).not.toMatch(/passwordHash|scrypt\$/);
    },
  }),
  defineCase({
    name: "POST /api/users",
    need: "admin",
    workScoped: false,
    ok: 201,
    call: (token) =>
      callRoute(users.POST, {
        token,
        method: "POST",
        body: { email: `made-${++seq}@example.test`, password: "a-long-enough-password" },
      }),
    verify: async (res) => {
      expect(await h.t.db.user.count({ where: { email: res.json.email } })).toBe(1);
      expect(JSON.stringify(res.json)).not.toMatch(/passwordHash|scrypt\$/);
    },
  }),
  defineCase({
    name: "GET /api/audit (every Work)",
    need: "admin",
    workScoped: false,
    ok: 200,
    call: (token) => callRoute(audit.GET, { token, path: "/api/audit" }),
    verify: async (res) => expect(Array.isArray(res.json.events)).toBe(true),
  }),
];

describe.each(CASES)("$name (needs $need)", (c) => {
  it.each(EVERYONE)("as %s", async (who) => {
    const ctx = c.prepare ? await c.prepare() : undefined;
    const token = people[who].token;
    if (allowed(who, c.need)) {
      const res = await c.call(token, ctx);
      expect(res.status, res.text).toBe(c.ok);
      await c.verify?.(res, ctx, who);
      return;
    }
    const res = await expectNoChange(h.t.db, () => c.call(token, ctx));
    if (who === "outsider" && c.workScoped) expectWorkNotFound(res);
    else
      expectForbiddenRole(
        res,
        c.need,
        who === "outsider" || c.need === "admin" ? undefined : `you are ${who === "engineer" ? "an" : "a"} ${who}`,
      );
  });
});

// ---- visibility and per-Work scope ---------------------------------------------------------------

describe("which Works a user sees", () => {
  it("GET /api/works lists Work A for its members and admins, never for a non-member", async () => {
    for (const who of EVERYONE) {
      const res = await callRoute(works.GET, { token: people[who].token });
      expect(res.status).toBe(200);
      const ids = res.json.works.map((w) => w.id);
      if (who === "outsider") expect(ids, who).not.toContain(A.work.id);
      else expect(ids, who).toContain(A.work.id);
    }
  });

  it("a non-member gets 404 for Work A's task and run by id, the same answer as for ids that do not \
exist", async () => {
    const token = people.outsider.token;
    expectWorkNotFound(await callRoute(task.GET, { token, params: { id: A.task.id } }));
    expectWorkNotFound(await callRoute(run.GET, { token, params: { id: readRunId } }));
    expect((await callRoute(task.GET, { token, params: { id: "no-such-task" } })).status).toBe(404);
    expect((await callRoute(run.GET, { token, params: { id: "no-such-run" } })).status).toBe(404);
    const res = await callRoute(log.GET, { token, params: { id: readRunId, n: "1", checkId: "red" } });
    expectWorkNotFound(res);
    expect(res.text).not.toContain("line-from-red");
  });

  it("roles are per Work: the lead of Work B is only a viewer on Work A", async () => {
    const b = await createWork(SYSTEM_ACTOR, { name: "Work B", repoUrl: A.repo.dir, baseBranch: "main" });
    const viewer = people.viewer;
    await grant(b.id, viewer, "lead");
    const onB = await callRoute(work.PATCH, {
      token: viewer.token,
      method: "PATCH",
      params: { id: b.id },
      body: { version: b.version, checksPolicy: "warn" },
    });
    expect(onB.status, onB.text).toBe(200);
    expect(onB.json.checksPolicy).toBe("warn");
    const version = (await h.t.db.work.findUniqueOrThrow({ where: { id: A.work.id } })).version;
    const onA = await expectNoChange(h.t.db, () =>
      callRoute(work.PATCH, {
        token: viewer.token,
        method: "PATCH",
        params: { id: A.work.id },
        body: { version, checksPolicy: "warn" },
      }),
    );
    expectForbiddenRole(onA, "lead", "you are a viewer");
    // And as lead of B they still cannot manage people on A.
    expectForbiddenRole(
      await expectNoChange(h.t.db, () =>
        callRoute(member.PUT, {
          token: viewer.token,
          method: "PUT",
          params: { id: A.work.id, userId: viewer.id },
          body: { role: "lead" },
        }),
      ),
      "lead",
    );
  });

  it("nobody can raise their own role on a Work they are not lead of", async () => {
    for (const who of ["viewer", "engineer"] as const) {
      const p = people[who];
      const res = await expectNoChange(h.t.db, () =>
        callRoute(member.PUT, {
          token: p.token,
          method: "PUT",
          params: { id: A.work.id, userId: p.id },
          body: { role: "lead" },
        }),
      );
      expectForbiddenRole(res, "lead");
    }
    expectWorkNotFound(
      await expectNoChange(h.t.db, () =>
        callRoute(member.PUT, {
          token: people.outsider.token,
          method: "PUT",
          params: { id: A.work.id, userId: people.outsider.id },
          body: { role: "viewer" },
        }),
      ),
    );
  });
});

// ---- each of the Work's lead-only settings, one at a time -----------------------------------------

describe("the Work's settings are lead-only, field by field", () => {
  const FIELDS: [string, unknown][] = [
    ["checkDefaults", [check("build", "true")]],
    ["checksPolicy", "warn"],
    ["maxGateAttempts", 5],
    ["agentCommand", "echo an agent"],
    ["agentEnvPassthrough", ["SOME_KEY"]],
    ["budgetSec", 120],
    ["failFast", true],
  ];
  let C: Awaited<ReturnType<typeof createWork>>;
  beforeAll(async () => {
    C = await createWork(SYSTEM_ACTOR, { name: "Work C", repoUrl: A.repo.dir, baseBranch: "main" });
    await grant(C.id, people.viewer, "viewer");
    await grant(C.id, people.engineer, "engineer");
    await grant(C.id, people.lead, "lead");
  });

  it.each([
    ["name", "Renamed"],
    ["repoUrl", "/etc"],
    ["baseBranch", "other"],
  ] as [string, unknown][])(
    "%s (which repository the Work is) needs an admin: a lead gets 403 and nothing changes",
    async (field, value) => {
      const version = (await h.t.db.work.findUniqueOrThrow({ where: { id: C.id } })).version;
      const res = await expectNoChange(h.t.db, () =>
        callRoute(work.PATCH, {
          token: people.lead.token,
          method: "PATCH",
          params: { id: C.id },
          body: { version, [field]: value },
        }),
      );
      expect(res.status, res.text).toBe(403);
      expect(res.json.error.message).toContain("needs an admin");
      const ok = await callRoute(work.PATCH, {
        token: people.admin.token,
        method: "PATCH",
        params: { id: C.id },
        body: { version, [field]: value },
      });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.json[field]).toEqual(value);
    },
  );

  it.each(FIELDS)(
    "%s: viewer and engineer get 403 naming lead and nothing changes; the lead's change is saved",
    async (field, value) => {
      const version = (await h.t.db.work.findUniqueOrThrow({ where: { id: C.id } })).version;
      for (const who of ["viewer", "engineer"] as const) {
        const res = await expectNoChange(h.t.db, () =>
          callRoute(work.PATCH, {
            token: people[who].token,
            method: "PATCH",
            params: { id: C.id },
            body: { version, [field]: value },
          }),
        );
        expectForbiddenRole(res, "lead");
      }
      const ok = await callRoute(work.PATCH, {
        token: people.lead.token,
        method: "PATCH",
        params: { id: C.id },
        body: { version, [field]: value },
      });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.json[field]).toEqual(value);
      expect(ok.json.version).toBe(version + 1);
    },
  );

  it("a refusal comes before validation: a viewer's invalid body is 403, not a 400 that reveals the \
rules were checked", async () => {
    const res = await expectNoChange(h.t.db, () =>
      callRoute(work.PATCH, {
        token: people.viewer.token,
        method: "PATCH",
        params: { id: C.id },
        body: { version: 1, maxGateAttempts: 99 },
      }),
    );
    expectForbiddenRole(res, "lead");
  });
});

// ---- a refused decision leaves the run exactly as it was; the lead's choices all work -------------

describe("decisions on a partial run", () => {
  it("engineer's 'accept' and 'more-attempts' are refused and the run still needs a decision; the \
lead's 'more-attempts' continues the run", async () => {
    const runId = await partialRun();
    for (const body of [{ choice: "accept" }, { choice: "more-attempts", attempts: 2 }]) {
      const res = await expectNoChange(h.t.db, () =>
        callRoute(decision.POST, { token: people.engineer.token, method: "POST", params: { id: runId }, body }),
      );
      expectForbiddenRole(res, "lead", "you are an engineer");
    }
    expect((await dbRun(runId)).needsDecision).toBe(true);
    const ok = await callRoute(decision.POST, {
      token: people.lead.token,
      method: "POST",
      params: { id: runId },
      body: { choice: "more-attempts", attempts: 1 },
    });
    expect(ok.status, ok.text).toBe(200);
    // No agent: the run waits for a fix, and the engineer may now start that attempt.
    expect(ok.json.status).toBe("waiting");
    const next = await callRoute(attempts.POST, {
      token: people.engineer.token,
      method: "POST",
      params: { id: runId },
    });
    expect(next.status, next.text).toBe(202);
    const detail = await settle(h, runId);
    expect(detail.attempts.map((a) => a.n)).toEqual([1, 2]);
    expect(detail.run.ending).toBe("partial");
  });
});
