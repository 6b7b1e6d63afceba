// Creating users through the JSON API: one account per email, however many requests ask for it at once, and
// a password that is one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/lib/testing/test-db";
import { callRoute, sendTokenByDefault } from "@/lib/testing/call-route";
import { makePerson } from "@/lib/testing/access-fixture";
import * as users from "./users/route";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  sendTokenByDefault((await makePerson("admin", { admin: true })).token);
});
afterAll(async () => t?.cleanup());

const create = (body: Record<string, unknown>) => callRoute(users.POST, { method: "POST", body });

describe("POST /api/users", () => {
  it("eight requests for one email at once: one account, the other seven told it exists (400), never \
a 500", async () => {
    const email = "race@example.test";
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => create({ email, password: "password-race-123" })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    for (const refused of answers.filter((a) => a.status === 400)) {
      expect(refused.json.error.issues).toEqual([{ path: "email", message: `${email} already has an account` }]);
    }
    expect(await t.db.user.count({ where: { email } })).toBe(1);
  });

  it.each([
    ["ten spaces", "          "],
    ["one key held down", "aaaaaaaaaaaa"],
    ["four keys and spaces", "abab cdcd abab cdcd"],
  ])("refuses %s as a password, naming the field and the rule, and makes no account", async (_label, password) => {
    const email = `weak-${password.length}-${password.charCodeAt(0)}@example.test`;
    const res = await create({ email, password });
    expect(res.status).toBe(400);
    expect(res.json.error.issues).toEqual([
      { path: "password", message: "at least 5 different characters besides spaces" },
    ]);
    expect(await t.db.user.count({ where: { email } })).toBe(0);
  });

  it("takes a passphrase of ordinary words", async () => {
    const res = await create({ email: "phrase@example.test", password: "correct horse battery staple" });
    expect(res.status, res.text).toBe(201);
  });
});
