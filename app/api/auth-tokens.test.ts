// API tokens through POST /api/auth/token: shown once, stored hashed, acting with the user's roles,
// last use recorded, revocable; wrong passwords slowed per account and per client address; the
// GATEHOUSE_BOOTSTRAP_TOKEN and GATEHOUSE_ADMIN_EMAIL/PASSWORD start-up access. Real SQLite in-process.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SYSTEM_ACTOR, type Actor } from "@/lib/auth/actor";
import { sha256 } from "@/lib/auth/tokens";
import { createTestDb, type TestDb } from "@/lib/testing/test-db";
import { callRoute } from "@/lib/testing/call-route";
import { expectForbiddenRole, expectNoChange, expectUnauthorized, grant } from "@/lib/testing/access-fixture";
import { listTokensOfActor, revokeTokenOfActor } from "@/lib/services/auth";
import { createUser } from "@/lib/services/users";
import { createWork } from "@/lib/services/works";
import { bootstrapAccess } from "@/lib/startup/bootstrap-access";
import * as authToken from "./auth/token/route";
import * as works from "./works/route";
import * as work from "./works/[id]/route";
import * as workTasks from "./works/[id]/tasks/route";
import * as users from "./users/route";

// These tests count sign-ins by the hundred (the throttle's): passwords are hashed at scrypt cost 2^10 here, as
// in every vitest file (lib/testing/cheap-passwords.setup.ts); lib/auth/passwords.test.ts covers the default.

// Each group of tests gets a database of its own (the bootstrap tests need an empty one).
function withFreshDb(): { t: () => TestDb } {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => t?.cleanup());
  return { t: () => t };
}

let seq = 0;
// Each test signs in from an address of its own, so the per-address throttle of one never touches another.
const newAddress = () => `203.0.113.${++seq}`;

async function newUser(opts: { admin?: boolean } = {}) {
  const email = `person-${++seq}@example.test`;
  const password = `correct-horse-${seq}`;
  const user = await createUser(SYSTEM_ACTOR, { email, password, name: `Person ${seq}`, admin: opts.admin ?? false });
  return { ...user, email, password };
}

function requestToken(body: unknown, address = newAddress()) {
  return callRoute(authToken.POST, { method: "POST", body, headers: { "x-forwarded-for": address } });
}

const actorOf = (u: { id: string; email: string; isAdmin: boolean }): Actor => ({
  userId: u.id,
  label: u.email,
  email: u.email,
  isAdmin: u.isAdmin,
  via: "session",
  tokenId: null,
});

