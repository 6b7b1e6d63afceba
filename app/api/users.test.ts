// People through the JSON API: one account per email, however many requests ask for it at once, and a
// password that is one; an admin disabling, enabling and setting a new password for someone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/lib/testing/test-db";
import { callRoute, sendTokenByDefault } from "@/lib/testing/call-route";
import { expectForbiddenRole, expectUnauthorized, makePerson } from "@/lib/testing/access-fixture";
import { actorFromSession, signIn } from "@/lib/services/auth";
import * as users from "./users/route";
import * as userRoute from "./users/[userId]/route";
import * as ownPassword from "./auth/password/route";
import * as audit from "./audit/route";
import { AUTOMATION_EMAIL } from "@/lib/auth/automation";
import { FREE_PER_ACCOUNT } from "@/lib/auth/throttle";
import * as tokenRoute from "./auth/token/route";

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

describe("PATCH /api/users/:id (an admin disables, enables, or sets a new password)", () => {
  const patch = (userId: string, body: unknown, token?: string) =>
    callRoute(userRoute.PATCH, { method: "PATCH", params: { userId }, body, token });
  // A request as the person: 403 while they are signed in (they are no admin), 401 once they are not.
  const asPerson = (headers: { token?: string; cookie?: string }) =>
    callRoute(users.GET, {
      token: headers.token ?? "",
      headers: headers.cookie ? { cookie: `gatehouse_session=${headers.cookie}` } : {},
    });

  it("disabling ends the person's sessions, refuses their API token and their password, and enabling gives \
the token and the password back", async () => {
    const person = await makePerson("leaver");
    const session = await signIn({ email: person.email, password: person.password }, "test-disable");
    expect((await asPerson({ cookie: session.token })).status).toBe(403);
    expect((await asPerson({ token: person.token })).status).toBe(403);

    const res = await patch(person.id, { disabled: true });
    expect(res.status, res.text).toBe(200);
    expect(typeof res.json.disabledAt).toBe("string");
    expectUnauthorized(await asPerson({ cookie: session.token }));
    const refused = await asPerson({ token: person.token });
    expectUnauthorized(refused);
    expect(refused.json.error.message).toBe("this API token's account is disabled: an admin can enable it again");
    expect(await t.db.session.count({ where: { userId: person.id } })).toBe(0);
    await expect(signIn({ email: person.email, password: person.password }, "test-disable")).rejects.toThrow(
      "this account is disabled: ask an admin to enable it",
    );
    // A wrong password says nothing about the account being disabled.
    await expect(signIn({ email: person.email, password: "not-the-password-1" }, "test-disable-2")).rejects.toThrow(
      "wrong email or password",
    );
    const listed = await callRoute(users.GET);
    expect(listed.json.users.find((u) => u.id === person.id)?.disabledAt).toBe(res.json.disabledAt);

    expect((await patch(person.id, { disabled: false })).json.disabledAt).toBeNull();
    expect((await asPerson({ token: person.token })).status).toBe(403);
    await signIn({ email: person.email, password: person.password }, "test-disable-3");
    const actions = (await t.db.auditEvent.findMany({ where: { summary: { contains: person.email } } })).map(
      (e) => e.action,
    );
    expect(actions).toEqual(expect.arrayContaining(["user.disable", "auth.signin-refused", "user.enable"]));
  });

  it("a new password: the old one stops working, the new one signs in, sessions end, the wait from wrong \
guesses is lifted; the password is in no audit entry", async () => {
    const person = await makePerson("forgetful");
    const session = await signIn({ email: person.email, password: person.password }, "test-reset");
    await t.db.user.update({ where: { id: person.id }, data: { failedSignins: 9, lastFailedAt: new Date() } });
    const password = "a brand new passphrase 7";
    const res = await patch(person.id, { password });
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toContain(password);
    expectUnauthorized(await asPerson({ cookie: session.token }));
    await expect(signIn({ email: person.email, password: person.password }, "test-reset-2")).rejects.toThrow(
      "wrong email or password",
    );
    await t.db.user.update({ where: { id: person.id }, data: { failedSignins: 0, lastFailedAt: null } });
    await signIn({ email: person.email, password }, "test-reset-3");
    // API tokens are not passwords: they keep working (revoke them on the tokens page).
    expect((await asPerson({ token: person.token })).status).toBe(403);
    const audit = await t.db.auditEvent.findMany({ where: { action: "user.password-reset" } });
    expect(audit.map((e) => e.summary)).toContain(`set a new password for ${person.email}`);
    expect(JSON.stringify(audit)).not.toContain(password);
  });

  it("refuses, changing nothing: a weak password with a disable, no field, an unknown field, yourself, \
a non-admin, an unknown person", async () => {
    const person = await makePerson("kept");
    const admin = await makePerson("other-admin", { admin: true });
    const weak = await patch(person.id, { disabled: true, password: "aaaaaaaaaaaa" });
    expect(weak.status).toBe(400);
    expect(weak.json.error.issues).toEqual([
      { path: "password", message: "at least 5 different characters besides spaces" },
    ]);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: person.id } })).disabledAt).toBeNull();

    const empty = await patch(person.id, {});
    expect(empty.status).toBe(400);
    expect(empty.json.error.message).toContain("give admin, disabled or password");
    const unknown = await patch(person.id, { suspended: true });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.message).toContain("unknown field: suspended");

    const self = await patch(admin.id, { disabled: true }, admin.token);
    expect(self.status).toBe(409);
    expect(self.json.error.message).toBe("you cannot disable your own account");
    expect((await patch(admin.id, { admin: false }, admin.token)).json.error.message).toBe(
      "you cannot remove your own admin rights",
    );
    expectForbiddenRole(await patch(admin.id, { disabled: true }, person.token), "admin");
    expect((await patch("no-such-user", { disabled: true })).status).toBe(404);
    expect(await t.db.user.count({ where: { id: { in: [person.id, admin.id] }, NOT: { disabledAt: null } } })).toBe(0);
  });
});

