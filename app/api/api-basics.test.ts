import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/lib/testing/test-db";
import { callRoute, sendTokenByDefault } from "@/lib/testing/call-route";
import { makePerson } from "@/lib/testing/access-fixture";
import * as health from "./health/route";
import * as works from "./works/route";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  // These tests are about the API's behaviour, not access: they act as an admin.
  sendTokenByDefault((await makePerson("admin", { admin: true })).token);
});
afterAll(async () => t.cleanup());

describe("smoke", () => {
  it("health and create work", async () => {
    // It always says the sandbox mode (these tests run with GATEHOUSE_SANDBOX=off: vitest.config.mts).
    expect((await callRoute(health.GET)).json).toEqual({
      status: "ok",
      sandbox: { mode: "off", message: expect.stringContaining("could reach the platform") },
    });
    const res = await callRoute(works.POST, { method: "POST", body: { name: "Shop", repoUrl: "/tmp/x" } });
    expect(res.status).toBe(201);
    expect(res.json.keyPrefix).toBe("SHOP");
  });
});
