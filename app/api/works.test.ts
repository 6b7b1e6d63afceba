// Integration tests of the JSON API for Works (and /api/health), called in-process against a real
// SQLite database with the committed migrations. Every caller is the admin "local operator".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/lib/testing/test-db";
import { callRoute, sendTokenByDefault } from "@/lib/testing/call-route";
import type { Json } from "@/lib/testing/json";
import { makePerson } from "@/lib/testing/access-fixture";
import { makeBareRepo, makeGitRepo } from "@/lib/testing/git-repo";
import * as health from "./health/route";
import * as works from "./works/route";
import * as work from "./works/[id]/route";
import * as workTasks from "./works/[id]/tasks/route";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  // These tests are about the API's behaviour, not access: they act as an admin.
  sendTokenByDefault((await makePerson("admin", { admin: true })).token);
});
afterAll(async () => t?.cleanup());

// ---- helpers -------------------------------------------------------------------------------------

const check = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `${id} passes`,
  kind: "test",
  command: `npm run ${id}`,
  required: true,
  ...extra,
});

let seq = 0;
const uniqueName = (base = "Shop") => `${base} ${++seq}`;

async function createWork(body: Record<string, unknown> = {}) {
  const res = await callRoute(works.POST, {
    method: "POST",
    body: { name: uniqueName(), repoUrl: "/tmp/repo", ...body },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  // The Work as saved; `warnings` (the repository cannot be reached) is the answer's alone.
  const { warnings, ...saved } = res.json as Record<string, Json>;
  expect(Array.isArray(warnings)).toBe(true);
  return saved as Json;
}

const getWork = (id: string) => callRoute(work.GET, { params: { id } });
const patchWork = (id: string, body: unknown) => callRoute(work.PATCH, { method: "PATCH", params: { id }, body });
const postWork = (body: unknown) => callRoute(works.POST, { method: "POST", body });

async function listWorkIds(): Promise<string[]> {
  const res = await callRoute(works.GET);
  expect(res.status).toBe(200);
  return res.json.works.map((w) => w.id);
}

async function auditRows(workId: string, action?: string) {
  const rows = await t.db.auditEvent.findMany({
    where: { workId, ...(action ? { action } : {}) },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });
  return rows.map((r) => ({
    ...r,
    before: r.before === null ? null : JSON.parse(r.before),
    after: r.after === null ? null : JSON.parse(r.after),
  }));
}

// A 400 whose issues include one at `path`; returns that issue.
function expectIssueAt(res: { status: number; json: Json }, path: string) {
  expect(res.status, JSON.stringify(res.json)).toBe(400);
  expect(res.json.error.code).toBe("validation");
  expect(typeof res.json.error.message).toBe("string");
  expect(res.json.error.message.length).toBeGreaterThan(0);
  const issues = res.json.error.issues;
  expect(Array.isArray(issues)).toBe(true);
  const issue = issues.find((i) => i.path === path);
  expect(issue, `no issue at "${path}" in ${JSON.stringify(issues)}`).toBeDefined();
  expect(issue!.message.length).toBeGreaterThan(0);
  return issue!;
}

// Runs a request that must be refused and proves nothing was saved: same Works, same count of audit events.
async function expectRefusedCreate(body: unknown, path: string) {
  const before = await listWorkIds();
  const auditBefore = await t.db.auditEvent.count();
  const res = await postWork(body);
  const issue = expectIssueAt(res, path);
  expect(await listWorkIds()).toEqual(before);
  expect(await t.db.auditEvent.count()).toBe(auditBefore);
  return { res, issue };
}

// ---- health --------------------------------------------------------------------------------------

describe("GET /api/health", () => {
  it("answers 200 {status: ok} as JSON", async () => {
    const res = await callRoute(health.GET);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "ok" });
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
  });
});

// ---- create, list, read --------------------------------------------------------------------------