describe("wrong passwords sent all at once", () => {
  it("are slowed like ones sent one after another: at most the free allowance is checked, the rest \
are 429", async () => {
    const person = await makePerson("besieged");
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        callRoute(tokenRoute.POST, {
          method: "POST",
          token: "",
          headers: { "x-forwarded-for": "203.0.113.77" },
          body: { email: person.email, password: `wrong-guess-${i}-xyz`, name: "guess" },
        }),
      ),
    );
    const statuses = guesses.map((g) => g.status);
    const row = await t.db.user.findUniqueOrThrow({ where: { id: person.id } });
    expect(row.failedSignins).toBeLessThanOrEqual(FREE_PER_ACCOUNT);
    expect(statuses.filter((s) => s === 401)).toHaveLength(row.failedSignins);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - row.failedSignins);
  });
});

describe("GET /api/audit pages: entries written in the same millisecond", () => {
  it("page after page, every entry once, though 60 share one time (the next page starts after the last \
entry's time and id)", async () => {
    const at = new Date("2026-01-02T03:04:05.006Z");
    const label = `same-ms-${process.pid}@example.test`;
    await t.db.auditEvent.createMany({
      data: Array.from({ length: 60 }, (_, i) => ({
        id: `csamems${String(i).padStart(4, "0")}${process.pid}`,
        at,
        actorLabel: label,
        via: "token",
        action: "auth.signin",
        summary: `entry ${i}`,
      })),
    });
    const seen: string[] = [];
    let query = `who=${encodeURIComponent(label)}`;
    for (let page = 0; page < 3; page++) {
      const res = await callRoute(audit.GET, { path: `/api/audit?${query}` });
      expect(res.status, res.text).toBe(200);
      const events = res.json.events as unknown as { id: string; at: string }[];
      seen.push(...events.map((e) => e.id));
      if (!res.json.hasMore) break;
      const last = events.at(-1)!;
      query = `who=${encodeURIComponent(label)}&before=${last.at}&beforeId=${last.id}`;
    }
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
  });
});

describe("PATCH /api/users/:id between admins, and on the automation account", () => {
  const patchAs = (token: string, userId: string, body: unknown) =>
    callRoute(userRoute.PATCH, { method: "PATCH", params: { userId }, body, token });

  it("two admins disabling each other at once: one change wins, the other is refused, one of them can still \
sign in", async () => {
    for (let round = 0; round < 3; round++) {
      const a = await makePerson(`duel-a${round}`, { admin: true });
      const b = await makePerson(`duel-b${round}`, { admin: true });
      const body = { disabled: true, password: "a slow hash opens the window 1" };
      const [ab, ba] = await Promise.all([patchAs(a.token, b.id, body), patchAs(b.token, a.id, body)]);
      expect([ab.status, ba.status].sort(), `${ab.text} ${ba.text}`).toEqual([200, 403]);
      const refused = ab.status === 403 ? ab : ba;
      expect(refused.json.error.message).toBe("you are no longer an admin who can sign in");
      const left = await t.db.user.count({ where: { id: { in: [a.id, b.id] }, disabledAt: null } });
      expect(left).toBe(1);
    }
  });

  it("the automation account (GATEHOUSE_BOOTSTRAP_TOKEN's) is given no password and is not disabled here", async () => {
    const automation = await t.db.user.create({
      data: { email: AUTOMATION_EMAIL, name: "Automation", passwordHash: "unusable", isAdmin: true },
    });
    for (const body of [{ password: "now a login 12345" }, { disabled: true }, { admin: false }]) {
      const res = await callRoute(userRoute.PATCH, { method: "PATCH", params: { userId: automation.id }, body });
      expect(res.status).toBe(409);
      expect(res.json.error.message).toContain("the automation account is GATEHOUSE_BOOTSTRAP_TOKEN's");
    }
    const after = await t.db.user.findUniqueOrThrow({ where: { id: automation.id } });
    expect([after.passwordHash, after.disabledAt, after.isAdmin]).toEqual(["unusable", null, true]);
  });
});