// The raw bytes of the SQLite database (and its write-ahead log), to prove a value is nowhere in it.
describe("POST /api/auth/token", () => {
  const db = withFreshDb();

  it("201 with a token that works as Bearer and acts with exactly that user's roles", async () => {
    const u = await newUser();
    const mine = await createWork(SYSTEM_ACTOR, { name: "Mine", repoUrl: "/tmp/repo" });
    const other = await createWork(SYSTEM_ACTOR, { name: "Other", repoUrl: "/tmp/repo" });
    await grant(mine.id, u, "engineer");

    const res = await requestToken({ email: u.email, password: u.password, name: "my laptop" });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.json).sort()).toEqual(["id", "name", "token"]);
    expect(res.json.name).toBe("my laptop");
    const token: string = res.json.token;
    expect(token).toMatch(/^gatehouse_[A-Za-z0-9_-]{40,}$/);

    const listed = await callRoute(works.GET, { token });
    expect(listed.status).toBe(200);
    expect(listed.json.works.map((w) => w.id)).toEqual([mine.id]);
    // engineer on "mine": may add a task, may not change the Work, cannot see "other", is no admin.
    expect(
      (
        await callRoute(workTasks.POST, {
          token,
          method: "POST",
          params: { id: mine.id },
          body: { title: "via token" },
        })
      ).status,
    ).toBe(201);
    expectForbiddenRole(
      await callRoute(work.PATCH, {
        token,
        method: "PATCH",
        params: { id: mine.id },
        body: { version: mine.version, checksPolicy: "off" },
      }),
      "lead",
      "you are an engineer",
    );
    expect((await callRoute(work.GET, { token, params: { id: other.id } })).status).toBe(404);
    expectForbiddenRole(await callRoute(users.GET, { token }), "admin");
    expectForbiddenRole(
      await callRoute(works.POST, { token, method: "POST", body: { name: "Nope", repoUrl: "/tmp/repo" } }),
      "admin",
    );

    // A role given later applies to the same token at once (roles are the user's, not the token's).
    await grant(mine.id, u, "lead");
    expect(
      (
        await callRoute(work.PATCH, {
          token,
          method: "PATCH",
          params: { id: mine.id },
          body: { version: mine.version, checksPolicy: "off" },
        })
      ).status,
    ).toBe(200);
  });

  it("the database stores only a hash: the plaintext is in no apiToken row, nor anywhere in the \
stored data", async () => {
    const u = await newUser();
    const res = await requestToken({ email: u.email, password: u.password, name: "ci" });
    expect(res.status).toBe(201);
    const token: string = res.json.token;
    const rows = await db.t().db.apiToken.findMany();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(token.slice("gatehouse_".length)); // without the prefix
    const row = rows.find((r) => r.id === res.json.id)!;
    expect(row.tokenHash).toBe(sha256(token));
    expect(row.hint).toBe(token.slice(-4));
    // Listing tokens shows the name and hint, never the token.
    const listed = await listTokensOfActor(actorOf(u));
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(listed.map((t) => t.name)).toEqual(["ci"]);
    // Not in any row of any table (PostgreSQL), nor in any page of the database files (SQLite).
    expect(await db.t().holds(token)).toBe(false);
    expect(await db.t().holds(row.tokenHash)).toBe(true); // (the search does find what is stored)
  });

  it("a token made before the gatehouse_ prefix (gh_…) still works: a token is known by its hash alone", async () => {
    const u = await newUser();
    const old = "gh_made-before-session-39-0123456789abcdefghijklmnop";
    await db
      .t()
      .db.apiToken.create({ data: { userId: u.id, name: "old laptop", tokenHash: sha256(old), hint: "mnop" } });
    expect((await callRoute(works.GET, { token: old })).status).toBe(200);
  });

  it("each request makes a new token; the plaintext is shown only in that response", async () => {
    const u = await newUser();
    const a = await requestToken({ email: u.email, password: u.password, name: "one" });
    const b = await requestToken({ email: u.email, password: u.password, name: "two" });
    expect(a.json.token).not.toBe(b.json.token);
    for (const token of [a.json.token, b.json.token]) expect((await callRoute(works.GET, { token })).status).toBe(200);
  });

  it("lastUsedAt is empty until the token is used, then set", async () => {
    const u = await newUser();
    const res = await requestToken({ email: u.email, password: u.password, name: "agent" });
    const row = () => db.t().db.apiToken.findUniqueOrThrow({ where: { id: res.json.id } });
    expect((await row()).lastUsedAt).toBeNull();
    const before = Date.now();
    expect((await callRoute(works.GET, { token: res.json.token })).status).toBe(200);
    const used = (await row()).lastUsedAt;
    expect(used).not.toBeNull();
    expect(used!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(used!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    // What the tokens page shows.
    expect((await listTokensOfActor(actorOf(u)))[0].lastUsedAt?.getTime()).toBe(used!.getTime());
    // First use is audited, without the token itself.
    const audit = await db.t().db.auditEvent.findMany({ where: { action: "auth.token-used", actorId: u.id } });
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(res.json.token);
  });

  it("a revoked token is 401 at once; another user cannot revoke it; revoking twice is 404", async () => {
    const u = await newUser();
    const stranger = await newUser();
    const res = await requestToken({ email: u.email, password: u.password, name: "to revoke" });
    const token = res.json.token;
    expect((await callRoute(works.GET, { token })).status).toBe(200);

    await expect(revokeTokenOfActor(actorOf(stranger), res.json.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await callRoute(works.GET, { token })).status).toBe(200);

    await revokeTokenOfActor(actorOf(u), res.json.id);
    const after = await callRoute(works.GET, { token });
    expectUnauthorized(after);
    expect(after.json.error.message).toMatch(/unknown or revoked/);
    await expect(revokeTokenOfActor(actorOf(u), res.json.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await listTokensOfActor(actorOf(u)))[0].revokedAt).not.toBeNull();
    // Other tokens of the same user still work.
    const fresh = await requestToken({ email: u.email, password: u.password, name: "new one" });
    expect((await callRoute(works.GET, { token: fresh.json.token })).status).toBe(200);
  });

  it("wrong password and unknown email: the same 401 'wrong email or password', and no token is made", async () => {
    const u = await newUser();
    const count = () => db.t().db.apiToken.count();
    const before = await count();
    const wrong = await requestToken({ email: u.email, password: "not-it", name: "x" });
    const unknown = await requestToken({ email: "nobody@example.test", password: "whatever", name: "x" });
    for (const res of [wrong, unknown]) {
      expectUnauthorized(res);
      expect(res.json.error.message).toBe("wrong email or password");
      expect(res.json.token).toBeUndefined();
    }
    expect(wrong.json).toEqual(unknown.json);
    expect(await count()).toBe(before);
    // Email is matched case-insensitively, the password is not.
    expect((await requestToken({ email: u.email.toUpperCase(), password: u.password, name: "x" })).status).toBe(201);
    expect((await requestToken({ email: u.email, password: u.password.toUpperCase(), name: "x" })).status).toBe(401);
  });

  it("bad input is 400 naming the field (unknown fields too), not 401", async () => {
    const u = await newUser();
    const noName = await requestToken({ email: u.email, password: u.password });
    expect(noName.status).toBe(400);
    expect(noName.json.error.issues.map((i) => i.path)).toEqual(["name"]);
    const extra = await requestToken({ email: u.email, password: u.password, name: "x", admin: true });
    expect(extra.status).toBe(400);
    expect(extra.json.error.message).toMatch(/unknown field: admin/);
    const badEmail = await requestToken({ email: "not-an-email", password: "x", name: "x" });
    expect(badEmail.status).toBe(400);
    expect(badEmail.json.error.issues.map((i) => i.path)).toEqual(["email"]);
    // A name that shows nothing in the token list is no name.
    const invisible = await requestToken({ email: u.email, password: u.password, name: "\u200b" });
    expect(invisible.status).toBe(400);
    expect(invisible.json.error.issues).toEqual([{ path: "name", message: "must contain a visible character" }]);
  });
});

