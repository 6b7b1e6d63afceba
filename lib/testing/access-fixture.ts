// Test helper for access-control tests: people with passwords and API tokens, roles on Works, the
// expected shape of refusals, and a snapshot of everything a request could change (to prove that a
// refused request changed nothing).
import { expect } from "vitest";
import type { Json } from "./json";
import { SYSTEM_ACTOR } from "../auth/actor";
import type { Role } from "../auth/roles";
import type { Db } from "../db/client";
import { createTokenWithPassword } from "../services/auth";
import { createUser, setMemberRole } from "../services/users";

export type Person = { id: string; email: string; password: string; token: string; tokenId: string; isAdmin: boolean };

let personSeq = 0;

// A user (admin or not) with a password and a fresh API token. The token is obtained the way a CLI
// would (email + password), from an address of its own so no throttle is shared with the test.
export async function makePerson(label: string, opts: { admin?: boolean } = {}): Promise<Person> {
  const email = `${label}-${++personSeq}-${process.pid}@example.test`;
  const password = `pw-${label}-correct-horse`;
  const user = await createUser(SYSTEM_ACTOR, { email, password, name: label, admin: opts.admin ?? false });
  const { token, record } = await createTokenWithPassword(
    { email, password, name: `${label} test token` },
    `fixture-${label}-${personSeq}`,
  );
  return { id: user.id, email, password, token, tokenId: record.id, isAdmin: user.isAdmin };
}

export async function grant(workId: string, person: { id: string }, role: Role): Promise<void> {
  await setMemberRole(SYSTEM_ACTOR, workId, person.id, { role });
}

type Res = { status: number; json: Json; text: string };

// A refusal for lack of a Work role: 403, code forbidden, naming the role it takes (and the one held).
export function expectForbiddenRole(res: Res, needed: Role | "admin", held?: string): void {
  expect(res.status, res.text).toBe(403);
  expect(res.json?.error?.code).toBe("forbidden");
  const message: string = res.json.error.message;
  if (needed === "admin") expect(message).toMatch(/\badmin\b/);
  else
    expect(message).toContain(`the ${needed} role on this Work (${needed === "engineer" ? "an" : "a"} ${needed} may`);
  if (held) expect(message).toContain(held);
}

// A Work the caller has no role on is indistinguishable from one that does not exist.
export function expectWorkNotFound(res: Res): void {
  expect(res.status, res.text).toBe(404);
  expect(res.json?.error?.code).toBe("not_found");
  expect(res.json.error.message).toBe("Work not found");
}

export function expectUnauthorized(res: Res & { headers?: Headers }): void {
  expect(res.status, res.text).toBe(401);
  expect(res.json?.error?.code).toBe("unauthorized");
  expect(typeof res.json.error.message).toBe("string");
  expect(res.json.error.message.length).toBeGreaterThan(0);
}

// Everything a route could change, as one comparable string. Left out: API token use times and
// sessions (reading with credentials touches them) and auth.* audit entries (token use is audited).
export async function snapshotState(db: Db): Promise<string> {
  const [users, works, tasks, runs, attempts, results, memberships, secrets, audit] = await Promise.all([
    db.user.findMany({ orderBy: { id: "asc" } }),
    db.work.findMany({ orderBy: { id: "asc" } }),
    db.task.findMany({ orderBy: { id: "asc" } }),
    db.run.findMany({ orderBy: { id: "asc" } }),
    db.attempt.findMany({ orderBy: { id: "asc" } }),
    db.checkResult.findMany({ orderBy: { id: "asc" } }),
    db.membership.findMany({ orderBy: [{ workId: "asc" }, { userId: "asc" }] }),
    db.secret.findMany({ orderBy: { id: "asc" } }),
    db.auditEvent.findMany({ where: { NOT: { action: { startsWith: "auth." } } }, orderBy: { id: "asc" } }),
  ]);
  return JSON.stringify({ users, works, tasks, runs, attempts, results, memberships, secrets, audit }, (_key, value) =>
    typeof value === "bigint" ? `${value}n` : value,
  );
}

// Runs `refused` and asserts that it changed nothing at all.
export async function expectNoChange<T>(db: Db, refused: () => Promise<T>): Promise<T> {
  const before = await snapshotState(db);
  const result = await refused();
  expect(await snapshotState(db), "a refused request must change nothing").toBe(before);
  return result;
}
