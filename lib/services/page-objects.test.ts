// What proxy.ts asks before a page of one Work, task or run, an admin's page or the audit trail streams: which
// object of its address is missing (or not the reader's).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR, type Actor } from "../auth/actor";
import { getDb } from "../db/client";
import { checkLogPathOf } from "../runner/paths";
import { pageObjectsOf } from "../pages/page-address";
import { createTestDbWithRun, seedWork } from "../testing/seeded-rows";
import type { TestDb } from "../testing/test-db";
import { findMissingObject } from "./page-objects";

const person = (userId: string): Actor => ({
  userId,
  label: userId,
  email: `${userId}@example.test`,
  isAdmin: false,
  via: "session",
  tokenId: null,
});
const viewer = person("viewer");
const outsider = person("outsider");
const lead = person("lead");

let t: TestDb;
beforeAll(async () => {
  // Work "w", task "a", run "r" with attempts 1 and 2; attempt 1's "unit" passed and wrote a log, its "lint"
  // was skipped (no log). Another Work "v" the viewer has no role on.
  t = await createTestDbWithRun({ attempts: 2 });
  await seedWork("v");
  const db = getDb();
  for (const id of ["viewer", "outsider", "lead"])
    await db.user.create({ data: { id, email: `${id}@example.test`, name: id, passwordHash: "x" } });
  await db.membership.create({ data: { workId: "w", userId: "viewer", role: "viewer" } });
  await db.membership.create({ data: { workId: "w", userId: "lead", role: "lead" } });
  const result = { attemptId: "r-1", runId: "r", kind: "test", required: true, logAttempt: 1 } as const;
  await db.checkResult.createMany({
    data: [
      { ...result, position: 0, checkId: "unit", name: "Unit", verdict: "passed" },
      { ...result, position: 1, checkId: "lint", name: "Lint", verdict: "skipped" },
    ],
  });
  const log = checkLogPathOf(t.dataDir, "r", 1, "unit");
  fs.mkdirSync(path.dirname(log), { recursive: true });
  fs.writeFileSync(log, "ok\n");
});
afterAll(async () => t.cleanup());

const missing = (actor: Actor, address: string) => {
  const url = new URL(address, "http://gatehouse.test");
  return findMissingObject(actor, pageObjectsOf(url.pathname, url.searchParams)!);
};

describe("findMissingObject", () => {
  it.each([
    ["/works/w", null],
    ["/works/w/settings/proof", null],
    ["/works/w/settings/general", null],
    ["/works/w/settings/history", null],
    ["/works/w/settings/nope", "section"],
    ["/works/nope/settings/nope", "work"],
    ["/works/nope", "work"],
    ["/works/v", "work"],
    ["/tasks/a", null],
    ["/tasks/a/edit", null],
    ["/tasks/nope", "task"],
    ["/runs/r", null],
    ["/runs/nope", "run"],
    // The run page's ?attempt= is the reader's choice, not an object: one the run lacks shows the latest.
    ["/runs/r?attempt=2", null],
    ["/runs/r?attempt=3", null],
    ["/runs/r?attempt=abc", null],
    ["/runs/nope?attempt=1", "run"],
    ["/runs/r/attempts/1/checks/unit/log", null],
    ["/runs/nope/attempts/1/checks/unit/log", "run"],
    ["/runs/r/attempts/9/checks/unit/log", "attempt"],
    ["/runs/r/attempts/abc/checks/unit/log", "attempt"],
    ["/runs/r/attempts/01/checks/unit/log", "attempt"],
    ["/runs/r/attempts/2/checks/unit/log", "check"],
    ["/runs/r/attempts/1/checks/nope/log", "check"],
    ["/runs/r/attempts/1/checks/lint/log", "check"],
    ["/runs/r/attempts/1/checks/Not%20an%20id!/log", "check"],
    ["/runs/r/attempts/1/checks/_agent/log", "check"],
    // Not an admin, nor a lead of "w": neither the admins' pages nor an audit trail are the viewer's.
    ["/admin/users", "admin page"],
    ["/admin/workers", "admin page"],
    ["/audit", "audit trail"],
    ["/audit?workId=w", "audit trail"],
    ["/audit?workId=v", "audit trail"],
    ["/audit?workId=nope", "audit trail"],
  ])("a viewer of the Work: %s → %s", async (address, expected) => {
    expect(await missing(viewer, address)).toBe(expected);
  });

  it("an admin sees every Work's objects, the admins' pages and every audit trail", async () => {
    expect(await missing(SYSTEM_ACTOR, "/works/v")).toBeNull();
    expect(await missing(SYSTEM_ACTOR, "/runs/r/attempts/1/checks/unit/log")).toBeNull();
    for (const address of ["/admin/users", "/admin/workers", "/audit", "/audit?workId=w", "/audit?workId=v"])
      expect([address, await missing(SYSTEM_ACTOR, address)]).toEqual([address, null]);
    expect(await missing(SYSTEM_ACTOR, "/audit?workId=nope")).toBe("audit trail");
  });

  it("a lead reads their Work's audit trail, not the whole trail nor another Work's", async () => {
    expect(await missing(lead, "/audit?workId=w")).toBeNull();
    expect(await missing(lead, "/audit")).toBe("audit trail");
    expect(await missing(lead, "/audit?workId=v")).toBe("audit trail");
    expect(await missing(lead, "/admin/users")).toBe("admin page");
  });

  // A held-out check's log is refused to a viewer as forbidden, not as missing: the page is there (200) and
  // says so itself.
  it("a held-out check's log is there for a viewer, whose page then says it is held out", async () => {
    const db = getDb();
    const run = await db.run.findUniqueOrThrow({ where: { id: "r" } });
    const checks = [
      ...(run.checks as object[]),
      { id: "held", name: "Held", kind: "test", command: "true", hidden: true },
    ];
    await db.run.update({ where: { id: "r" }, data: { checks } });
    await db.checkResult.create({
      data: {
        attemptId: "r-1",
        runId: "r",
        kind: "test",
        required: true,
        logAttempt: 1,
        position: 2,
        checkId: "held",
        name: "Held",
        verdict: "passed",
      },
    });
    const log = checkLogPathOf(t.dataDir, "r", 1, "held");
    fs.writeFileSync(log, "held out\n");
    expect(await missing(viewer, "/runs/r/attempts/1/checks/held/log")).toBeNull();
    expect(await missing(outsider, "/runs/r/attempts/1/checks/held/log")).toBe("run");
  });

  // A Work one has no role on is indistinguishable from one that does not exist, and so is all it holds.
  it.each([
    ["/works/w", "work"],
    ["/tasks/a", "task"],
    ["/runs/r", "run"],
    ["/runs/r/attempts/1/checks/unit/log", "run"],
  ])("someone with no role on the Work: %s → %s", async (address, expected) => {
    expect(await missing(outsider, address)).toBe(expected);
  });
});