describe("slowing repeated wrong passwords", () => {
  const db = withFreshDb();
  // The clock is frozen (Date only: scrypt and the database run as usual), so "within the wait" does not
  // depend on how fast this machine is, and the end of a wait is reached by moving the clock, not sleeping.
  const freezeClock = () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
  };
  const cleanups: (() => unknown)[] = [];
  const afterThisTest = (fn: () => unknown) => cleanups.push(fn);
  afterEach(() => {
    vi.useRealTimers();
    for (const fn of cleanups.splice(0)) fn();
  });

  it("after 5 wrong passwords for one account: 429 with a wait, even with the right password and \
from another address", async () => {
    const u = await newUser();
    freezeClock();
    for (let i = 1; i <= 5; i++) {
      const res = await requestToken({ email: u.email, password: `wrong-${i}`, name: "x" });
      expect(res.status, `attempt ${i}: ${res.text}`).toBe(401);
    }
    const row = await db.t().db.user.findUniqueOrThrow({ where: { id: u.id } });
    expect(row.failedSignins).toBe(5);
    const tokensBefore = await db.t().db.apiToken.count();
    const locked = await requestToken({ email: u.email, password: u.password, name: "x" });
    expect(locked.status, locked.text).toBe(429);
    expect(locked.json.error.code).toBe("too_many");
    expect(locked.json.error.message).toMatch(/too many wrong passwords: try again in \d+ s/);
    expect(locked.json.token).toBeUndefined();
    expect(await db.t().db.apiToken.count()).toBe(tokensBefore);
    // The throttle is per account: another address does not get around it.
    expect((await requestToken({ email: u.email, password: u.password, name: "x" }, newAddress())).status).toBe(429);
    // Other accounts are not affected.
    const other = await newUser();
    expect((await requestToken({ email: other.email, password: other.password, name: "x" })).status).toBe(201);
  });

  it("the wait doubles with each further failure, and once it has passed the right password works \
and clears the count", async () => {
    const u = await newUser();
    freezeClock();
    for (let i = 1; i <= 5; i++)
      expect((await requestToken({ email: u.email, password: "wrong", name: "x" })).status).toBe(401);
    const first = await requestToken({ email: u.email, password: u.password, name: "x" });
    expect(first.json.error.message).toMatch(/try again in 1 s/);
    vi.setSystemTime(Date.now() + 1001);
    // The wait is over: a 6th failure is counted, and the next wait is twice as long.
    expect((await requestToken({ email: u.email, password: "wrong", name: "x" })).status).toBe(401);
    const second = await requestToken({ email: u.email, password: u.password, name: "x" });
    expect(second.status).toBe(429);
    expect(second.json.error.message).toMatch(/try again in 2 s/);
    vi.setSystemTime(Date.now() + 1000);
    expect((await requestToken({ email: u.email, password: u.password, name: "x" })).status).toBe(429);
    vi.setSystemTime(Date.now() + 1001);
    const ok = await requestToken({ email: u.email, password: u.password, name: "x" });
    expect(ok.status, ok.text).toBe(201);
    expect((await db.t().db.user.findUniqueOrThrow({ where: { id: u.id } })).failedSignins).toBe(0);
  });

  it("a success before the lockout resets the account's counter", async () => {
    const u = await newUser();
    const failures = () =>
      db
        .t()
        .db.user.findUniqueOrThrow({ where: { id: u.id } })
        .then((r) => r.failedSignins);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++)
        expect((await requestToken({ email: u.email, password: "wrong", name: "x" })).status).toBe(401);
      expect(await failures()).toBe(4);
      const ok = await requestToken({ email: u.email, password: u.password, name: "x" });
      expect(ok.status, `round ${round}: ${ok.text}`).toBe(201);
      expect(await failures()).toBe(0);
    }
  });

  it("after 20 failures from one client address, that address is slowed (any account); other \
addresses are not", async () => {
    // Addresses come from proxy headers, which count only behind a trusted proxy.
    process.env.GATEHOUSE_TRUST_PROXY = "1";
    afterThisTest(() => delete process.env.GATEHOUSE_TRUST_PROXY);
    const address = newAddress();
    freezeClock();
    for (let i = 0; i < 20; i++) {
      const res = await requestToken({ email: `nobody-${i}@example.test`, password: "guess", name: "x" }, address);
      expect(res.status, `failure ${i + 1}`).toBe(401);
    }
    const u = await newUser();
    const slowed = await requestToken({ email: u.email, password: u.password, name: "x" }, address);
    expect(slowed.status, slowed.text).toBe(429);
    expect(slowed.json.error.message).toMatch(/try again in \d+ s/);
    expect((await requestToken({ email: u.email, password: u.password, name: "x" }, newAddress())).status).toBe(201);
  });

  it("without a trusted proxy, a forged X-Forwarded-For neither slows others nor escapes the \
per-account limit", async () => {
    const u = await newUser();
    freezeClock();
    for (let i = 0; i < 25; i++)
      await requestToken({ email: `nobody-x-${i}@example.test`, password: "guess", name: "x" }, "203.0.113.9");
    // 25 failures from one claimed address did not slow a different account on that "address".
    const notSlowed = await requestToken({ email: u.email, password: u.password, name: "x" }, "203.0.113.9");
    expect(notSlowed.status, notSlowed.text).toBe(201);
    for (let i = 0; i < 5; i++) await requestToken({ email: u.email, password: "wrong", name: "x" }, `198.51.100.${i}`);
    expect((await requestToken({ email: u.email, password: u.password, name: "x" }, "198.51.100.77")).status).toBe(429);
  });

  it("an unknown email is slowed exactly like an account: the same answers, in the same order", async () => {
    const u = await newUser();
    freezeClock();
    const answers = async (email: string) => {
      const out: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await requestToken({ email, password: "wrong", name: "x" });
        out.push(`${res.status} ${res.json.error.message}`);
      }
      return out;
    };
    const known = await answers(u.email);
    const unknown = await answers(`nobody-alike-${Date.now()}@example.test`);
    expect(unknown).toEqual(known);
    expect(known.slice(4).map((a) => a.slice(0, 3))).toEqual(["401", "429", "429", "429"]);
  });

  it("failures are audited without the password tried", async () => {
    const u = await newUser();
    await requestToken({ email: u.email, password: "a-guessed-password-123", name: "x" });
    const rows = await db.t().db.auditEvent.findMany({ where: { action: "auth.signin-failed", actorId: u.id } });
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain("a-guessed-password-123");
  });
});

