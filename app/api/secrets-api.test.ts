// A Work's secrets through the JSON API: a lead sets (201, then 200 on update), lists names (never
// values) and deletes; values are checked (masking needs 6+ characters), names are checked (variable
// names, never platform-owned); the value is never stored in clear, never in the audit trail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { openSecret, sealSecret } from "@/lib/auth/secret-box";
import { upsertSecret } from "@/lib/db/secrets";
import { createTestDb, type TestDb } from "@/lib/testing/test-db";
import { callRoute } from "@/lib/testing/call-route";
import { expectForbiddenRole, expectNoChange, grant, makePerson, type Person } from "@/lib/testing/access-fixture";
import { createWork } from "@/lib/services/works";
import * as work from "./works/[id]/route";
import * as secrets from "./works/[id]/secrets/route";
import * as secret from "./works/[id]/secrets/[name]/route";
import * as audit from "./audit/route";

let t: TestDb;
let workId: string;
let lead: Person;
let engineer: Person;

beforeAll(async () => {
  t = await createTestDb();
  workId = (await createWork(SYSTEM_ACTOR, { name: "Secrets", repoUrl: "/tmp/repo" })).id;
  lead = await makePerson("lead");
  engineer = await makePerson("engineer");
  await grant(workId, lead, "lead");
  await grant(workId, engineer, "engineer");
});
afterAll(async () => t?.cleanup());

const put = (name: string, body: unknown, token = lead.token, id = workId) =>
  callRoute(secret.PUT, { token, method: "PUT", params: { id, name }, body });
const del = (name: string, token = lead.token) =>
  callRoute(secret.DELETE, { token, method: "DELETE", params: { id: workId, name } });
const list = (token = lead.token) => callRoute(secrets.GET, { token, params: { id: workId } });

let seq = 0;
const uniqueValue = () => `s3cr3t-Value-${++seq}-${process.pid}-zq`;

// Everything a value could leak into: every row of every table (as JSON), and the stored data itself.
async function expectValueStoredNowhereInClear(value: string) {
  const tables = await Promise.all([
    t.db.secret.findMany(),
    t.db.auditEvent.findMany(),
    t.db.work.findMany(),
    t.db.user.findMany(),
  ]);
  const json = JSON.stringify(tables);
  expect(json).not.toContain(value);
  expect(json).not.toContain(Buffer.from(value).toString("base64"));
  // Both databases: SQLite's files, every row of PostgreSQL's tables.
  expect(await t.holds(value)).toBe(false);
}

