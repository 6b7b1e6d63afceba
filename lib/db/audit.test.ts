// The audit trail's "who" filter against the real database, alike on SQLite and PostgreSQL (TEST_DATABASE_URL):
// part of the actor's label, case aside (ASCII and beyond), literally (% and _ are no wildcards).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../testing/test-db";
import { listAuditEvents } from "./audit";

let t: TestDb;
const start = Date.parse("2026-03-04T05:06:07.000Z");

// Each row is named by its summary; the first is the newest.
const ROWS: { name: string; label: string; workId?: string; atMs?: number }[] = [
  { name: "system-w1", label: "Gatehouse", workId: "w1" },
  { name: "system-w2", label: "Gatehouse", workId: "w2" },
  { name: "worker-a", label: "Worker-A", workId: "w1" },
  { name: "worker-b", label: "worker-b" },
  { name: "ana", label: "ana@example.test", workId: "w1" },
  { name: "percent", label: "100%_done" },
  // What % or _ would let through as wildcards.
  { name: "hundred", label: "100x done" },
  { name: "ärger", label: "Ärger-Bot" },
  { name: "jürgen", label: "jürgen@example.test" },
  { name: "ivan", label: "Иван Петров" },
  // The ohm sign, whose lower case is omega's.
  { name: "ohm", label: "\u2126hm-meter" },
  { name: "backslash", label: "back\\slash" },
];

beforeAll(async () => {
  t = await createTestDb();
  await t.db.auditEvent.createMany({
    data: ROWS.map((r, i) => ({
      id: `caudit${String(i).padStart(4, "0")}`,
      at: new Date(r.atMs ?? start - i * 1000),
      actorLabel: r.label,
      via: "token",
      action: "auth.signin",
      summary: r.name,
      workId: r.workId ?? null,
    })),
  });
});
afterAll(async () => t?.cleanup());

const who = async (actorLike: string, opts: { workId?: string } = {}) =>
  (await listAuditEvents({ actorLike, take: 50, ...opts })).map((e) => e.summary).sort();

describe("listAuditEvents({ actorLike }): part of who did it", () => {
  it.each([
    ["gatehouse", ["system-w1", "system-w2"]],
    ["GATEHOUSE", ["system-w1", "system-w2"]],
    ["Gatehouse", ["system-w1", "system-w2"]],
    ["gAtEhOuSe", ["system-w1", "system-w2"]],
    ["worker-a", ["worker-a"]],
    ["WORKER", ["worker-a", "worker-b"]],
    ["ANA@Example", ["ana"]],
    ["nobody", []],
  ])("case aside: %s", async (typed, expected) => {
    expect(await who(typed)).toEqual(expected);
  });

  it.each([
    ["%", ["percent"]],
    ["_", ["percent"]],
    ["0%_D", ["percent"]],
    ["100%", ["percent"]],
    ["100_", []],
    ["x%", []],
    ["\\", ["backslash"]],
    ["K\\S", ["backslash"]],
  ])("literally: %s", async (typed, expected) => {
    expect(await who(typed)).toEqual(expected);
  });

  it.each([
    ["ärger", ["ärger"]],
    ["ÄRGER-bot", ["ärger"]],
    ["JÜRGEN@", ["jürgen"]],
    ["иван", ["ivan"]],
    ["ИВАН п", ["ivan"]],
    ["Ä", ["ärger"]],
    ["ωHM", ["ohm"]],
    ["ΩHM", ["ohm"]],
    // Case only: a letter and its accented one are different letters.
    ["arger", []],
  ])("case aside beyond ASCII: %s", async (typed, expected) => {
    expect(await who(typed)).toEqual(expected);
  });

  it("with workId: that Work's entries by who was typed", async () => {
    expect(await who("gatehouse", { workId: "w1" })).toEqual(["system-w1"]);
    expect(await who("WORKER", { workId: "w1" })).toEqual(["worker-a"]);
    expect(await who("worker", { workId: "w2" })).toEqual([]);
  });

  it("page after page with the cursor (time and id): every match once, in order, across entries of one \
millisecond", async () => {
    const at = new Date(start - 100_000);
    const labels = ["Pager-Bot", "other", "PAGER-BOT", "pager-bot", "other", "Pager-bot", "PaGeR-BoT", "other"];
    await t.db.auditEvent.createMany({
      data: labels.map((label, i) => ({
        id: `cpager${String(i).padStart(4, "0")}`,
        // Three pairs share a millisecond; pages of two end inside them.
        at: new Date(at.getTime() - Math.floor(i / 2)),
        actorLabel: label,
        via: "token",
        action: "auth.signin",
        summary: `pager ${i}`,
      })),
    });
    const seen: string[] = [];
    let cursor: { before?: Date; beforeId?: string } = {};
    for (let page = 0; page < 10; page++) {
      const events = await listAuditEvents({ actorLike: "pager-BOT", take: 2, ...cursor });
      seen.push(...events.map((e) => e.summary));
      const last = events.at(-1);
      if (events.length < 2 || !last) break;
      cursor = { before: last.at, beforeId: last.id };
    }
    expect(seen).toEqual(["pager 0", "pager 3", "pager 2", "pager 5", "pager 6"]);
  });

  it("fills the page though the database lets through more rows than the match keeps", async () => {
    await t.db.auditEvent.createMany({
      data: Array.from({ length: 5 }, (_, i) => ({
        id: `cbait${String(i).padStart(4, "0")}`,
        at: new Date(start + 1000 + i),
        actorLabel: `100${i} bait`,
        via: "token",
        action: "auth.signin",
        summary: `bait ${i}`,
      })),
    });
    const events = await listAuditEvents({ actorLike: "0%", take: 1 });
    expect(events.map((e) => e.summary)).toEqual(["percent"]);
  });
});
