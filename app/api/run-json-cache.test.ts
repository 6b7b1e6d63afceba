// GET /api/runs/:id answered from a presentation shared by the run's viewers (lib/api/run-json-cache.ts):
// the same JSON as one built for the request, held-out details never crossing from a lead's entry to a
// viewer's (or back), and a change made through this server seen on the very next poll.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { getDb } from "@/lib/db/client";
import { presentRun } from "@/lib/api/present-run";
import { loadRunDetail } from "@/lib/services/run-detail";
import { dispatchTask } from "@/lib/services/runs";
import { grant, makePerson, type Person } from "@/lib/testing/access-fixture";
import { callRoute } from "@/lib/testing/call-route";
import { check, createHarness, makeScenario, settle, type Harness } from "@/lib/testing/runner-harness";
import { GET as getRun } from "./runs/[id]/route";

const HELD_OUT = "echo held-out-numbat-4411";
let h: Harness;
let admin: Person;
let lead: Person;
let viewer: Person;
let workId: string;
let taskId: string;

const ask = (runId: string, p: Person, etag?: string) =>
  callRoute(getRun, {
    path: `/api/runs/${runId}`,
    params: { id: runId },
    token: p.token,
    headers: etag ? { "if-none-match": etag } : {},
  });

async function finishedRun(): Promise<string> {
  const run = await dispatchTask(SYSTEM_ACTOR, taskId);
  await settle(h, run.id);
  return run.id;
}

beforeAll(async () => {
  h = await createHarness();
  const s = await makeScenario(h, {
    checkDefaults: [check("visible", "echo shown"), check("held", HELD_OUT, { hidden: true })],
  });
  workId = s.work.id;
  taskId = s.task.id;
  [admin, lead, viewer] = await Promise.all([
    makePerson("cache-admin", { admin: true }),
    makePerson("cache-lead"),
    makePerson("cache-viewer"),
  ]);
  await grant(workId, lead, "lead");
  await grant(workId, viewer, "viewer");
}, 120_000);
afterAll(async () => h?.cleanup());

describe("the run's JSON shared by its viewers", () => {
  it("is the JSON built for the asker, and its ETag answers 304", async () => {
    const runId = await finishedRun();
    for (const p of [admin, viewer, admin, viewer]) {
      const res = await ask(runId, p);
      expect(res.status).toBe(200);
      const actor = {
        userId: p.id,
        label: p.email,
        email: p.email,
        isAdmin: p.isAdmin,
        via: "token" as const,
        tokenId: p.tokenId,
      };
      expect(res.text).toBe(JSON.stringify(presentRun(await loadRunDetail(actor, runId))));
      const again = await ask(runId, p, res.headers.get("etag")!);
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
    }
  });

  it("never hands a viewer the held-out details cached for a lead or an admin, nor the reverse", async () => {
    for (const order of [
      [admin, viewer, lead],
      [viewer, lead, admin],
    ]) {
      const runId = await finishedRun();
      const answers = await Promise.all(order.map((p) => ask(runId, p)));
      const byPerson = new Map(order.map((p, i) => [p, answers[i]]));
      expect(byPerson.get(viewer)!.json.seesHidden).toBe(false);
      expect(byPerson.get(viewer)!.text).not.toContain("held-out-numbat-4411");
      for (const p of [admin, lead]) {
        expect(byPerson.get(p)!.json.seesHidden).toBe(true);
        expect(byPerson.get(p)!.text).toContain("held-out-numbat-4411");
      }
      // A viewer's ETag is not a lead's: revalidating with the lead's never gets a viewer a 304 of it.
      const leadTag = byPerson.get(lead)!.headers.get("etag")!;
      expect(byPerson.get(viewer)!.headers.get("etag")).not.toBe(leadTag);
      expect((await ask(runId, viewer, leadTag)).status).toBe(200);
    }
  });

  it("shows a change made through this server on the next poll, whether to the run or its rows", async () => {
    const runId = await finishedRun();
    const first = await ask(runId, admin);
    await getDb().checkResult.updateMany({ where: { runId, checkId: "visible" }, data: { message: "re-read" } });
    const afterRow = await ask(runId, admin, first.headers.get("etag")!);
    expect(afterRow.status).toBe(200);
    expect(afterRow.text).toContain('"message":"re-read"');
    await getDb().run.update({ where: { id: runId }, data: { endingReason: "said again" } });
    const afterRun = await ask(runId, admin, afterRow.headers.get("etag")!);
    expect(afterRun.status).toBe(200);
    expect(afterRun.json.endingReason).toBe("said again");
    // Raw SQL through this server's client counts too (the result rows are written that way).
    await getDb().$executeRaw`UPDATE "CheckResult" SET "message" = 'written raw' WHERE "runId" = ${runId}`;
    const afterRaw = await ask(runId, admin, afterRun.headers.get("etag")!);
    expect(afterRaw.status).toBe(200);
    expect(afterRaw.text).toContain('"message":"written raw"');
  });

  it("answers a hundred concurrent viewers alike", async () => {
    const runId = await finishedRun();
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => ask(runId, i % 2 ? viewer : lead)));
    expect(new Set(answers.filter((_, i) => i % 2).map((a) => a.text)).size).toBe(1);
    expect(new Set(answers.filter((_, i) => !(i % 2)).map((a) => a.text)).size).toBe(1);
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });
});