describe("POST /api/works", () => {
  it("creates a Work with the SPEC's defaults and answers 201 with it", async () => {
    const res = await postWork({ name: "Shop", repoUrl: "https://github.com/acme/shop.git" });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const w = res.json;
    expect(typeof w.id).toBe("string");
    expect(w.id.length).toBeGreaterThan(0);
    expect(w).toMatchObject({
      name: "Shop",
      repoUrl: "https://github.com/acme/shop.git",
      baseBranch: null,
      keyPrefix: "SHOP",
      checkDefaults: [],
      checksPolicy: "required",
      maxGateAttempts: 3,
      agentCommand: null,
      agentEnvPassthrough: [],
      budgetSec: null,
      failFast: false,
      strictEvaluation: false,
      testPatterns: [
        "**/*.{test,spec}.*",
        "**/__tests__/**",
        "test/**",
        "tests/**",
        "**/test_*.py",
        "**/*_test.py",
        "**/*_test.go",
        "src/test/**",
      ],
      requireTests: "warn",
      protectedPaths: ["**/conftest.py", "pytest.ini", "jest.config.*", "vitest.config.*", ".mocharc.*"],
      vacuousPolicy: "warn",
      version: 1,
    });
    // Times are ISO 8601.
    expect(new Date(w.createdAt).toISOString()).toBe(w.createdAt);
    expect(new Date(w.updatedAt).toISOString()).toBe(w.updatedAt);
  });

  it.each([
    ["Gatehouse demo", "GATE"],
    ["payments-api", "PAYM"],
    ["  Billing  ", "BILL"],
  ])("derives the key prefix from the name %j → %s", async (name, prefix) => {
    const res = await postWork({ name, repoUrl: "/tmp/repo" });
    expect(res.status).toBe(201);
    expect(res.json.keyPrefix).toBe(prefix);
  });

  it("trims the name it stores", async () => {
    const res = await postWork({ name: "  Trimmed  ", repoUrl: "/tmp/repo" });
    expect(res.status).toBe(201);
    expect(res.json.name).toBe("Trimmed");
  });

  it("refuses a name another Work has, whatever its case or spaces, naming the field; saves nothing", async () => {
    const first = await createWork({ name: "Ledger Service" });
    const before = await listWorkIds();
    // Also as a reader would see it: a zero-width space, a byte-order mark, fullwidth letters.
    const lookalikes = ["Ledger Service\u200b", "Ledger\u200b Service", "\ufeffLedger Service", "Ｌｅｄｇｅｒ Service"];
    for (const name of ["Ledger Service", "ledger service", "  LEDGER   service ", ...lookalikes]) {
      const res = await postWork({ name, repoUrl: "/tmp/repo" });
      expect(res.status, name).toBe(400);
      expect(res.json.error.issues).toEqual([
        { path: "name", message: 'another Work is named "Ledger Service": give this one a name of its own' },
      ]);
    }
    expect(await listWorkIds()).toEqual(before);
    // A name that only starts alike is another name.
    expect((await postWork({ name: "Ledger Service 2", repoUrl: "/tmp/repo" })).status).toBe(201);
    // Renaming: not to another's name (nothing of the patch saved), but a Work may change its own name's case.
    const other = await createWork({ name: "Ledger jobs" });
    const clash = await patchWork(other.id, { version: 1, name: "LEDGER SERVICE", failFast: true });
    expect(clash.status).toBe(400);
    expect(clash.json.error.issues[0].path).toBe("name");
    expect((await getWork(other.id)).json).toMatchObject({ name: "Ledger jobs", failFast: false, version: 1 });
    const recased = await patchWork(first.id, { version: 1, name: "Ledger service" });
    expect(recased.status, JSON.stringify(recased.json)).toBe(200);
    expect(recased.json.name).toBe("Ledger service");
  });

  it("refuses a name that shows nothing, or that reorders what is shown, naming the rule; saves nothing", async () => {
    const before = await listWorkIds();
    for (const [name, message] of [
      ["\u200b", "must contain a visible character"],
      ["\u200b\u2060 \u3164", "must contain a visible character"],
      ["Invoices \u202egnp.exe", "must not contain text-direction controls"],
    ]) {
      const res = await postWork({ name, repoUrl: "/tmp/repo" });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.json.error.issues).toEqual([{ path: "name", message: expect.stringContaining(message) }]);
    }
    expect(await listWorkIds()).toEqual(before);
    // Letters of any script, and emoji joined by zero-width joiners, are names.
    for (const name of ["Платежи", "請求書", "Team 👩‍💻 tools"])
      expect((await postWork({ name, repoUrl: "/tmp/repo" })).status, name).toBe(201);
  });

  it("of five creates of one name at once, one is made and four are refused on the name", async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => postWork({ name: "Raced name", repoUrl: "/tmp/repo" })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400]);
    expect((await callRoute(works.GET)).json.works.filter((w: Json) => w.name === "Raced name")).toHaveLength(1);
  });

  it("stores every field it is given and answers them back", async () => {
    const body = {
      name: uniqueName("Full"),
      repoUrl: "file:///srv/git/full.git",
      baseBranch: "main",
      checkDefaults: [
        check("build", { kind: "build" }),
        check("unit", {
          timeoutSec: 120,
          cwd: "packages/app",
          envPassthrough: ["NPM_TOKEN"],
          expectExit: 0,
          expectStdout: "ok",
        }),
        check("no-todo", { kind: "custom", required: false, expectExit: 1 }),
      ],
      checksPolicy: "warn",
      maxGateAttempts: 5,
      agentCommand: "./agent.sh",
      agentEnvPassthrough: ["ANTHROPIC_API_KEY"],
      budgetSec: 900,
      failFast: true,
      strictEvaluation: true,
    };
    const res = await postWork(body);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject(body);
    const read = await getWork(res.json.id);
    expect(read.status).toBe(200);
    const { warnings, ...saved } = res.json as Record<string, Json>;
    expect(warnings).toEqual([
      { path: "repoUrl", message: expect.stringContaining(`the repository ${body.repoUrl} cannot be reached`) },
    ]);
    expect(read.json).toEqual(saved);
  });

  it("writes a work.create audit event", async () => {
    const w = await createWork({ checkDefaults: [check("unit")] });
    const rows = await auditRows(w.id, "work.create");
    expect(rows).toHaveLength(1);
    expect(rows[0].after).toMatchObject({
      name: w.name,
      checkDefaults: [check("unit")],
      checksPolicy: "required",
      maxGateAttempts: 3,
    });
    expect(rows[0].actorLabel).toBeTruthy();
  });
});

