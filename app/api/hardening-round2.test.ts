// Issue 22, tried as the attacker: held-out checks read as a viewer and an engineer through the routes and
// services that show runs, tasks and stats (command in the task's history, error reason in the ending,
// durations in the stats); the log routes of an agent-reported check; a check source or repoUrl that is a
// local path into the data dir, the install or another Work's repository; a repoUrl that cannot be reached.
// Real SQLite, real runs, real repositories.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { grant, makePerson, type Person } from "@/lib/testing/access-fixture";
import { callRoute } from "@/lib/testing/call-route";
import { check, createHarness, makeScenario, settle, type Harness, type Scenario } from "@/lib/testing/runner-harness";
import { makeGitRepo } from "@/lib/testing/git-repo";
import { dispatchTask } from "@/lib/services/runs";
import { readAudit } from "@/lib/services/audit";
import { loadInbox } from "@/lib/services/inbox";
import { updateTask } from "@/lib/services/tasks";
import { repoDirOf } from "@/lib/runner/checkout/checkout";
import * as run from "./runs/[id]/route";
import * as taskRuns from "./tasks/[id]/runs/route";
import * as stats from "./works/[id]/checks/stats/route";
import * as works from "./works/route";
import * as work from "./works/[id]/route";
import * as task from "./tasks/[id]/route";
import * as workTasks from "./works/[id]/tasks/route";
import * as log from "./runs/[id]/attempts/[n]/checks/[checkId]/log/route";
import * as logLines from "./runs/[id]/attempts/[n]/checks/[checkId]/log/lines/route";
import * as logSearch from "./runs/[id]/attempts/[n]/checks/[checkId]/log/search/route";

let h: Harness;
let S: Scenario;
let runId: string;
let viewer: Person;
let engineer: Person;
let lead: Person;
let admin: Person;

const SECRET_COMMAND = "grep -q fixed answer.txt # quokka-7319";
const MISSING_CWD = "no-such-folder-wombat";

const actorOf = (p: Person): Actor => ({
  userId: p.id,
  label: p.email,
  email: p.email,
  isAdmin: p.isAdmin,
  via: "token",
  tokenId: p.tokenId,
});

beforeAll(async () => {
  h = await createHarness();
  S = await makeScenario(h, {
    maxGateAttempts: 1,
    agentCommand: `echo '{"checks": [{"id": "agent-said", "status": "pass"}]}' > "$GATEHOUSE_REPORT_FILE"`,
    checkDefaults: [
      check("visible", "sleep 0.2; true"),
      // A held-out check whose cwd is missing: it errs, and its reason names the folder.
      check("held-out-cwd", "true", { hidden: true, cwd: MISSING_CWD }),
      check("agent-said", "the agent says it passes", { executor: "agent" }),
    ],
  });
  // A task-level held-out check, whose command must not reach a viewer through the task's history.
  await updateTask(SYSTEM_ACTOR, S.task.id, {
    version: S.task.version,
    acceptanceChecks: [check("task-held-out", SECRET_COMMAND, { hidden: true })],
  });
  [viewer, engineer, lead, admin] = await Promise.all([
    makePerson("r2-viewer"),
    makePerson("r2-engineer"),
    makePerson("r2-lead"),
    makePerson("r2-admin", { admin: true }),
  ]);
  await grant(S.work.id, viewer, "viewer");
  await grant(S.work.id, engineer, "engineer");
  await grant(S.work.id, lead, "lead");
  runId = (await dispatchTask(SYSTEM_ACTOR, S.task.id)).id;
  const detail = await settle(h, runId);
  expect(detail.run.ending).toBe("inconclusive");
}, 120_000);
afterAll(async () => h?.cleanup());