describe("GATEHOUSE_BOOTSTRAP_TOKEN", () => {
  const db = withFreshDb();
  const VALUE = "bootstrap-0123456789-abcdefghij-ABCDEFGH"; // 40 characters

  it("a 40-character value becomes an admin API token", async () => {
    expect(VALUE).toHaveLength(40);
    expectUnauthorized(await callRoute(works.GET, { token: VALUE }));
    await bootstrapAccess({ GATEHOUSE_BOOTSTRAP_TOKEN: VALUE });
    expect((await callRoute(users.GET, { token: VALUE })).status).toBe(200);
    const created = await callRoute(works.POST, {
      token: VALUE,
      method: "POST",
      body: { name: "Automated", repoUrl: "/tmp/repo" },
    });
    expect(created.status, created.text).toBe(201);
    // Stored hashed like any token.
    const rows = await db.t().db.apiToken.findMany({ where: { isBootstrap: true } });
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(sha256(VALUE));
    expect(JSON.stringify(rows)).not.toContain(VALUE);
  });

  it("starting again with the same value changes nothing (one token, still valid)", async () => {
    await bootstrapAccess({ GATEHOUSE_BOOTSTRAP_TOKEN: VALUE });
    await bootstrapAccess({ GATEHOUSE_BOOTSTRAP_TOKEN: VALUE });
    expect(await db.t().db.apiToken.count({ where: { isBootstrap: true } })).toBe(1);
    expect((await callRoute(users.GET, { token: VALUE })).status).toBe(200);
  });

  it("its automation account cannot sign in with a password", async () => {
    const res = await requestToken({ email: "automation@gatehouse.invalid", password: "disabled$", name: "x" });
    expect(res.status).toBe(401);
  });

  it("a new value replaces the old one (the old one is 401)", async () => {
    const next = "bootstrap-second-value-0123456789-xyz";
    await bootstrapAccess({ GATEHOUSE_BOOTSTRAP_TOKEN: next });
    expectUnauthorized(await callRoute(users.GET, { token: VALUE }));
    expect((await callRoute(users.GET, { token: next })).status).toBe(200);
  });

  it("a value under 20 characters is not enabled", async () => {
    const short = "short-value-19chars";
    expect(short.length).toBeLessThan(20);
    const before = await db.t().db.apiToken.count();
    await bootstrapAccess({ GATEHOUSE_BOOTSTRAP_TOKEN: short });
    expect(await db.t().db.apiToken.count()).toBe(before);
    expectUnauthorized(await callRoute(users.GET, { token: short }));
  });
});