describe("GET /api/works and GET /api/works/:id", () => {
  it("lists a created Work and reads it by id", async () => {
    const w = await createWork({ checkDefaults: [check("lint", { kind: "lint" })] });
    const list = await callRoute(works.GET);
    expect(list.status).toBe(200);
    expect(Array.isArray(list.json.works)).toBe(true);
    const listed = list.json.works.find((x) => x.id === w.id);
    expect(listed).toEqual(w);

    const read = await getWork(w.id);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(w);
  });

  it("answers 404 with a message for an unknown id", async () => {
    const res = await getWork("no-such-work");
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
    expect(res.json.error.message).toMatch(/work/i);
    expect(res.json.error.message).toMatch(/not found/i);
  });

  it("answers 404 for the tasks of an unknown Work", async () => {
    const list = await callRoute(workTasks.GET, { params: { id: "no-such-work" } });
    expect(list.status).toBe(404);
    const create = await callRoute(workTasks.POST, {
      method: "POST",
      params: { id: "no-such-work" },
      body: { title: "x" },
    });
    expect(create.status).toBe(404);
    expect(create.json.error.message).toMatch(/work/i);
  });
});

// ---- validation ----------------------------------------------------------------------------------

describe("POST /api/works validation (400, field named, nothing saved)", () => {
  it("names checkDefaults.2.timeoutSec for a timeout beyond an hour", async () => {
    const { issue } = await expectRefusedCreate(
      {
        name: uniqueName(),
        repoUrl: "/tmp/r",
        checkDefaults: [check("a"), check("b"), check("c", { timeoutSec: 3601 })],
      },
      "checkDefaults.2.timeoutSec",
    );
    expect(issue?.message).toMatch(/3600/);
  });

  it.each([0, 1.5, "60"])("names checkDefaults.0.timeoutSec for timeoutSec %j", async (timeoutSec) => {
    await expectRefusedCreate(
      { name: uniqueName(), repoUrl: "/tmp/r", checkDefaults: [check("a", { timeoutSec })] },
      "checkDefaults.0.timeoutSec",
    );
  });

  it("names the field and the rule in the top-level message too", async () => {
    const { res } = await expectRefusedCreate(
      {
        name: uniqueName(),
        repoUrl: "/tmp/r",
        checkDefaults: [check("a"), check("b"), check("c", { timeoutSec: 99999 })],
      },
      "checkDefaults.2.timeoutSec",
    );
    expect(res.json.error.message).toContain("checkDefaults.2.timeoutSec");
  });

  it.each([
    ["missing", { repoUrl: "/tmp/r" }],
    ["blank", { name: "   ", repoUrl: "/tmp/r" }],
    ["too long", { name: "x".repeat(121), repoUrl: "/tmp/r" }],
    ["not text", { name: 42, repoUrl: "/tmp/r" }],
  ])("names `name` when it is %s", async (_label, body) => {
    await expectRefusedCreate(body, "name");
  });

  it.each([
    ["missing", { name: "Repo-less" }],
    ["blank", { name: "Repo-less", repoUrl: "" }],
    ["an option", { name: "Repo-less", repoUrl: "--upload-pack=evil" }],
  ])("names `repoUrl` when it is %s", async (_label, body) => {
    await expectRefusedCreate(body, "repoUrl");
  });

  it.each(["has space", "-x", "a..b", "ends/"])("names baseBranch for %j", async (baseBranch) => {
    await expectRefusedCreate({ name: uniqueName(), repoUrl: "/tmp/r", baseBranch }, "baseBranch");
  });

  it.each([0, 86_401, 1.5])("names budgetSec for %j", async (budgetSec) => {
    await expectRefusedCreate({ name: uniqueName(), repoUrl: "/tmp/r", budgetSec }, "budgetSec");
  });

  it.each([0, 6, 2.5, "3", null])("names maxGateAttempts for %j", async (maxGateAttempts) => {
    await expectRefusedCreate({ name: uniqueName(), repoUrl: "/tmp/r", maxGateAttempts }, "maxGateAttempts");
  });

  it.each(["strict", "Required", ""])("names checksPolicy for %j", async (checksPolicy) => {
    await expectRefusedCreate({ name: uniqueName(), repoUrl: "/tmp/r", checksPolicy }, "checksPolicy");
  });

  it("names checkDefaults.1.id for a duplicate id", async () => {
    const { issue } = await expectRefusedCreate(
      { name: uniqueName(), repoUrl: "/tmp/r", checkDefaults: [check("unit"), check("unit", { kind: "lint" })] },
      "checkDefaults.1.id",
    );
    expect(issue?.message).toMatch(/duplicate|unique/i);
    expect(issue?.message).toContain("unit");
  });

  it("reports a duplicate id together with the other errors of the list", async () => {
    const { res } = await expectRefusedCreate(
      { name: uniqueName(), repoUrl: "/tmp/r", checkDefaults: [check("unit"), check("unit", { timeoutSec: 0 })] },
      "checkDefaults.1.id",
    );
    expectIssueAt(res, "checkDefaults.1.timeoutSec");
  });

  it.each(["Unit", "-lead", "has space", "x".repeat(42), ""])("names checkDefaults.0.id for the id %j", async (id) => {
    await expectRefusedCreate(
      { name: uniqueName(), repoUrl: "/tmp/r", checkDefaults: [check(id)] },
      "checkDefaults.0.id",
    );
  });

  it("names checkDefaults.0.envPassthrough.0 for NAME=value", async () => {
    const { issue } = await expectRefusedCreate(
      { name: uniqueName(), repoUrl: "/tmp/r", checkDefaults: [check("a", { envPassthrough: ["NPM_TOKEN=abc123"] })] },
      "checkDefaults.0.envPassthrough.0",
    );
    expect(issue?.message).toMatch(/name/i);
    // The refused value is not echoed back.
    expect(JSON.stringify(issue)).not.toContain("abc123");
  });

  it.each(["DATABASE_URL", "GATEHOUSE_BOOTSTRAP_TOKEN", "database_url"])(
    "names checkDefaults.0.envPassthrough.0 for the platform-owned %s",
    async (name) => {
      await expectRefusedCreate(
        { name: uniqueName(), repoUrl: "/tmp/r", checkDefaults: [check("a", { envPassthrough: [name] })] },
        "checkDefaults.0.envPassthrough.0",
      );
    },
  );

  it("names agentEnvPassthrough.1 for a platform-owned name in the agent's list", async () => {
    await expectRefusedCreate(
      { name: uniqueName(), repoUrl: "/tmp/r", agentEnvPassthrough: ["API_KEY", "DATABASE_URL"] },
      "agentEnvPassthrough.1",
    );
  });

  it.each([
    ["missing name", (c: Record<string, unknown>) => ({ ...c, name: undefined }), "name"],
    ["missing command", (c: Record<string, unknown>) => ({ ...c, command: undefined }), "command"],
    ["blank command", (c: Record<string, unknown>) => ({ ...c, command: "   " }), "command"],
    ["unknown kind", (c: Record<string, unknown>) => ({ ...c, kind: "e2e" }), "kind"],
    ["required not boolean", (c: Record<string, unknown>) => ({ ...c, required: "yes" }), "required"],
    ["missing required", (c: Record<string, unknown>) => ({ ...c, required: undefined }), "required"],
    ["cwd escaping the checkout", (c: Record<string, unknown>) => ({ ...c, cwd: "../other" }), "cwd"],
    ["absolute cwd", (c: Record<string, unknown>) => ({ ...c, cwd: "/etc" }), "cwd"],
    ["expectExit out of range", (c: Record<string, unknown>) => ({ ...c, expectExit: 256 }), "expectExit"],
  ])("names checkDefaults.1.<field> for a %s", async (_label, mutate, field) => {
    const bad = JSON.parse(JSON.stringify(mutate(check("second"))));
    await expectRefusedCreate(
      { name: uniqueName(), repoUrl: "/tmp/r", checkDefaults: [check("first"), bad] },
      `checkDefaults.1.${field}`,
    );
  });

  it("refuses more than 20 checks, naming checkDefaults", async () => {
    const many = Array.from({ length: 21 }, (_, i) => check(`c${i}`));
    const { issue } = await expectRefusedCreate(
      { name: uniqueName(), repoUrl: "/tmp/r", checkDefaults: many },
      "checkDefaults",
    );
    expect(issue?.message).toMatch(/20/);
  });

  it("accepts exactly 20 checks", async () => {
    const w = await createWork({ checkDefaults: Array.from({ length: 20 }, (_, i) => check(`c${i}`)) });
    expect(w.checkDefaults).toHaveLength(20);
  });

  it("refuses an unknown top-level field, naming it", async () => {
    const { res } = await expectRefusedCreate({ name: uniqueName(), repoUrl: "/tmp/r", colour: "red" }, "colour");
    expect(res.json.error.message).toContain("colour");
  });

  it("refuses an unknown field inside a check, naming the check and the field", async () => {
    const { issue } = await expectRefusedCreate(
      { name: uniqueName(), repoUrl: "/tmp/r", checkDefaults: [check("a", { retries: 2 })] },
      "checkDefaults.0.retries",
    );
    expect(issue?.message).toContain("retries");
  });

  it("refuses `disabled` in a Work's defaults (only a task's entries suppress)", async () => {
    const { issue } = await expectRefusedCreate(
      { name: uniqueName(), repoUrl: "/tmp/r", checkDefaults: [check("a", { disabled: true })] },
      "checkDefaults.0.disabled",
    );
    expect(issue?.message).toMatch(/disabled/);
  });

  it("refuses server-owned fields such as version, id and keyPrefix", async () => {
    for (const extra of [{ version: 7 }, { id: "mine" }, { keyPrefix: "ZZZ" }]) {
      const res = await postWork({ name: uniqueName(), repoUrl: "/tmp/r", ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.json.error.message).toContain(Object.keys(extra)[0]);
    }
  });

  it("answers 400 naming `body` when the body is not JSON, and saves nothing", async () => {
    const before = await listWorkIds();
    const res = await callRoute(works.POST, { method: "POST", body: '{"name": "Broken", "repoUrl": ', headers: {} });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation");
    expect(res.json.error.message).toMatch(/body/);
    expect(res.json.error.issues).toEqual([{ path: "body", message: expect.any(String) }]);
    expect(await listWorkIds()).toEqual(before);
  });

  it("answers 400 when the body is JSON but not an object", async () => {
    const before = await listWorkIds();
    for (const body of ["[]", '"Shop"', "42", "null"]) {
      const res = await callRoute(works.POST, { method: "POST", body });
      expect(res.status, body).toBe(400);
      expect(res.json.error.code).toBe("validation");
    }
    expect(await listWorkIds()).toEqual(before);
  });

  it("answers 400 for an empty body, naming the required fields", async () => {
    const res = await callRoute(works.POST, { method: "POST" });
    expectIssueAt(res, "name");
    expectIssueAt(res, "repoUrl");
  });
});

// ---- PATCH -----------------------------------------------------------------------------------------

describe("PATCH /api/works/:id", () => {
  it("audits an edit in the words of the Work's History, not the API's field names (those stay in the \
before and after)", async () => {
    const w = await createWork({ checkDefaults: [check("unit")] });
    const res = await patchWork(w.id, {
      version: 1,
      checkDefaults: [check("unit", { timeoutSec: 30 })],
      failFast: true,
      vacuousPolicy: "required",
      checkNetwork: "off",
    });
    expect(res.status, res.text).toBe(200);
    const [row] = await auditRows(w.id, "work.update");
    expect(row.summary).toBe("changed checks, fail fast, vacuous checks, check network");
    expect(Object.keys(row.after as object).sort()).toEqual([
      "checkDefaults",
      "checkNetwork",
      "failFast",
      "vacuousPolicy",
    ]);
  });

  it("changes the given fields, bumps the version and leaves the others alone", async () => {
    const w = await createWork({ checkDefaults: [check("unit")], agentCommand: "./agent.sh" });
    const res = await patchWork(w.id, {
      version: 1,
      checksPolicy: "warn",
      maxGateAttempts: 5,
      failFast: true,
      checkDefaults: [check("unit", { timeoutSec: 30 }), check("lint", { kind: "lint", required: false })],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({
      id: w.id,
      version: 2,
      checksPolicy: "warn",
      maxGateAttempts: 5,
      failFast: true,
      checkDefaults: [check("unit", { timeoutSec: 30 }), check("lint", { kind: "lint", required: false })],
      // untouched
      name: w.name,
      repoUrl: w.repoUrl,
      agentCommand: "./agent.sh",
      keyPrefix: w.keyPrefix,
    });
    // No repoUrl in the body: nothing was probed.
    const { warnings, ...saved } = res.json as Record<string, Json>;
    expect(warnings).toEqual([]);
    expect((await getWork(w.id)).json).toEqual(saved);
  });

  it("clears nullable fields with null", async () => {
    const w = await createWork({ agentCommand: "./agent.sh", budgetSec: 600, baseBranch: "develop" });
    const res = await patchWork(w.id, { version: 1, agentCommand: null, budgetSec: null, baseBranch: null });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ agentCommand: null, budgetSec: null, baseBranch: null, version: 2 });
  });

  it("bumps the version on every successful change, so each needs the latest version", async () => {
    const w = await createWork();
    const a = await patchWork(w.id, { version: 1, maxGateAttempts: 2 });
    expect(a.json.version).toBe(2);
    const b = await patchWork(w.id, { version: 2, maxGateAttempts: 4 });
    expect(b.status).toBe(200);
    expect(b.json.version).toBe(3);
    expect(b.json.maxGateAttempts).toBe(4);
  });

  it("refuses a stale version with 409 and a clear message, keeping the first change", async () => {
    const w = await createWork({ maxGateAttempts: 3 });
    const first = await patchWork(w.id, { version: 1, maxGateAttempts: 2, checksPolicy: "warn" });
    expect(first.status).toBe(200);

    const second = await patchWork(w.id, { version: 1, maxGateAttempts: 5, checksPolicy: "off" });
    expect(second.status).toBe(409);
    expect(second.json.error.code).toBe("conflict");
    // says what happened, what is current, and that nothing was saved
    expect(second.json.error.message).toMatch(/changed/i);
    expect(second.json.error.message).toMatch(/version 1/);
    expect(second.json.error.message).toMatch(/version 2/);
    expect(second.json.error.message).toMatch(/nothing was saved|reload/i);

    const read = await getWork(w.id);
    expect(read.json).toMatchObject({ version: 2, maxGateAttempts: 2, checksPolicy: "warn" });
    // The refused change wrote no audit event.
    expect(await auditRows(w.id, "work.update")).toHaveLength(1);
  });

  it("refuses a version from the future with 409 too", async () => {
    const w = await createWork();
    const res = await patchWork(w.id, { version: 9, failFast: true });
    expect(res.status).toBe(409);
    expect((await getWork(w.id)).json).toMatchObject({ version: 1, failFast: false });
  });

  it("lets exactly one of two concurrent edits of the same version win", async () => {
    const w = await createWork();
    const [a, b] = await Promise.all([
      patchWork(w.id, { version: 1, maxGateAttempts: 2 }),
      patchWork(w.id, { version: 1, maxGateAttempts: 4 }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? a : b;
    const read = await getWork(w.id);
    expect(read.json.version).toBe(2);
    expect(read.json.maxGateAttempts).toBe(winner.json.maxGateAttempts);
  });

  it("answers 404 for a missing Work", async () => {
    const res = await patchWork("no-such-work", { version: 1, maxGateAttempts: 2 });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
    expect(res.json.error.message).toMatch(/work/i);
  });

  it("requires the version, naming it", async () => {
    const w = await createWork();
    const res = await patchWork(w.id, { maxGateAttempts: 2 });
    expectIssueAt(res, "version");
    expect((await getWork(w.id)).json).toMatchObject({ version: 1, maxGateAttempts: 3 });
  });

  it.each([
    [{ maxGateAttempts: 9 }, "maxGateAttempts"],
    [{ checksPolicy: "sometimes" }, "checksPolicy"],
    [{ name: "" }, "name"],
    [{ checkDefaults: [check("a"), check("b"), check("c", { timeoutSec: -1 })] }, "checkDefaults.2.timeoutSec"],
    [{ checkDefaults: [check("a"), check("a")] }, "checkDefaults.1.id"],
    [{ checkDefaults: [check("a", { envPassthrough: ["DATABASE_URL"] })] }, "checkDefaults.0.envPassthrough.0"],
    [{ checkDefaults: null }, "checkDefaults"],
    [{ failFast: "yes" }, "failFast"],
    [{ budgetSec: 0 }, "budgetSec"],
    [{ agentCommand: "  " }, "agentCommand"],
    [{ testPatterns: ["**/*.test.ts", "src/[abc"] }, "testPatterns.1"],
    [{ protectedPaths: ["../x"] }, "protectedPaths.0"],
    [{ protectedPaths: ["scripts/**", "/etc/passwd"] }, "protectedPaths.1"],
    [{ requireTests: "always" }, "requireTests"],
    [{ vacuousPolicy: null }, "vacuousPolicy"],
    [{ checkDefaults: [check("a", { provesChange: "yes" })] }, "checkDefaults.0.provesChange"],
  ])("refuses %j with 400 naming %s and saves nothing (not even the valid fields)", async (bad, path) => {
    const w = await createWork({ checkDefaults: [check("unit")] });
    const res = await patchWork(w.id, { version: 1, failFast: true, ...bad });
    expectIssueAt(res, path);
    const read = await getWork(w.id);
    expect(read.json).toEqual(w);
    expect(await auditRows(w.id, "work.update")).toHaveLength(0);
  });

  it("saves the proof settings and a check's provesChange, and answers them back", async () => {
    const w = await createWork();
    const changes = {
      testPatterns: ["spec/**/*_spec.rb"],
      requireTests: "required",
      protectedPaths: ["scripts/gate.sh", "Makefile"],
      vacuousPolicy: "off",
      checkDefaults: [check("unit", { provesChange: true })],
    };
    const res = await patchWork(w.id, { version: 1, ...changes });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect((await getWork(w.id)).json).toMatchObject({ ...changes, version: 2 });
  });

  it("refuses an unknown field and a keyPrefix change, saving nothing", async () => {
    const w = await createWork();
    for (const extra of [{ colour: "red" }, { keyPrefix: "NEW" }]) {
      const res = await patchWork(w.id, { version: 1, failFast: true, ...extra });
      expect(res.status).toBe(400);
      expect(res.json.error.message).toContain(Object.keys(extra)[0]);
    }
    expect((await getWork(w.id)).json).toEqual(w);
  });

  it("answers 400 naming `body` for a body that is not JSON, saving nothing", async () => {
    const w = await createWork();
    const res = await callRoute(work.PATCH, { method: "PATCH", params: { id: w.id }, body: "version=1&failFast=true" });
    expect(res.status).toBe(400);
    expect(res.json.error.issues).toEqual([{ path: "body", message: expect.any(String) }]);
    expect((await getWork(w.id)).json).toEqual(w);
  });

  it("records one audit event per change with before and after of the changed fields", async () => {
    const w = await createWork({ checkDefaults: [check("unit")], maxGateAttempts: 3, checksPolicy: "required" });
    const first = await patchWork(w.id, {
      version: 1,
      checkDefaults: [check("unit"), check("lint", { kind: "lint" })],
    });
    expect(first.status).toBe(200);
    const second = await patchWork(w.id, { version: 2, checksPolicy: "warn", maxGateAttempts: 4 });
    expect(second.status).toBe(200);

    const rows = await auditRows(w.id, "work.update");
    expect(rows).toHaveLength(2);
    expect(rows[0].before).toEqual({ checkDefaults: [check("unit")] });
    expect(rows[0].after).toEqual({ checkDefaults: [check("unit"), check("lint", { kind: "lint" })] });
    expect(rows[1].before).toEqual({ checksPolicy: "required", maxGateAttempts: 3 });
    expect(rows[1].after).toEqual({ checksPolicy: "warn", maxGateAttempts: 4 });
    for (const row of rows) {
      expect(row.workId).toBe(w.id);
      expect(row.actorLabel).toBeTruthy(); // who
      expect(row.at).toBeInstanceOf(Date); // when
      expect(row.summary).toBeTruthy();
    }
    expect(rows[1].summary).toBe("changed gate policy, attempts");
  });

  it("audits only the fields that really changed", async () => {
    const w = await createWork({ maxGateAttempts: 3, failFast: false });
    const res = await patchWork(w.id, { version: 1, maxGateAttempts: 3, failFast: true });
    expect(res.status).toBe(200);
    const rows = await auditRows(w.id, "work.update");
    expect(rows).toHaveLength(1);
    expect(rows[0].before).toEqual({ failFast: false });
    expect(rows[0].after).toEqual({ failFast: true });
  });
});

describe("a Work whose base branch is checked out in its repository (issue 24, point 8)", () => {
  const CHECKED_OUT = /has "main" checked out, and git refuses to push to a checked-out branch: Merge will fail/;

  it("warns when it is created and whenever it is saved, until the repository is a bare clone", async () => {
    const repo = makeGitRepo();
    const bare = makeBareRepo();
    try {
      const created = await postWork({ name: uniqueName(), repoUrl: repo.dir, baseBranch: "main" });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      expect(created.json.warnings).toEqual([{ path: "baseBranch", message: expect.stringMatching(CHECKED_OUT) }]);
      // A save of any setting says it again: the Work is saved, but its merges cannot land.
      const saved = await patchWork(created.json.id, { version: 1, failFast: true });
      expect(saved.status, JSON.stringify(saved.json)).toBe(200);
      expect(saved.json.failFast).toBe(true);
      expect(saved.json.warnings).toEqual([{ path: "baseBranch", message: expect.stringMatching(CHECKED_OUT) }]);
      // Another base branch than the one checked out, or a bare repository: merges can push, no such warning
      // (a base branch the repository does not have is another warning: the next test).
      const other = await patchWork(created.json.id, { version: 2, baseBranch: "develop" });
      expect(other.json.warnings.map((w: Json) => w.message)).not.toContainEqual(expect.stringMatching(CHECKED_OUT));
      const moved = await patchWork(created.json.id, { version: 3, repoUrl: bare.dir, baseBranch: "main" });
      expect(moved.status, JSON.stringify(moved.json)).toBe(200);
      expect(moved.json.warnings).toEqual([]);
    } finally {
      repo.cleanup();
      bare.cleanup();
    }
  });

  it("warns when the repository has no branch of the base branch's name, naming the ones it has", async () => {
    const bare = makeBareRepo();
    try {
      const created = await postWork({ name: uniqueName(), repoUrl: bare.dir, baseBranch: "develop" });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      expect(created.json.warnings).toEqual([
        {
          path: "baseBranch",
          message: 'the repository has no branch "develop" (it has main): runs end inconclusive until it is pushed',
        },
      ]);
      // Said again when the base branch changes to another missing one; gone once it names one there.
      const renamed = await patchWork(created.json.id, { version: 1, baseBranch: "trunk" });
      expect(renamed.json.warnings).toEqual([{ path: "baseBranch", message: expect.stringContaining('"trunk"') }]);
      expect((await patchWork(created.json.id, { version: 2, baseBranch: "main" })).json.warnings).toEqual([]);
    } finally {
      bare.cleanup();
    }
  });
});