describe("held-out checks are name and verdict only, for viewers and engineers", () => {
  it("the run's ending reason names the held-out check, not its error (run JSON, runs list, inbox)", async () => {
    for (const p of [viewer, engineer]) {
      const one = await callRoute(run.GET, { params: { id: runId }, token: p.token });
      expect(one.status).toBe(200);
      expect(one.json.endingReason).toContain('held-out check "held-out-cwd" could not run');
      expect(one.text).not.toContain(MISSING_CWD);
      const list = await callRoute(taskRuns.GET, { params: { id: S.task.id }, token: p.token });
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(MISSING_CWD);
      const inbox = await loadInbox(actorOf(p), {});
      expect(JSON.stringify(inbox)).not.toContain(MISSING_CWD);
    }
  });

  it("GET /api/works/:id/checks/stats gives no durations of a held-out check below lead", async () => {
    for (const p of [viewer, engineer]) {
      const res = await callRoute(stats.GET, { params: { id: S.work.id }, token: p.token });
      expect(res.status).toBe(200);
      const heldOut = res.json.checks.find((c) => c.checkId === "held-out-cwd");
      expect(heldOut).toMatchObject({ medianMs: null, p95Ms: null });
    }
    const asLead = await callRoute(stats.GET, { params: { id: S.work.id }, token: lead.token });
    const visible = asLead.json.checks.find((c) => c.checkId === "visible");
    expect(visible?.medianMs).toBeGreaterThan(0);
  });

  it("the task's history (the task editor's History) shows a task-level held-out check without its \
command", async () => {
    for (const p of [viewer, engineer]) {
      const history = await readAudit(actorOf(p), { workId: S.work.id, taskId: S.task.id, actionPrefix: "task." });
      expect(history.events.length).toBeGreaterThan(0);
      expect(JSON.stringify(history.events)).not.toContain("quokka-7319");
    }
    const asLead = await readAudit(actorOf(lead), { workId: S.work.id, taskId: S.task.id, actionPrefix: "task." });
    expect(JSON.stringify(asLead.events)).toContain("quokka-7319");
  });
});

