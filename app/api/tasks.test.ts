// Integration tests of the JSON API for Tasks: create and list under a Work, read with effective checks
// (provenance, suppressions, stale-suppression warnings), change with a version. Real SQLite, in-process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/lib/testing/test-db";
import { callRoute, sendTokenByDefault } from "@/lib/testing/call-route";
import type { Json } from "@/lib/testing/json";
import { makePerson } from "@/lib/testing/access-fixture";
import * as works from "./works/route";
import * as work from "./works/[id]/route";
import * as workTasks from "./works/[id]/tasks/route";
import * as task from "./tasks/[id]/route";

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

const BUILD = check("build", { kind: "build", timeoutSec: 300 });
const UNIT = check("unit", { kind: "test" });
const LINT = check("lint", { kind: "lint", required: false });
const DEFAULTS = [BUILD, UNIT, LINT];

let madeWorks = 0;
async function createWork(body: Record<string, unknown> = {}): Promise<Json> {
  const res = await callRoute(works.POST, {
    method: "POST",
    body: { name: `Billing ${++madeWorks}`, repoUrl: "/tmp/repo", checkDefaults: DEFAULTS, ...body },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json;
}

const postTask = (workId: string, body: unknown) =>
  callRoute(workTasks.POST, { method: "POST", params: { id: workId }, body });
const listTasks = (workId: string) => callRoute(workTasks.GET, { params: { id: workId } });
const getTask = (id: string) => callRoute(task.GET, { params: { id } });
const patchTask = (id: string, body: unknown) => callRoute(task.PATCH, { method: "PATCH", params: { id }, body });
const patchWork = (id: string, body: unknown) => callRoute(work.PATCH, { method: "PATCH", params: { id }, body });

async function createTask(workId: string, body: Record<string, unknown> = {}): Promise<Json> {
  const res = await postTask(workId, { title: "Fix the flaky test", ...body });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json;
}

async function taskIdsOf(workId: string): Promise<string[]> {
  const res = await listTasks(workId);
  expect(res.status).toBe(200);
  return res.json.tasks.map((x: Json) => x.id).sort();
}

function expectIssueAt(res: { status: number; json: Json }, path: string) {
  expect(res.status, JSON.stringify(res.json)).toBe(400);
  expect(res.json.error.code).toBe("validation");
  expect(res.json.error.message.length).toBeGreaterThan(0);
  const issue = res.json.error.issues.find((i) => i.path === path);
  expect(issue, `no issue at "${path}" in ${JSON.stringify(res.json.error.issues)}`).toBeDefined();
  expect(issue!.message.length).toBeGreaterThan(0);
  return issue!;
}

const sourcesOf = (t: Json) => t.effectiveChecks.map((c: Json) => [c.id, c.source]);
const withSource = (c: Record<string, unknown>, source: string) => ({ ...c, source });

// ---- create, list, read --------------------------------------------------------------------------

describe("POST /api/works/:id/tasks", () => {
  it("creates tasks with keys <PREFIX>-1, <PREFIX>-2 in order, and branches derived from the keys", async () => {
    const w = await createWork({ name: "Ledger" });
    expect(w.keyPrefix).toBe("LEDG");

    const first = await postTask(w.id, { title: "First" });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({
      workId: w.id,
      key: "LEDG-1",
      title: "First",
      description: "",
      branch: "gatehouse/ledg-1",
      acceptanceChecks: null,
      maxGateAttempts: null,
      agentCommand: null,
      budgetSec: null,
      version: 1,
      suppressed: [],
      warnings: [],
      effectiveMaxGateAttempts: 3,
    });
    expect(typeof first.json.id).toBe("string");
    expect(new Date(first.json.createdAt).toISOString()).toBe(first.json.createdAt);

    const second = await createTask(w.id, { title: "Second", description: "more" });
    expect(second.key).toBe("LEDG-2");
    expect(second.branch).toBe("gatehouse/ledg-2");
    expect(second.description).toBe("more");
    expect(second.id).not.toBe(first.json.id);
  });

  it("numbers keys per Work; a Work named like another gets its own prefix, so keys never repeat", async () => {
    const a = await createWork({ name: "Quokka orders" });
    const b = await createWork({ name: "Quokka refunds" });
    expect([a.keyPrefix, b.keyPrefix]).toEqual(["QUOK", "QUOK2"]);
    expect((await createTask(a.id)).key).toBe("QUOK-1");
    expect((await createTask(b.id)).key).toBe("QUOK2-1");
    expect((await createTask(a.id)).key).toBe("QUOK-2");
    // Created at once (on PostgreSQL too: they take turns): still one prefix each.
    const names = Array.from({ length: 8 }, (_, i) => `Wombat ${String.fromCharCode(97 + i)}`);
    const made = await Promise.all(names.map((name) => createWork({ name })));
    expect(made.map((w) => w.keyPrefix).sort()).toEqual(
      ["WOMB", "WOMB2", "WOMB3", "WOMB4", "WOMB5", "WOMB6", "WOMB7", "WOMB8"].sort(),
    );
  });

  it("gives concurrent creates distinct consecutive keys", async () => {
    const w = await createWork({ name: "Rush" });
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => postTask(w.id, { title: `t${i}` })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(results.map((r) => r.json.key).sort()).toEqual(["RUSH-1", "RUSH-2", "RUSH-3", "RUSH-4", "RUSH-5"]);
  });

  it("lists the Work's tasks and reads each by id", async () => {
    const w = await createWork();
    const a = await createTask(w.id, { title: "A" });
    const b = await createTask(w.id, { title: "B" });
    const other = await createTask((await createWork()).id, { title: "elsewhere" });

    const list = await listTasks(w.id);
    expect(list.status).toBe(200);
    expect(list.json.tasks.map((x: Json) => x.id).sort()).toEqual([a.id, b.id].sort());
    expect(list.json.tasks.find((x: Json) => x.id === a.id)).toEqual(a);
    expect(list.json.tasks.map((x: Json) => x.id)).not.toContain(other.id);

    const read = await getTask(b.id);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(b);
  });

  it("uses a custom branch when given", async () => {
    const w = await createWork();
    const x = await createTask(w.id, { branch: "feature/invoice-pdf" });
    expect(x.branch).toBe("feature/invoice-pdf");
    expect((await getTask(x.id)).json.branch).toBe("feature/invoice-pdf");
  });

  it("refuses a branch already used by another task of the Work with 400 naming branch, saving nothing", async () => {
    const w = await createWork({ name: "Branchy" });
    const first = await createTask(w.id, { branch: "feature/shared" });
    const second = await createTask(w.id);
    expect(second.branch).toBe("gatehouse/bran-2");
    const before = await taskIdsOf(w.id);

    for (const branch of ["feature/shared", "gatehouse/bran-2"]) {
      const res = await postTask(w.id, { title: "Clash", branch });
      const issue = expectIssueAt(res, "branch");
      expect(issue?.message).toContain(branch);
    }
    expect(await taskIdsOf(w.id)).toEqual(before);
    // A refused create uses up no key.
    expect((await createTask(w.id)).key).toBe("BRAN-3");
    expect(first.key).toBe("BRAN-1");
  });

  it("refuses the Work's base branch as a task's, on create and on edit, naming branch and saving \
nothing", async () => {
    const w = await createWork({ name: "Base", baseBranch: "trunk" });
    const before = await taskIdsOf(w.id);
    const created = await postTask(w.id, { title: "On trunk", branch: "trunk" });
    expect(expectIssueAt(created, "branch")?.message).toBe(
      '"trunk" is the Work\'s base branch; a task works on a branch of its own',
    );
    expect(await taskIdsOf(w.id)).toEqual(before);
    const x = await createTask(w.id);
    expectIssueAt(await patchTask(x.id, { version: x.version, branch: "trunk" }), "branch");
    expect((await getTask(x.id)).json).toMatchObject({ branch: x.branch, version: x.version });
    // Nor in its place as a folder, nor a name git gives something else.
    for (const [branch, message] of [
      ["trunk/fix", 'cannot be beside the Work\'s base branch "trunk": git cannot hold both "trunk" and "trunk/fix"'],
      ["HEAD", "must not be HEAD (git's name for the current commit)"],
      ["refs/heads/fix", "a branch's short name, without refs/"],
    ]) {
      const refused = await postTask(w.id, { title: "Odd branch", branch });
      expect(expectIssueAt(refused, "branch")?.message, branch).toContain(message);
    }
    expect(await taskIdsOf(w.id)).toEqual([...before, x.id]);
    const nested = await createWork({ name: "Nested base", baseBranch: "release/1" });
    expect(
      expectIssueAt(await postTask(nested.id, { title: "Above", branch: "release" }), "branch")?.message,
    ).toContain('git cannot hold both "release" and "release/1"');
    // Beside it under another name is fine.
    expect((await postTask(w.id, { title: "Near", branch: "trunk-fix" })).status).toBe(201);
  });

  it("audits an edit in words a task's History reads: the checks and attempts, not the API's field names", async () => {
    const w = await createWork({ name: "Worded" });
    const x = await createTask(w.id);
    const res = await patchTask(x.id, { version: x.version, maxGateAttempts: 5, acceptanceChecks: [check("extra")] });
    expect(res.status, res.text).toBe(200);
    const event = await t.db.auditEvent.findFirst({ where: { taskId: x.id, action: "task.update" } });
    expect(event?.summary).toBe(`changed checks, attempts of ${x.key}`);
  });

  it("allows the same branch in two different Works", async () => {
    const a = await createWork();
    const b = await createWork();
    await createTask(a.id, { branch: "feature/same" });
    const res = await postTask(b.id, { title: "Same branch, other Work", branch: "feature/same" });
    expect(res.status).toBe(201);
  });

  // The default branch is derived from the key; when a task took that name by hand, the next free
  // variant is used, so a create without a branch never fails on a field the caller did not send.
  it("a hand-picked branch never blocks later creates that rely on the default branch", async () => {
    const w = await createWork({ name: "Clash" });
    const taken = await postTask(w.id, { title: "First", branch: "gatehouse/clas-2" });
    if (taken.status === 400) {
      // The default-branch namespace is reserved: acceptable, as long as it names the field.
      expectIssueAt(taken, "branch");
      await createTask(w.id, { title: "First" });
    } else {
      expect(taken.status).toBe(201);
    }
    for (const title of ["Second", "Third"]) {
      const res = await postTask(w.id, { title });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
    }
    const branches = (await listTasks(w.id)).json.tasks.map((x: Json) => x.branch);
    expect(new Set(branches).size).toBe(3);
  });

  it.each([
    [{ description: "no title" }, "title"],
    [{ title: "   " }, "title"],
    [{ title: "x".repeat(201) }, "title"],
    [{ title: "ok", branch: "has space" }, "branch"],
    [{ title: "ok", branch: "-evil" }, "branch"],
    [{ title: "ok", branch: "a..b" }, "branch"],
    [{ title: "ok", maxGateAttempts: 0 }, "maxGateAttempts"],
    [{ title: "ok", maxGateAttempts: 6 }, "maxGateAttempts"],
    [{ title: "ok", budgetSec: -5 }, "budgetSec"],
    [{ title: "ok", description: null }, "description"],
    [{ title: "ok", acceptanceChecks: "unit" }, "acceptanceChecks"],
    [{ title: "ok", acceptanceChecks: [{ ...UNIT, timeoutSec: 0 }] }, "acceptanceChecks.0.timeoutSec"],
    [{ title: "ok", acceptanceChecks: [UNIT, { ...UNIT, name: "again" }] }, "acceptanceChecks.1.id"],
    [
      { title: "ok", acceptanceChecks: [check("e2e", { envPassthrough: ["DATABASE_URL"] })] },
      "acceptanceChecks.0.envPassthrough.0",
    ],
    [
      { title: "ok", acceptanceChecks: [check("e2e", { envPassthrough: ["TOKEN=s3cr3t"] })] },
      "acceptanceChecks.0.envPassthrough.0",
    ],
    [{ title: "ok", acceptanceChecks: [{ id: "e2e", name: "e2e" }] }, "acceptanceChecks.0.command"],
    [{ title: "ok", acceptanceChecks: [{ id: "Bad Id", disabled: true }] }, "acceptanceChecks.0.id"],
  ])("refuses %j with 400 naming %s, saving nothing", async (body, path) => {
    const w = await createWork();
    const existing = await createTask(w.id);
    const res = await postTask(w.id, body);
    expectIssueAt(res, path);
    expect(await taskIdsOf(w.id)).toEqual([existing.id]);
  });

  it("refuses unknown fields and server-owned ones (key, version)", async () => {
    const w = await createWork();
    for (const extra of [{ colour: "red" }, { key: "BILL-99" }, { version: 3 }, { workId: "x" }]) {
      const res = await postTask(w.id, { title: "ok", ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.json.error.message).toContain(Object.keys(extra)[0]);
    }
    expect(await taskIdsOf(w.id)).toEqual([]);
  });

  it("answers 400 naming body when the body is not JSON", async () => {
    const w = await createWork();
    const res = await callRoute(workTasks.POST, { method: "POST", params: { id: w.id }, body: "{title:" });
    expect(res.status).toBe(400);
    expect(res.json.error.issues).toEqual([{ path: "body", message: expect.any(String) }]);
    expect(await taskIdsOf(w.id)).toEqual([]);
  });

  it("writes a task.create audit event", async () => {
    const w = await createWork();
    const x = await createTask(w.id, { acceptanceChecks: [{ id: "lint", disabled: true }] });
    const rows = await t.db.auditEvent.findMany({ where: { taskId: x.id, action: "task.create" } });
    expect(rows).toHaveLength(1);
    expect(rows[0].workId).toBe(w.id);
    expect(JSON.parse(rows[0].after!)).toMatchObject({ acceptanceChecks: [{ id: "lint", disabled: true }] });
  });
});

describe("GET /api/tasks/:id", () => {
  it("answers 404 with a message for an unknown id", async () => {
    const res = await getTask("no-such-task");
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
    expect(res.json.error.message).toMatch(/task/i);
  });
});

// ---- effective checks ------------------------------------------------------------------------------

describe("effective checks", () => {
  it("acceptanceChecks null → the Work's defaults untouched, all inherited", async () => {
    const w = await createWork();
    const x = await createTask(w.id, { acceptanceChecks: null });
    expect(x.acceptanceChecks).toBeNull();
    expect(x.effectiveChecks).toEqual(DEFAULTS.map((c) => withSource(c, "inherited")));
    expect(x.suppressed).toEqual([]);
    expect(x.warnings).toEqual([]);
    expect((await getTask(x.id)).json.effectiveChecks).toEqual(x.effectiveChecks);
  });

  it("a Work with no defaults gives a task no effective checks", async () => {
    const w = await createWork({ checkDefaults: [] });
    const x = await createTask(w.id);
    expect(x.effectiveChecks).toEqual([]);
  });

  it("an entry with a default's id replaces the whole default, in the default's position, as overridden", async () => {
    const w = await createWork();
    // No timeoutSec: the override replaces the whole entry, so build's 300 s is not kept.
    const override = check("build", { kind: "build", command: "make all", name: "It builds with make" });
    const x = await createTask(w.id, { acceptanceChecks: [override] });
    expect(x.effectiveChecks).toEqual([
      withSource(override, "overridden"),
      withSource(UNIT, "inherited"),
      withSource(LINT, "inherited"),
    ]);
    expect(x.effectiveChecks[0]).not.toHaveProperty("timeoutSec");
    expect(x.suppressed).toEqual([]);
  });

  it("{id, disabled: true} suppresses a default: listed in suppressed, absent from effectiveChecks", async () => {
    const w = await createWork();
    const x = await createTask(w.id, { acceptanceChecks: [{ id: "unit", disabled: true }] });
    expect(x.suppressed).toEqual(["unit"]);
    expect(x.effectiveChecks.map((c: Json) => c.id)).toEqual(["build", "lint"]);
    expect(sourcesOf(x)).toEqual([
      ["build", "inherited"],
      ["lint", "inherited"],
    ]);
    expect(x.warnings).toEqual([]);
    // The entry itself is kept as written.
    expect(x.acceptanceChecks).toEqual([{ id: "unit", disabled: true }]);
  });

  it("a disabled entry may keep its other fields (so un-suppressing loses nothing)", async () => {
    const w = await createWork();
    const x = await createTask(w.id, { acceptanceChecks: [{ ...UNIT, command: "jest --ci", disabled: true }] });
    expect(x.suppressed).toEqual(["unit"]);
    expect(x.acceptanceChecks).toEqual([{ ...UNIT, command: "jest --ci", disabled: true }]);
  });

  it("new ids are added after the defaults, in the task's order, as added", async () => {
    const w = await createWork();
    const e2e = check("e2e", { kind: "test", timeoutSec: 1200 });
    const audit = check("audit", { kind: "custom", required: false });
    const x = await createTask(w.id, { acceptanceChecks: [e2e, audit] });
    expect(x.effectiveChecks).toEqual([
      ...DEFAULTS.map((c) => withSource(c, "inherited")),
      withSource(e2e, "added"),
      withSource(audit, "added"),
    ]);
  });

  it("overrides, suppressions and additions combine, whatever the task's order", async () => {
    const w = await createWork();
    const e2e = check("e2e");
    const lint = check("lint", { kind: "lint", required: true, command: "eslint --max-warnings 0" });
    const x = await createTask(w.id, { acceptanceChecks: [e2e, { id: "build", disabled: true }, lint] });
    expect(x.effectiveChecks).toEqual([
      withSource(UNIT, "inherited"),
      withSource(lint, "overridden"),
      withSource(e2e, "added"),
    ]);
    expect(x.suppressed).toEqual(["build"]);
  });

  it("an explicit `disabled: false` entry is an ordinary override (the flag is not part of the \
effective check)", async () => {
    const w = await createWork();
    const x = await createTask(w.id, { acceptanceChecks: [{ ...UNIT, command: "vitest run", disabled: false }] });
    expect(x.effectiveChecks[1]).toEqual(withSource({ ...UNIT, command: "vitest run" }, "overridden"));
    expect(x.suppressed).toEqual([]);
  });

  it("refuses a disabled entry whose id matches no default, naming acceptanceChecks.<i>.id, saving \
nothing", async () => {
    const w = await createWork();
    const res = await postTask(w.id, {
      title: "Suppress a ghost",
      acceptanceChecks: [check("e2e"), { id: "ghost", disabled: true }],
    });
    const issue = expectIssueAt(res, "acceptanceChecks.1.id");
    expect(issue?.message).toContain("ghost");
    expect(await taskIdsOf(w.id)).toEqual([]);
  });

  it("the empty list [] is kept as a list (not inherit) yet merges to the defaults; null goes back \
to inherit", async () => {
    const w = await createWork();
    const empty = await createTask(w.id, { acceptanceChecks: [] });
    expect(empty.acceptanceChecks).toEqual([]);
    expect(empty.effectiveChecks).toEqual(DEFAULTS.map((c) => withSource(c, "inherited")));
    expect(empty.suppressed).toEqual([]);

    const inherit = await createTask(w.id, {});
    expect(inherit.acceptanceChecks).toBeNull();
    expect(inherit.effectiveChecks).toEqual(empty.effectiveChecks);

    // Back to inherit, then to an empty list again: each is stored as sent.
    const toNull = await patchTask(empty.id, { version: 1, acceptanceChecks: null });
    expect(toNull.status).toBe(200);
    expect(toNull.json.acceptanceChecks).toBeNull();
    const toEmpty = await patchTask(empty.id, { version: 2, acceptanceChecks: [] });
    expect(toEmpty.status).toBe(200);
    expect(toEmpty.json.acceptanceChecks).toEqual([]);
    expect((await getTask(empty.id)).json.acceptanceChecks).toEqual([]);
  });

  it("inherited checks follow later edits of the Work's defaults; overrides keep the task's entry", async () => {
    const w = await createWork();
    const override = check("unit", { command: "vitest run --coverage" });
    const x = await createTask(w.id, { acceptanceChecks: [override] });
    const newBuild = check("build", { kind: "build", command: "make release" });
    const edit = await patchWork(w.id, {
      version: 1,
      checkDefaults: [newBuild, check("unit", { command: "changed default" }), LINT],
    });
    expect(edit.status).toBe(200);

    const read = await getTask(x.id);
    expect(read.json.effectiveChecks).toEqual([
      withSource(newBuild, "inherited"),
      withSource(override, "overridden"),
      withSource(LINT, "inherited"),
    ]);
  });

  it("re-saving a list that still holds a stale suppression is refused, naming the entry; dropping \
it saves", async () => {
    const w = await createWork();
    const x = await createTask(w.id, { acceptanceChecks: [check("e2e"), { id: "lint", disabled: true }] });
    expect((await patchWork(w.id, { version: 1, checkDefaults: [BUILD, UNIT] })).status).toBe(200);

    const resave = await patchTask(x.id, {
      version: 1,
      acceptanceChecks: [check("e2e", { timeoutSec: 60 }), { id: "lint", disabled: true }],
    });
    const issue = expectIssueAt(resave, "acceptanceChecks.1.id");
    expect(issue?.message).toContain("lint");
    expect((await getTask(x.id)).json.version).toBe(1);

    const cleaned = await patchTask(x.id, { version: 1, acceptanceChecks: [check("e2e", { timeoutSec: 60 })] });
    expect(cleaned.status).toBe(200);
    expect(cleaned.json.warnings).toEqual([]);
  });

  it("a suppression left stale by a later edit of the defaults is reported in warnings instead of \
failing", async () => {
    const w = await createWork();
    const x = await createTask(w.id, { acceptanceChecks: [{ id: "lint", disabled: true }, check("e2e")] });
    expect(x.suppressed).toEqual(["lint"]);

    // The lead removes lint from the defaults: the Work edit is not refused because of the task.
    const edit = await patchWork(w.id, { version: 1, checkDefaults: [BUILD, UNIT] });
    expect(edit.status, JSON.stringify(edit.json)).toBe(200);

    const read = await getTask(x.id);
    expect(read.status).toBe(200);
    expect(read.json.suppressed).toEqual([]);
    expect(read.json.effectiveChecks.map((c: Json) => [c.id, c.source])).toEqual([
      ["build", "inherited"],
      ["unit", "inherited"],
      ["e2e", "added"],
    ]);
    expect(read.json.warnings).toHaveLength(1);
    expect(read.json.warnings[0]).toContain("lint");
    // The entry is kept, not silently dropped.
    expect(read.json.acceptanceChecks).toEqual([{ id: "lint", disabled: true }, check("e2e")]);

    // The list of the Work's tasks shows the same warning.
    const listed = (await listTasks(w.id)).json.tasks.find((y: Json) => y.id === x.id);
    expect(listed?.warnings).toEqual(read.json.warnings);

    // Editing other fields of the task still works.
    const retitle = await patchTask(x.id, { version: 1, title: "Renamed" });
    expect(retitle.status, JSON.stringify(retitle.json)).toBe(200);
    expect(retitle.json.warnings).toEqual(read.json.warnings);

    // Putting lint back in the defaults makes the suppression live again and the warning goes away.
    const restore = await patchWork(w.id, { version: 2, checkDefaults: DEFAULTS });
    expect(restore.status).toBe(200);
    const again = await getTask(x.id);
    expect(again.json.suppressed).toEqual(["lint"]);
    expect(again.json.warnings).toEqual([]);
  });
});

// ---- attempts ------------------------------------------------------------------------------------

describe("maxGateAttempts", () => {
  it("null inherits the Work's budget, following later changes of the Work", async () => {
    const w = await createWork({ maxGateAttempts: 4 });
    const x = await createTask(w.id, { maxGateAttempts: null });
    expect(x.maxGateAttempts).toBeNull();
    expect(x.effectiveMaxGateAttempts).toBe(4);

    expect((await patchWork(w.id, { version: 1, maxGateAttempts: 2 })).status).toBe(200);
    expect((await getTask(x.id)).json.effectiveMaxGateAttempts).toBe(2);
  });

  it("a task's value wins over the Work's", async () => {
    const w = await createWork({ maxGateAttempts: 4 });
    const x = await createTask(w.id, { maxGateAttempts: 1 });
    expect(x.maxGateAttempts).toBe(1);
    expect(x.effectiveMaxGateAttempts).toBe(1);
    expect((await patchWork(w.id, { version: 1, maxGateAttempts: 5 })).status).toBe(200);
    expect((await getTask(x.id)).json.effectiveMaxGateAttempts).toBe(1);

    // Back to inherit.
    const back = await patchTask(x.id, { version: 1, maxGateAttempts: null });
    expect(back.status).toBe(200);
    expect(back.json).toMatchObject({ maxGateAttempts: null, effectiveMaxGateAttempts: 5 });
  });
});

// ---- PATCH -----------------------------------------------------------------------------------------

describe("PATCH /api/tasks/:id", () => {
  it("changes the given fields, bumps the version and recomputes the effective checks", async () => {
    const w = await createWork();
    const x = await createTask(w.id, { title: "Old", description: "d" });
    const res = await patchTask(x.id, {
      version: 1,
      title: "New",
      acceptanceChecks: [{ id: "build", disabled: true }],
      maxGateAttempts: 2,
      agentCommand: "./fix.sh",
      budgetSec: 120,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({
      id: x.id,
      key: x.key,
      version: 2,
      title: "New",
      description: "d",
      branch: x.branch,
      acceptanceChecks: [{ id: "build", disabled: true }],
      maxGateAttempts: 2,
      effectiveMaxGateAttempts: 2,
      agentCommand: "./fix.sh",
      budgetSec: 120,
      suppressed: ["build"],
    });
    expect(sourcesOf(res.json)).toEqual([
      ["unit", "inherited"],
      ["lint", "inherited"],
    ]);
    expect((await getTask(x.id)).json).toEqual(res.json);
  });

  it("refuses a stale version with 409 and a clear message, keeping the first change", async () => {
    const w = await createWork();
    const x = await createTask(w.id);
    const first = await patchTask(x.id, { version: 1, acceptanceChecks: [{ id: "lint", disabled: true }] });
    expect(first.status).toBe(200);

    const stale = await patchTask(x.id, { version: 1, acceptanceChecks: [check("e2e")], title: "Overwritten?" });
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe("conflict");
    expect(stale.json.error.message).toMatch(/changed/i);
    expect(stale.json.error.message).toMatch(/version 2/);

    const read = (await getTask(x.id)).json;
    expect(read).toMatchObject({
      version: 2,
      title: x.title,
      acceptanceChecks: [{ id: "lint", disabled: true }],
      suppressed: ["lint"],
    });
    const audits = await t.db.auditEvent.count({ where: { taskId: x.id, action: "task.update" } });
    expect(audits).toBe(1);
  });

  it("answers 404 for a missing task", async () => {
    const res = await patchTask("no-such-task", { version: 1, title: "x" });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
    expect(res.json.error.message).toMatch(/task/i);
  });

  it("requires the version, naming it", async () => {
    const w = await createWork();
    const x = await createTask(w.id);
    expectIssueAt(await patchTask(x.id, { title: "no version" }), "version");
    expect((await getTask(x.id)).json).toEqual(x);
  });

  it.each([
    [{ acceptanceChecks: [UNIT, { id: "ghost", disabled: true }] }, "acceptanceChecks.1.id"],
    [{ acceptanceChecks: [check("e2e", { timeoutSec: 7200 })] }, "acceptanceChecks.0.timeoutSec"],
    [{ acceptanceChecks: [check("e2e", { cwd: "../../etc" })] }, "acceptanceChecks.0.cwd"],
    [{ maxGateAttempts: 10 }, "maxGateAttempts"],
    [{ title: "" }, "title"],
    [{ branch: "bad branch" }, "branch"],
  ])("refuses %j with 400 naming %s and saves nothing, not even the valid fields", async (bad, path) => {
    const w = await createWork();
    const x = await createTask(w.id);
    const res = await patchTask(x.id, { version: 1, description: "should not stick", ...bad });
    expectIssueAt(res, path);
    expect((await getTask(x.id)).json).toEqual(x);
    expect(await t.db.auditEvent.count({ where: { taskId: x.id, action: "task.update" } })).toBe(0);
  });

  it("refuses moving to a branch another task of the Work uses, naming branch", async () => {
    const w = await createWork();
    const a = await createTask(w.id);
    const b = await createTask(w.id);
    const res = await patchTask(b.id, { version: 1, branch: a.branch });
    const issue = expectIssueAt(res, "branch");
    expect(issue?.message).toContain(a.branch);
    expect((await getTask(b.id)).json).toEqual(b);

    // Re-sending its own branch is not a clash.
    const same = await patchTask(b.id, { version: 1, branch: b.branch, title: "Same branch" });
    expect(same.status).toBe(200);
  });

  it("answers 400 naming body for a body that is not JSON", async () => {
    const w = await createWork();
    const x = await createTask(w.id);
    const res = await callRoute(task.PATCH, { method: "PATCH", params: { id: x.id }, body: "not json" });
    expect(res.status).toBe(400);
    expect(res.json.error.issues).toEqual([{ path: "body", message: expect.any(String) }]);
    expect((await getTask(x.id)).json).toEqual(x);
  });

  it("refuses unknown fields and a key change", async () => {
    const w = await createWork();
    const x = await createTask(w.id);
    for (const extra of [{ effectiveChecks: [] }, { key: "BILL-99" }]) {
      const res = await patchTask(x.id, { version: 1, ...extra });
      expect(res.status).toBe(400);
      expect(res.json.error.message).toContain(Object.keys(extra)[0]);
    }
    expect((await getTask(x.id)).json).toEqual(x);
  });

  it("records an audit event per change with before and after", async () => {
    const w = await createWork();
    const x = await createTask(w.id);
    expect((await patchTask(x.id, { version: 1, acceptanceChecks: [{ id: "unit", disabled: true }] })).status).toBe(
      200,
    );
    expect(
      (await patchTask(x.id, { version: 2, maxGateAttempts: 5, acceptanceChecks: [{ id: "unit", disabled: true }] }))
        .status,
    ).toBe(200);

    const rows = await t.db.auditEvent.findMany({
      where: { taskId: x.id, action: "task.update" },
      orderBy: [{ at: "asc" }, { id: "asc" }],
    });
    expect(rows).toHaveLength(2);
    expect(JSON.parse(rows[0].before!)).toEqual({ acceptanceChecks: null });
    expect(JSON.parse(rows[0].after!)).toEqual({ acceptanceChecks: [{ id: "unit", disabled: true }] });
    // Only what really changed.
    expect(JSON.parse(rows[1].before!)).toEqual({ maxGateAttempts: null });
    expect(JSON.parse(rows[1].after!)).toEqual({ maxGateAttempts: 5 });
    for (const row of rows) {
      expect(row.workId).toBe(w.id);
      expect(row.actorLabel).toBeTruthy();
      expect(row.summary).toContain(x.key);
    }
  });
});