describe("POST /api/auth/password (one's own password)", () => {
  const change = (body: unknown, opts: { token?: string; cookie?: string } = {}) =>
    callRoute(ownPassword.POST, {
      method: "POST",
      body,
      token: opts.token ?? "",
      headers: opts.cookie ? { cookie: `gatehouse_session=${opts.cookie}` } : {},
    });

  it("with the current password: the new one signs in, the old one does not, the other browsers are signed \
out and the asking one stays; tokens keep working", async () => {
    const person = await makePerson("changer");
    const here = await signIn({ email: person.email, password: person.password }, "test-own-1");
    const elsewhere = await signIn({ email: person.email, password: person.password }, "test-own-2");
    const newPassword = "my own new passphrase 9";
    const res = await change({ currentPassword: person.password, newPassword }, { cookie: here.token });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ endedSessions: 1 });
    expect(await t.db.session.count({ where: { userId: person.id } })).toBe(1);
    expect(await actorFromSession(here.token)).not.toBeNull();
    expect(await actorFromSession(elsewhere.token)).toBeNull();
    await expect(signIn({ email: person.email, password: person.password }, "test-own-3")).rejects.toThrow(
      "wrong email or password",
    );
    await signIn({ email: person.email, password: newPassword }, "test-own-4");
    // With a token: every session ends (the token has none to keep), the token itself works on.
    const again = await change(
      { currentPassword: newPassword, newPassword: "and yet another one 10" },
      { token: person.token },
    );
    expect(again.json).toEqual({ endedSessions: 2 });
    expect((await callRoute(users.GET, { token: person.token })).status).toBe(403);
    const audit = await t.db.auditEvent.findMany({ where: { action: "auth.password-changed", actorId: person.id } });
    expect(audit.map((e) => e.summary)).toEqual(
      expect.arrayContaining([
        "changed their password; 1 other session ended",
        "changed their password; 2 other sessions ended",
      ]),
    );
    expect(JSON.stringify(audit)).not.toContain(newPassword);
  });

  it("refuses, naming the field, and changes nothing: a wrong current password, a weak or unchanged new one, \
no sign-in; an admin cannot set their own through PATCH /api/users", async () => {
    const person = await makePerson("careful");
    const hashBefore = (await t.db.user.findUniqueOrThrow({ where: { id: person.id } })).passwordHash;
    const wrong = await change(
      { currentPassword: "not my password", newPassword: "a fine new passphrase" },
      { token: person.token },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.issues).toEqual([{ path: "currentPassword", message: "not your current password" }]);
    const weak = await change(
      { currentPassword: person.password, newPassword: "abcabcabcabc" },
      { token: person.token },
    );
    expect(weak.json.error.issues).toEqual([
      { path: "newPassword", message: "at least 5 different characters besides spaces" },
    ]);
    const same = await change(
      { currentPassword: person.password, newPassword: person.password },
      { token: person.token },
    );
    expect(same.json.error.issues).toEqual([{ path: "newPassword", message: "is your current password" }]);
    expectUnauthorized(await change({ currentPassword: person.password, newPassword: "a fine new passphrase" }));
    expect((await t.db.user.findUniqueOrThrow({ where: { id: person.id } })).passwordHash).toBe(hashBefore);

    const admin = await makePerson("self-admin", { admin: true });
    const self = await callRoute(userRoute.PATCH, {
      method: "PATCH",
      params: { userId: admin.id },
      body: { password: "a fine new passphrase" },
      token: admin.token,
    });
    expect(self.status).toBe(409);
    expect(self.json.error.message).toContain("change your own password with your current one");
  });
});

describe("GET /api/audit ?kind= and ?who= (the audit page's filters)", () => {
  const read = (query: string) => callRoute(audit.GET, { path: `/api/audit?${query}` });

  it("narrows the trail to one kind of entries and to part of who did them; a kind that is none is a 400 \
naming kind", async () => {
    const person = await makePerson("filtered");
    await callRoute(userRoute.PATCH, { method: "PATCH", params: { userId: person.id }, body: { disabled: true } });
    const people = await read("kind=people");
    expect(people.status, people.text).toBe(200);
    const actions: string[] = people.json.events.map((e) => String(e.action));
    expect(actions).toContain("user.disable");
    expect(actions.every((a: string) => a.startsWith("user.") || a.startsWith("member."))).toBe(true);

    // The person's own entries (their token, made by signing in with the password) under their email.
    const theirs = await read(`kind=access&who=${encodeURIComponent(person.email.toUpperCase())}`);
    expect(theirs.json.events.length).toBeGreaterThan(0);
    for (const e of theirs.json.events) {
      expect(e.actorLabel).toBe(person.email);
      expect(e.action).toMatch(/^auth\./);
    }
    expect((await read("who=nobody-did-this@example.test")).json.events).toEqual([]);

    // % and _ are no wildcards: they match only themselves.
    for (const who of ["%", "_", "f_ltered"])
      expect((await read(`who=${encodeURIComponent(who)}`)).json.events).toEqual([]);

    const wrong = await read("kind=everything");
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.issues).toEqual([
      { path: "kind", message: "must be one of access, people, settings, runs" },
    ]);
  });
});