describe("an engineer saving a task's checks", () => {
  it("keeps the task's held-out check as the lead set it, answers without its command, and may not \
add one", async () => {
    const before = await callRoute(task.GET, { params: { id: S.task.id }, token: engineer.token });
    expect(before.text).not.toContain("quokka-7319");
    const saved = await callRoute(task.PATCH, {
      method: "PATCH",
      params: { id: S.task.id },
      token: engineer.token,
      body: { version: before.json.version, acceptanceChecks: [check("extra", "true")] },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.text).not.toContain("quokka-7319");
    const asLead = await callRoute(task.GET, { params: { id: S.task.id }, token: lead.token });
    expect(asLead.json.acceptanceChecks.map((c) => c.id)).toEqual(["extra", "task-held-out"]);
    expect(asLead.text).toContain("quokka-7319");
    const adding = await callRoute(task.PATCH, {
      method: "PATCH",
      params: { id: S.task.id },
      token: engineer.token,
      body: { version: asLead.json.version, acceptanceChecks: [check("sneaky", "true", { hidden: true })] },
    });
    expect(adding.status).toBe(403);
    expect(adding.json.error.message).toContain('adding the held-out check "sneaky" needs the lead role');
  });
});

describe("an engineer may not weaken the Work's held-out check", () => {
  const weakenings = [
    ["suppressing it", { id: "held-out-cwd", disabled: true }],
    ["replacing it with a visible check", check("held-out-cwd", "true")],
    ["replacing it with a held-out check of the task's", check("held-out-cwd", "true", { hidden: true })],
  ] as const;

  it.each(weakenings)("%s on a new task: 403, and no task is made", async (_label, entry) => {
    const before = (await callRoute(workTasks.GET, { params: { id: S.work.id }, token: lead.token })).json.tasks.length;
    const res = await callRoute(workTasks.POST, {
      method: "POST",
      params: { id: S.work.id },
      token: engineer.token,
      body: { title: "weaker gate", acceptanceChecks: [entry] },
    });
    expect(res.status, res.text).toBe(403);
    expect(res.json.error.message).toMatch(
      /(suppressing or replacing the Work's|adding the) held-out check "held-out-cwd"/,
    );
    const after = (await callRoute(workTasks.GET, { params: { id: S.work.id }, token: lead.token })).json.tasks.length;
    expect(after).toBe(before);
  });

  it.each(weakenings)("%s on a task's edit: 403, and the task's checks are unchanged", async (_label, entry) => {
    const before = await callRoute(task.GET, { params: { id: S.task.id }, token: lead.token });
    const res = await callRoute(task.PATCH, {
      method: "PATCH",
      params: { id: S.task.id },
      token: engineer.token,
      body: { version: before.json.version, acceptanceChecks: [entry] },
    });
    expect(res.status, res.text).toBe(403);
    const after = await callRoute(task.GET, { params: { id: S.task.id }, token: lead.token });
    expect(after.json.version).toBe(before.json.version);
    expect(after.json.effectiveChecks.map((c) => c.id)).toContain("held-out-cwd");
  });

  it("a lead may suppress it for a task, and an engineer's later save keeps that as it is", async () => {
    const created = await callRoute(workTasks.POST, {
      method: "POST",
      params: { id: S.work.id },
      token: lead.token,
      body: { title: "held-out off here", acceptanceChecks: [{ id: "held-out-cwd", disabled: true }] },
    });
    expect(created.status, created.text).toBe(201);
    const saved = await callRoute(task.PATCH, {
      method: "PATCH",
      params: { id: created.json.id },
      token: engineer.token,
      body: {
        version: created.json.version,
        acceptanceChecks: [{ id: "held-out-cwd", disabled: true }, check("extra", "true")],
      },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.suppressed).toEqual(["held-out-cwd"]);
  });
});

describe("the log routes of an agent-reported check", () => {
  it("answer 404 with a reason, never 500", async () => {
    const params = { id: runId, n: "1", checkId: "agent-said" };
    for (const [route, query] of [
      [logSearch.GET, "?q=x"],
      [logLines.GET, "?from=1&count=10"],
      [log.GET, ""],
    ] as const) {
      const res = await callRoute(route, { params, path: `/x${query}`, token: admin.token });
      expect(res.status, res.text).toBe(404);
      expect(res.json.error.message).toContain('"agent-said" has no log in attempt 1');
    }
  });

  it("a check or an attempt the run does not have: 404 naming which", async () => {
    const ask = (n: string, checkId: string) =>
      callRoute(log.GET, { params: { id: runId, n, checkId }, path: "/x", token: admin.token });
    const noCheck = await ask("1", "nope");
    expect(noCheck.status).toBe(404);
    expect(noCheck.json.error.message).toMatch(/^attempt 1 of run #\d+ has no check "nope"$/);
    const noAttempt = await ask("7", "agent-said");
    expect(noAttempt.status).toBe(404);
    expect(noAttempt.json.error.message).toMatch(/^run #\d+ has no attempt 7$/);
  });
});

describe("local repositories out of a lead's reach", () => {
  it("a check source into the data dir (another Work's clone) or the install is refused, naming the \
field", async () => {
    const other = await makeScenario(h, { checkDefaults: [check("a", "true")] });
    await settle(h, (await dispatchTask(SYSTEM_ACTOR, other.task.id)).id);
    const otherClone = repoDirOf(h.dataDir, other.work.id);
    expect(fs.existsSync(otherClone)).toBe(true);
    for (const url of [otherClone, `file://${otherClone}`, h.dataDir, process.cwd(), path.join(process.cwd(), "lib")]) {
      const res = await callRoute(work.PATCH, {
        method: "PATCH",
        params: { id: S.work.id },
        token: lead.token,
        body: {
          version: (await callRoute(work.GET, { params: { id: S.work.id }, token: lead.token })).json.version,
          checkSources: [{ name: "gate", url, ref: "main" }],
        },
      });
      expect(res.status, url).toBe(400);
      expect(res.json.error.issues[0].path).toBe("checkSources.0.url");
    }
  });

  it("a link into the data dir is followed (realpath) and refused too", async () => {
    const link = path.join(h.scratch, "innocent-looking-repo");
    fs.symlinkSync(h.dataDir, link);
    const res = await callRoute(works.POST, {
      method: "POST",
      token: admin.token,
      body: { name: "Via a link", repoUrl: path.join(link, "repos", `${S.work.id}.git`) },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.issues).toEqual([
      { path: "repoUrl", message: expect.stringContaining("inside Gatehouse's data dir") },
    ]);
  });

  it("a check source that is the local repository of a Work the lead has no role on is refused", async () => {
    const secretRepo = makeGitRepo({ "answer.txt": "the fix\n" });
    const closed = await makeScenario(h, { checkDefaults: [check("a", "true")] }, { repo: secretRepo });
    expect(closed.work.repoUrl).toBe(secretRepo.dir);
    const current = (await callRoute(work.GET, { params: { id: S.work.id }, token: lead.token })).json;
    const res = await callRoute(work.PATCH, {
      method: "PATCH",
      params: { id: S.work.id },
      token: lead.token,
      body: {
        version: current.version,
        checkSources: [{ name: "gate", url: `file://${secretRepo.dir}`, ref: "main" }],
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.issues[0]).toEqual({
      path: "checkSources.0.url",
      message: expect.stringContaining("a Work you have no role on"),
    });
    // An admin may (they can read every Work).
    const asAdmin = await callRoute(work.PATCH, {
      method: "PATCH",
      params: { id: S.work.id },
      token: admin.token,
      body: { version: current.version, checkSources: [{ name: "gate", url: secretRepo.dir, ref: "main" }] },
    });
    expect(asAdmin.status, asAdmin.text).toBe(200);
  });

  it("at clone time too: a Work whose repoUrl became a link into the data dir ends inconclusive, \
not cloned", async () => {
    const repo = makeGitRepo({ "a.txt": "a\n" });
    const s = await makeScenario(h, { checkDefaults: [check("a", "true")] }, { repo });
    // After saving, the path is swapped for a link to another Work's clone.
    fs.rmSync(repo.dir, { recursive: true, force: true });
    fs.symlinkSync(repoDirOf(h.dataDir, S.work.id), repo.dir);
    const detail = await settle(h, (await dispatchTask(SYSTEM_ACTOR, s.task.id)).id);
    expect(detail.run.ending).toBe("inconclusive");
    expect(detail.run.endingReason).toContain("inside Gatehouse's data dir");
  });
});

describe("a repoUrl that cannot be reached", () => {
  it("is saved with a warning at once naming repoUrl and the reason", async () => {
    const res = await callRoute(works.POST, {
      method: "POST",
      token: admin.token,
      body: { name: "Typo", repoUrl: path.join(h.scratch, "no-such-repository.git") },
    });
    expect(res.status).toBe(201);
    // A clause without git's full stop: the settings page says it inside a sentence ("…exists.. Its" before).
    expect(res.json.warnings).toEqual([
      { path: "repoUrl", message: expect.stringMatching(/no-such-repository\.git cannot be reached: .+[^.]$/) },
    ]);
    // A bare clone, as a Work's repository should be (a checked-out base branch is warned about too).
    const good = `${makeGitRepo({ "a.txt": "a\n" }).dir}.git`;
    execFileSync("git", ["clone", "-q", "--bare", good.slice(0, -4), good]);
    const fine = await callRoute(works.POST, {
      method: "POST",
      token: admin.token,
      body: { name: "Fine", repoUrl: good },
    });
    expect(fine.json.warnings).toEqual([]);
  });
});
