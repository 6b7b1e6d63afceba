// Granting environment names to a check (secrets, server variables) or setting a task's agent command
// is a lead's call: an engineer who edits task overrides cannot use them to read secrets.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { createWork } from "@/lib/services/works";
import { createTestDb, type TestDb } from "@/lib/testing/test-db";
import { callRoute } from "@/lib/testing/call-route";
import { expectNoChange, grant, makePerson, type Person } from "@/lib/testing/access-fixture";
import { bootstrapAccess } from "@/lib/startup/bootstrap-access";
import * as taskRoute from "./tasks/[id]/route";
import * as workTasks from "./works/[id]/tasks/route";
import * as users from "./users/route";
import * as audit from "./audit/route";

let t: TestDb;
let engineer: Person;
let lead: Person;
let admin: Person;
let workId: string;
const DEPLOY = {
  id: "deploy",
  name: "Deploys",
  kind: "custom",
  command: "./deploy.sh",
  required: true,
  envPassthrough: ["NPM_TOKEN"],
};

beforeAll(async () => {
  t = await createTestDb();
  engineer = await makePerson("engineer");
  lead = await makePerson("lead");
  admin = await makePerson("admin", { admin: true });
  const work = await createWork(SYSTEM_ACTOR, {
    name: "Grants",
    repoUrl: "/tmp/none",
    checkDefaults: [DEPLOY, { id: "unit", name: "Unit", kind: "test", command: "true", required: true }],
  });
  workId = work.id;
  await grant(workId, engineer, "engineer");
  await grant(workId, lead, "lead");
});
afterAll(async () => t.cleanup());

async function newTask(body: Record<string, unknown> = {}) {
  const res = await callRoute(workTasks.POST, {
    token: lead.token,
    method: "POST",
    params: { id: workId },
    body: { title: "t", ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

const patch = (who: Person, id: string, body: unknown) =>
  callRoute(taskRoute.PATCH, { token: who.token, method: "PATCH", params: { id }, body });

describe("task overrides that grant names", () => {
  it("an engineer adding a check that lists a secret is refused (403 naming lead); a lead may", async () => {
    const task = await newTask();
    const leak = {
      id: "leak",
      name: "Leaks",
      kind: "custom",
      command: 'printf "%s" "$NPM_TOKEN" | rev',
      required: false,
      envPassthrough: ["NPM_TOKEN"],
    };
    const refused = await expectNoChange(t.db, () =>
      patch(engineer, task.id, { version: task.version, acceptanceChecks: [leak] }),
    );
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json.error.message).toContain('giving "leak" envPassthrough names');
    expect(refused.json.error.message).toContain("lead role");
    const ok = await patch(lead, task.id, { version: task.version, acceptanceChecks: [leak] });
    expect(ok.status, ok.text).toBe(200);
  });

  it("an engineer overriding a default that grants names with another command is refused", async () => {
    const task = await newTask();
    const res = await patch(engineer, task.id, {
      version: task.version,
      acceptanceChecks: [{ ...DEPLOY, command: 'echo "$NPM_TOKEN" | base32' }],
    });
    expect(res.status).toBe(403);
  });

  it("an engineer may copy a granting default unchanged, keep a lead's approved entry, and edit \
checks that grant nothing", async () => {
    const approved = {
      id: "smoke",
      name: "Smoke",
      kind: "custom",
      command: "./smoke.sh",
      required: false,
      envPassthrough: ["NPM_TOKEN"],
    };
    const task = await newTask({ acceptanceChecks: [approved] });
    const ok = await patch(engineer, task.id, {
      version: task.version,
      acceptanceChecks: [
        DEPLOY,
        approved,
        { id: "unit", name: "Unit, quick", kind: "test", command: "npm test -- --quick", required: true },
        { id: "lint", name: "Lint", kind: "lint", command: "npm run lint", required: true },
      ],
    });
    expect(ok.status, ok.text).toBe(200);
    // Changing the approved entry is a new grant.
    const changed = await patch(engineer, task.id, {
      version: ok.json.version,
      acceptanceChecks: [{ ...approved, command: "env" }],
    });
    expect(changed.status).toBe(403);
  });

  it("setting a task's agent command needs a lead; an engineer may still change the title", async () => {
    const task = await newTask();
    const refused = await patch(engineer, task.id, { version: task.version, agentCommand: 'echo "$NPM_TOKEN"' });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain("agent command");
    const title = await patch(engineer, task.id, { version: task.version, title: "renamed" });
    expect(title.status, title.text).toBe(200);
  });

  it("an engineer creating a task with a granting check or an agent command is refused", async () => {
    const res = await callRoute(workTasks.POST, {
      token: engineer.token,
      method: "POST",
      params: { id: workId },
      body: { title: "x", agentCommand: "env" },
    });
    expect(res.status).toBe(403);
  });
});

describe("configuration-owned access", () => {
  it("unsetting GATEHOUSE_BOOTSTRAP_TOKEN revokes the token it had enabled", async () => {
    const value = "bootstrap-grants-test-0123456789abcdef";
    await bootstrapAccess({ GATEHOUSE_BOOTSTRAP_TOKEN: value });
    expect((await callRoute(users.GET, { token: value })).status).toBe(200);
    await bootstrapAccess({});
    expect((await callRoute(users.GET, { token: value })).status).toBe(401);
    await bootstrapAccess({ GATEHOUSE_BOOTSTRAP_TOKEN: value });
    expect((await callRoute(users.GET, { token: value })).status).toBe(200);
    await bootstrapAccess({ GATEHOUSE_BOOTSTRAP_TOKEN: "short" });
    expect((await callRoute(users.GET, { token: value })).status).toBe(401);
  });

  it("a malformed audit cursor is a 400 naming `before`, not a server error", async () => {
    const res = await callRoute(audit.GET, { token: admin.token, path: "/api/audit?before=garbage" });
    expect(res.status).toBe(400);
    expect(res.json.error.issues[0].path).toBe("before");
  });
});