describe("setting, listing and deleting", () => {
  it("PUT is 201 when new, 200 when it replaces; the row holds ciphertext that opens to the value", async () => {
    const first = uniqueValue();
    const created = await put("API_KEY", { value: first });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toEqual({ name: "API_KEY", created: true });
    expect(created.text).not.toContain(first);

    const second = uniqueValue();
    const updated = await put("API_KEY", { value: second });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json).toEqual({ name: "API_KEY", created: false });

    const rows = await t.db.secret.findMany({ where: { workId, name: "API_KEY" } });
    expect(rows).toHaveLength(1);
    expect(rows[0].ciphertext).not.toContain(second);
    expect(rows[0].ciphertext).not.toContain(first);
    expect(openSecret(rows[0].ciphertext)).toBe(second);
    expect(rows[0].updatedById).toBe(lead.id);
    await expectValueStoredNowhereInClear(first);
    await expectValueStoredNowhereInClear(second);
  });

  it("the same value sealed twice gives different ciphertexts (no equality leak)", async () => {
    const value = uniqueValue();
    await put("SAME_A", { value });
    await put("SAME_B", { value });
    const [a, b] = await Promise.all(
      ["SAME_A", "SAME_B"].map((name) => t.db.secret.findFirstOrThrow({ where: { workId, name } })),
    );
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it("GET lists names (never values): the value appears nowhere in the JSON", async () => {
    const value = uniqueValue();
    expect((await put("LISTED_TOKEN", { value })).status).toBe(201);
    const res = await list();
    expect(res.status, res.text).toBe(200);
    const names = res.json.secrets.map((s) => s.name);
    expect(names).toContain("LISTED_TOKEN");
    expect([...names].sort()).toEqual(names);
    for (const s of res.json.secrets) expect(Object.keys(s).sort()).toEqual(["name", "updatedAt", "updatedById"]);
    expect(res.text).not.toContain(value);
    expect(res.text).not.toMatch(/ciphertext|v1:/);
    // Nor in the Work itself.
    const w = await callRoute(work.GET, { token: lead.token, params: { id: workId } });
    expect(w.text).not.toContain(value);
  });

  it("DELETE removes it: absent from the list afterwards; deleting again is 404", async () => {
    await put("TO_DELETE", { value: uniqueValue() });
    const res = await del("TO_DELETE");
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ deleted: true });
    expect((await list()).json.secrets.map((s) => s.name)).not.toContain("TO_DELETE");
    expect(await t.db.secret.count({ where: { workId, name: "TO_DELETE" } })).toBe(0);
    const again = await del("TO_DELETE");
    expect(again.status).toBe(404);
    expect(again.json.error.code).toBe("not_found");
  });

  it("secrets belong to one Work: another Work's list does not show them", async () => {
    const other = await createWork(SYSTEM_ACTOR, { name: "Other", repoUrl: "/tmp/repo" });
    await grant(other.id, lead, "lead");
    expect((await put("ONLY_HERE", { value: uniqueValue() })).status).toBe(201);
    const res = await callRoute(secrets.GET, { token: lead.token, params: { id: other.id } });
    expect(res.json.secrets).toEqual([]);
    expect(
      (
        await callRoute(secret.DELETE, {
          token: lead.token,
          method: "DELETE",
          params: { id: other.id, name: "ONLY_HERE" },
        })
      ).status,
    ).toBe(404);
    expect(await t.db.secret.count({ where: { workId, name: "ONLY_HERE" } })).toBe(1);
  });

  it("an unknown Work is 404", async () => {
    const res = await put("API_KEY", { value: uniqueValue() }, lead.token, "no-such-work");
    expect(res.status).toBe(404);
  });
});

describe("validation", () => {
  it("a value shorter than 6 characters → 400 naming `value` with a reason about masking; nothing stored", async () => {
    for (const value of ["", "a", "12345"]) {
      const res = await expectNoChange(t.db, () => put("SHORT_ONE", { value }));
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe("validation");
      const issue = res.json.error.issues.find((i) => i.path === "value");
      expect(issue, res.text).toBeDefined();
      expect(issue?.message).toMatch(/6/);
      expect(issue?.message).toMatch(/mask/);
    }
    // Exactly 6 is accepted.
    expect((await put("SIX_CHARS", { value: "abcdef" })).status).toBe(201);
  });

  it("a value of mostly spaces or line breaks → 400 naming `value`: masking it would rewrite every log", async () => {
    for (const value of ["      ", "\n\n\n\n\n\n\n", " \t ab \n  cd  "]) {
      const res = await expectNoChange(t.db, () => put("BLANK_ONE", { value }));
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.issues).toEqual([
        { path: "value", message: expect.stringContaining("not spaces or line breaks") },
      ]);
    }
    // Spaces inside a value with six other characters are the value's own.
    expect((await put("SPACED", { value: "pass phrase x" })).status).toBe(201);
  });

  it.each([
    [{}, "value"],
    [{ value: 123456 }, "value"],
    [{ value: "ok-value-x", extra: 1 }, ""],
    [{ value: "has\u0000nul-char" }, "value"],
    [{ value: "x".repeat(8193) }, "value"],
  ])("body %j → 400", async (body, pathName) => {
    const res = await expectNoChange(t.db, () => put("BODY_CASE", body));
    expect(res.status, res.text).toBe(400);
    if (pathName) expect(res.json.error.issues.map((i) => i.path)).toContain(pathName);
    else expect(res.json.error.message).toMatch(/unknown field: extra/);
  });

  it.each(["PATH", "home", "CI"])(
    "name %j (the runner sets it for every check) → 400 naming `name`; one stored before can still be deleted",
    async (name) => {
      const res = await expectNoChange(t.db, () => put(name, { value: "a-valid-value-123" }));
      expect(res.json.error.issues).toEqual([
        {
          path: "name",
          message: `${name} is set by the runner for every check; a secret of that name would never reach one`,
        },
      ]);
      await upsertSecret({ workId, name, ciphertext: sealSecret("stored-before"), userId: null });
      expect((await del(name)).status).toBe(200);
      expect(await t.db.secret.count({ where: { workId, name } })).toBe(0);
    },
  );

  it.each([
    ["DATABASE_URL", /platform/],
    ["GATEHOUSE_X", /Gatehouse/],
    ["gatehouse_secret_key", /Gatehouse/],
    ["NODE_OPTIONS", /platform/],
    ["LD_PRELOAD", /platform/],
    ["NEXT_RUNTIME", /server configuration/],
    ["1BAD", /variable name/],
    ["BAD-NAME", /variable name/],
    ["A=B", /names only/],
    ["WITH SPACE", /variable name/],
    ["../../etc", /variable name/],
    ["", /variable name/],
  ])("name %j → 400 naming `name`; nothing stored", async (name, reason) => {
    const res = await expectNoChange(t.db, () => put(name, { value: "a-valid-value-123" }));
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe("validation");
    const issue = res.json.error.issues.find((i) => i.path === "name");
    expect(issue, res.text).toBeDefined();
    expect(issue?.message).toMatch(reason);
    // Deleting under such a name is refused the same way.
    const d = await expectNoChange(t.db, () => del(name));
    expect(d.status).toBe(400);
    expect(d.json.error.issues.map((i) => i.path)).toEqual(["name"]);
  });

  it("lower-case and underscore-led names are ordinary variable names and are accepted", async () => {
    for (const name of ["npm_token", "_PRIVATE", "A1"])
      expect((await put(name, { value: "fine-value" })).status, name).toBe(201);
  });
});

