// The Work assets API: leads list, upload (name sanitised, sizes capped per file and per Work) and delete;
// other roles are refused; every change is audited. Built-in checks saved through the API are validated by
// parameter name. Real SQLite, in-process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ASSET_BYTES, MAX_ASSETS_TOTAL_BYTES } from "@/lib/gates/assets";
import { createTestDb, type TestDb } from "@/lib/testing/test-db";
import { callRoute } from "@/lib/testing/call-route";
import type { Json } from "@/lib/testing/json";
import { expectForbiddenRole, grant, makePerson, type Person } from "@/lib/testing/access-fixture";
import * as works from "./works/route";
import * as work from "./works/[id]/route";
import * as assets from "./works/[id]/assets/route";
import * as asset from "./works/[id]/assets/[name]/route";
import * as audit from "./audit/route";

let t: TestDb;
let lead: Person;
let engineer: Person;
let workId: string;
beforeAll(async () => {
  t = await createTestDb();
  const admin = await makePerson("admin", { admin: true });
  lead = await makePerson("lead");
  engineer = await makePerson("engineer");
  const res = await callRoute(works.POST, {
    method: "POST",
    token: admin.token,
    body: { name: "Assets", repoUrl: "/tmp/r" },
  });
  workId = res.json.id;
  await grant(workId, lead, "lead");
  await grant(workId, engineer, "engineer");
});
afterAll(async () => t?.cleanup());

const upload = (name: string, body: string, token = lead.token) =>
  callRoute(assets.POST, {
    method: "POST",
    path: `/api/works/${workId}/assets?name=${encodeURIComponent(name)}`,
    params: { id: workId },
    body,
    token,
  });
const list = (token = lead.token) => callRoute(assets.GET, { params: { id: workId }, token });

describe("Work assets through the API", () => {
  it("a lead uploads (the name sanitised), lists with sizes, replaces and deletes; each change audited", async () => {
    const created = await upload("../fixtures/Expected Output.json", '{"total": 42}\n');
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ name: "Expected-Output.json", size: 14 });
    expect(created.json.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await upload("Expected-Output.json", '{"total": 43}\n')).status).toBe(200);
    expect((await list()).json.assets.map((a: Json) => [a.name, a.size])).toEqual([["Expected-Output.json", 14]]);
    const deleted = await callRoute(asset.DELETE, {
      method: "DELETE",
      params: { id: workId, name: "Expected-Output.json" },
      token: lead.token,
    });
    expect(deleted.status).toBe(200);
    expect((await list()).json.assets).toEqual([]);
    const missing = await callRoute(asset.DELETE, {
      method: "DELETE",
      params: { id: workId, name: "nope.txt" },
      token: lead.token,
    });
    expect(missing.status).toBe(404);
    const trail = await callRoute(audit.GET, { path: `/api/audit?workId=${workId}`, token: lead.token });
    expect(trail.json.events.map((e: Json) => e.action)).toEqual(
      expect.arrayContaining(["asset.upload", "asset.replace", "asset.delete"]),
    );
  });

  it("refuses an empty file, a name with nothing usable, a file over 1 MB and a Work over 10 MB", async () => {
    expect((await upload("empty.txt", "")).json.error.issues).toEqual([{ path: "body", message: "the file is empty" }]);
    expect((await upload("../..", "x")).json.error.issues[0].path).toBe("name");
    const big = await upload("big.bin", "x".repeat(MAX_ASSET_BYTES + 1));
    expect([big.status, big.json.error.code]).toEqual([413, "too_large"]);
    const chunk = "y".repeat(MAX_ASSET_BYTES);
    for (let i = 0; i < MAX_ASSETS_TOTAL_BYTES / MAX_ASSET_BYTES; i++)
      expect((await upload(`part-${i}.bin`, chunk)).status).toBe(201);
    const over = await upload("one-more.bin", "z");
    expect(over.status).toBe(400);
    expect(over.json.error.message).toMatch(/more than 10485760 \(10 MB\)/);
  });

  it("an engineer can neither list nor upload", async () => {
    expectForbiddenRole(await list(engineer.token), "lead");
    expectForbiddenRole(await upload("x.txt", "x", engineer.token), "lead");
  });
});

describe("built-in checks and resultsDir through the API", () => {
  const patch = async (body: Record<string, unknown>) => {
    const current = await callRoute(work.GET, { params: { id: workId }, token: lead.token });
    return callRoute(work.PATCH, {
      method: "PATCH",
      params: { id: workId },
      token: lead.token,
      body: { version: current.json.version, ...body },
    });
  };

  it("saves a built-in and a results directory, and names each bad parameter", async () => {
    const ok = await patch({
      resultsDir: "out",
      checkDefaults: [
        {
          id: "out",
          name: "Output is JSON",
          kind: "custom",
          required: true,
          use: "json_valid",
          with: { path: "result.json" },
        },
      ],
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toMatchObject({
      resultsDir: "out",
      checkDefaults: [{ use: "json_valid", with: { path: "result.json" } }],
    });
    const bad = await patch({
      checkDefaults: [
        { id: "a", name: "A", kind: "custom", required: true, use: "http_ok", with: { url: "http://example.com/" } },
        { id: "b", name: "B", kind: "custom", required: true, use: "file_contains", with: { path: "r.md" } },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues.map((i: Json) => i.path)).toEqual([
      "checkDefaults.0.with.url",
      "checkDefaults.1.with.strings",
    ]);
  });
});