describe("GATEHOUSE_ADMIN_EMAIL / GATEHOUSE_ADMIN_PASSWORD", () => {
  const db = withFreshDb();
  const env = { GATEHOUSE_ADMIN_EMAIL: "First@Example.test", GATEHOUSE_ADMIN_PASSWORD: "first-admin-password" };

  it("a password under 10 characters creates no admin", async () => {
    await bootstrapAccess({ GATEHOUSE_ADMIN_EMAIL: "first@example.test", GATEHOUSE_ADMIN_PASSWORD: "short" });
    expect(await db.t().db.user.count()).toBe(0);
  });

  it("creates the first admin when no user exists; that admin can get a token and manage users", async () => {
    expect(await db.t().db.user.count()).toBe(0);
    await bootstrapAccess(env);
    const rows = await db.t().db.user.findMany();
    expect(rows.map((r) => [r.email, r.isAdmin])).toEqual([["first@example.test", true]]);
    expect(rows[0].passwordHash).not.toContain(env.GATEHOUSE_ADMIN_PASSWORD);
    const res = await requestToken({
      email: "first@example.test",
      password: env.GATEHOUSE_ADMIN_PASSWORD,
      name: "setup",
    });
    expect(res.status, res.text).toBe(201);
    expect((await callRoute(users.GET, { token: res.json.token })).status).toBe(200);
  });

  it("does nothing once a user exists (another email, or the same email with another password)", async () => {
    await bootstrapAccess({
      GATEHOUSE_ADMIN_EMAIL: "second@example.test",
      GATEHOUSE_ADMIN_PASSWORD: "second-admin-password",
    });
    await bootstrapAccess({
      GATEHOUSE_ADMIN_EMAIL: env.GATEHOUSE_ADMIN_EMAIL,
      GATEHOUSE_ADMIN_PASSWORD: "a-new-password-attempt",
    });
    expect((await db.t().db.user.findMany()).map((r) => r.email)).toEqual(["first@example.test"]);
    expect(
      (await requestToken({ email: "second@example.test", password: "second-admin-password", name: "x" })).status,
    ).toBe(401);
    expect(
      (await requestToken({ email: "first@example.test", password: "a-new-password-attempt", name: "x" })).status,
    ).toBe(401);
  });
});

describe("with no users at all, the bootstrap token alone still gives admin access", () => {
  const db = withFreshDb();
  it("with only one of GATEHOUSE_ADMIN_EMAIL / _PASSWORD set, no admin is created", async () => {
    await expectNoChange(db.t().db, () => bootstrapAccess({ GATEHOUSE_ADMIN_EMAIL: "third@example.test" }));
    await expectNoChange(db.t().db, () => bootstrapAccess({ GATEHOUSE_ADMIN_PASSWORD: "third-admin-password" }));
    expect(await db.t().db.user.count()).toBe(0);
  });

  it("a bootstrap-only start-up (no admin email) gives an admin token and creates no person who can \
sign in", async () => {
    const value = "only-bootstrap-value-0123456789abcdef";
    await bootstrapAccess({ GATEHOUSE_BOOTSTRAP_TOKEN: value });
    expect((await callRoute(users.GET, { token: value })).status).toBe(200);
    const people = await db.t().db.user.findMany();
    expect(people.map((p) => p.email)).toEqual(["automation@gatehouse.invalid"]);
    expect(people[0].passwordHash).toBe("disabled$");
  });
});