describe("who may touch secrets", () => {
  it("an engineer gets 403 naming lead for list, set and delete, and changes nothing", async () => {
    await put("GUARDED", { value: uniqueValue() });
    const calls = [
      () => list(engineer.token),
      () => put("GUARDED", { value: "engineer-overwrite" }, engineer.token),
      () => put("NEW_ONE", { value: "engineer-new-value" }, engineer.token),
      () => del("GUARDED", engineer.token),
    ];
    for (const call of calls) {
      const res = await expectNoChange(t.db, call);
      expectForbiddenRole(res, "lead", "you are an engineer");
      expect(res.text).not.toContain("GUARDED");
    }
  });

  it("an engineer's invalid name or short value is still 403 (the role is checked first, nothing \
about the rules leaks)", async () => {
    expectForbiddenRole(await put("DATABASE_URL", { value: "x" }, engineer.token), "lead");
  });
});

describe("the audit trail of secret changes", () => {
  it("records set, change and delete by name and who — never the value", async () => {
    const v1 = uniqueValue();
    const v2 = uniqueValue();
    await put("AUDITED_KEY", { value: v1 });
    await put("AUDITED_KEY", { value: v2 });
    await del("AUDITED_KEY");
    const rows = await t.db.auditEvent.findMany({
      where: { workId, action: { startsWith: "secret." }, summary: { contains: "AUDITED_KEY" } },
      orderBy: [{ at: "asc" }, { id: "asc" }],
    });
    expect(rows.map((r) => r.action)).toEqual(["secret.create", "secret.update", "secret.delete"]);
    for (const r of rows) {
      expect(r.actorId).toBe(lead.id);
      expect(JSON.stringify(r)).not.toContain(v1);
      expect(JSON.stringify(r)).not.toContain(v2);
    }
    // Nor through the audit API.
    const api = await callRoute(audit.GET, { token: lead.token, path: `/api/audit?workId=${workId}` });
    expect(api.status).toBe(200);
    expect(api.text).toContain("AUDITED_KEY");
    expect(api.text).not.toContain(v1);
    expect(api.text).not.toContain(v2);
    await expectValueStoredNowhereInClear(v1);
    await expectValueStoredNowhereInClear(v2);
  });
});
