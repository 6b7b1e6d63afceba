// Webhooks through the JSON API: a Work's list stored and answered with the secret hidden (secretSet), a
// change that leaves the secret out keeping it, every bad value refused with its field path and nothing
// half-saved; a webhook's delivery log (GET) and redelivery (POST) for leads, against a real receiver.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openSecret } from "@/lib/auth/secret-box";
import { expectForbiddenRole, grant, makePerson, type Person } from "@/lib/testing/access-fixture";
import { callRoute, sendTokenByDefault } from "@/lib/testing/call-route";
import type { Json } from "@/lib/testing/json";
import { check, createHarness, dispatchAndSettle, type Harness } from "@/lib/testing/runner-harness";
import { startReceiver, type Receiver } from "@/lib/testing/webhook-receiver";
import { whenWebhooksIdle } from "@/lib/runner/webhook-sender";
import { createTask } from "@/lib/services/tasks";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import * as works from "./works/route";
import * as work from "./works/[id]/route";
import * as deliveries from "./works/[id]/webhooks/[webhookId]/deliveries/route";
import * as redeliver from "./works/[id]/webhooks/[webhookId]/deliveries/[deliveryId]/redeliver/route";

let h: Harness;
let engineer: Person;
let receiver: Receiver;
let repoUrl = "";
beforeAll(async () => {
  h = await createHarness();
  sendTokenByDefault((await makePerson("admin", { admin: true })).token);
  engineer = await makePerson("engineer");
  receiver = await startReceiver(() => 200);
  repoUrl = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-webhooks-repo-"));
  execFileSync("git", ["init", "-q", "--bare", repoUrl]);
});
afterEach(() => whenWebhooksIdle());
afterAll(async () => {
  await receiver?.close();
  fs.rmSync(repoUrl, { recursive: true, force: true });
  await h?.cleanup();
});

const SECRET = "first-secret-value-41";
let seq = 0;
const postWork = (body: Record<string, unknown>) =>
  callRoute(works.POST, { method: "POST", body: { name: `Hooked ${++seq}`, repoUrl, ...body } });
const getWork = (id: string) => callRoute(work.GET, { params: { id } });
const patchWork = (id: string, body: unknown) => callRoute(work.PATCH, { method: "PATCH", params: { id }, body });
const hook = (extra: Record<string, unknown> = {}) => ({
  url: receiver.url,
  events: ["run.ended"],
  secret: SECRET,
  ...extra,
});

function issuesOf(res: { status: number; json: Json }): { path: string; message: string }[] {
  expect(res.status, JSON.stringify(res.json)).toBe(400);
  expect(res.json.error.code).toBe("validation");
  return res.json.error.issues as unknown as { path: string; message: string }[];
}

async function storedWebhooks(workId: string) {
  const row = await h.t.db.work.findUniqueOrThrow({ where: { id: workId }, select: { webhooks: true } });
  return row.webhooks as { id: string; url: string; secret: string }[];
}

describe("a Work's webhooks", () => {
  it("stores the secret sealed, answers only that one is set, and keeps it when a change leaves it out", async () => {
    const created = await postWork({ webhooks: [hook()] });
    expect(created.status, created.text).toBe(201);
    const [shown] = created.json.webhooks;
    expect(shown).toEqual({
      id: expect.any(String),
      url: receiver.url,
      events: ["run.ended"],
      secret: null,
      secretSet: true,
    });
    expect(created.text).not.toContain(SECRET);
    const [stored] = await storedWebhooks(created.json.id);
    expect(stored.secret).not.toContain(SECRET);
    expect(openSecret(stored.secret)).toBe(SECRET);
    expect(await h.t.holds(SECRET)).toBe(false);

    // What a GET gave, sent back with another event: the same webhook, the same secret.
    const read = await getWork(created.json.id);
    expect(read.text).not.toContain(stored.secret);
    const edited = await patchWork(created.json.id, {
      version: read.json.version,
      webhooks: [{ ...(read.json.webhooks[0] as object), events: ["run.started", "run.ended"] }],
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.webhooks[0]).toMatchObject({
      id: shown.id,
      events: ["run.started", "run.ended"],
      secretSet: true,
    });
    expect(openSecret((await storedWebhooks(created.json.id))[0].secret)).toBe(SECRET);

    // A new secret replaces it.
    const rotated = await patchWork(created.json.id, {
      version: edited.json.version,
      webhooks: [
        { id: shown.id, url: receiver.url, events: ["run.started", "run.ended"], secret: "second-secret-value-42" },
      ],
    });
    expect(rotated.status, rotated.text).toBe(200);
    expect(openSecret((await storedWebhooks(created.json.id))[0].secret)).toBe("second-secret-value-42");
    // Audited without the value: the trail says a secret was set, and no table holds it in clear.
    const audit = await h.t.db.auditEvent.findMany({ where: { workId: created.json.id, action: "work.update" } });
    expect(audit.map((a) => a.summary)).toContain("changed webhook 1's secret");
    expect(await h.t.holds("second-secret-value-42")).toBe(false);
  });

  it("refuses bad webhooks naming the field path, and saves nothing of that request", async () => {
    const created = await postWork({ webhooks: [hook()] });
    const before = await storedWebhooks(created.json.id);
    const refused = async (webhooks: unknown, extra: Record<string, unknown> = {}) => {
      const res = await patchWork(created.json.id, {
        version: created.json.version,
        name: "Renamed",
        ...extra,
        webhooks,
      });
      return issuesOf(res);
    };
    expect(await refused([hook(), hook({ url: "ftp://example.test/hook" })])).toEqual([
      { path: "webhooks.1.url", message: "must be an http:// or https:// URL, not ftp:" },
    ]);
    expect(await refused([hook({ url: "not a url" })])).toEqual([
      { path: "webhooks.0.url", message: "not a URL: use http://host/path or https://host/path" },
    ]);
    expect(await refused([hook({ events: ["run.ended", "run.exploded"] })])).toEqual([
      { path: "webhooks.0.events.1", message: "not an event: use run.started, run.ended, decision.needed" },
    ]);
    expect(await refused([hook({ events: [] })])).toEqual([
      { path: "webhooks.0.events", message: "at least one event: run.started, run.ended, decision.needed" },
    ]);
    expect(await refused(Array.from({ length: 11 }, () => hook()))).toEqual([
      { path: "webhooks", message: "at most 10 webhooks" },
    ]);
    expect(await refused([hook({ secret: "short" })])).toEqual([
      { path: "webhooks.0.secret", message: "at least 8 characters" },
    ]);
    expect(await refused([hook({ headers: {} })])).toEqual([
      { path: "webhooks.0.headers", message: "unknown field: headers" },
    ]);
    // A new webhook (no id of this Work's) must bring its secret.
    expect(
      await refused([
        before[0] && { id: before[0].id, url: receiver.url, events: ["run.ended"] },
        hook({ secret: null }),
      ]),
    ).toEqual([
      {
        path: "webhooks.1.secret",
        message: "required for a new webhook: at least 8 characters (it signs every delivery)",
      },
    ]);
    const after = await getWork(created.json.id);
    expect([after.json.name, after.json.version]).toEqual([created.json.name, created.json.version]);
    expect(await storedWebhooks(created.json.id)).toEqual(before);
  });
});

describe("the delivery log and redelivery", () => {
  it("lists a webhook's deliveries for leads, and sends one again as a new delivery", async () => {
    const created = await postWork({ webhooks: [hook()], checkDefaults: [check("unit", "exit 0")], profile: "lite" });
    const workId = created.json.id;
    const webhookId = created.json.webhooks[0].id;
    const task = await createTask(SYSTEM_ACTOR, workId, { title: "Hooked task" });
    await dispatchAndSettle(h, task.id);
    await whenWebhooksIdle();

    const log = await callRoute(deliveries.GET, { params: { id: workId, webhookId } });
    expect(log.status, log.text).toBe(200);
    expect(log.json.deliveries).toHaveLength(1);
    const [first] = log.json.deliveries;
    expect(first).toMatchObject({
      event: "run.ended",
      state: "delivered",
      statusCode: 200,
      attempt: 1,
      url: receiver.url,
    });
    expect(JSON.parse(first.body)).toMatchObject({ event: "run.ended", task: { id: task.id } });

    const again = await callRoute(redeliver.POST, {
      method: "POST",
      params: { id: workId, webhookId, deliveryId: first.id },
    });
    expect(again.status, again.text).toBe(201);
    expect(again.json).toMatchObject({ event: "run.ended", state: "delivered", statusCode: 200, body: first.body });
    expect(again.json.deliveryId).not.toBe(first.deliveryId);
    // It names the delivery it repeats, in the log and to the receiver; the event's own delivery names none.
    expect([first.redeliveryOf, again.json.redeliveryOf]).toEqual([null, first.deliveryId]);
    expect(receiver.received.at(-1)?.headers["x-gatehouse-delivery"]).toBe(again.json.deliveryId);
    expect(receiver.received.at(-1)?.headers["x-gatehouse-redelivery-of"]).toBe(first.deliveryId);
    expect(receiver.received.at(-2)?.headers["x-gatehouse-redelivery-of"]).toBeUndefined();
    // Sent again from the redelivery: still the event's first delivery, not the redelivery.
    const third = await callRoute(redeliver.POST, {
      method: "POST",
      params: { id: workId, webhookId, deliveryId: again.json.id },
    });
    expect([third.status, third.json.redeliveryOf]).toEqual([201, first.deliveryId]);
    expect(third.json.deliveryId).not.toBe(again.json.deliveryId);
    const relisted = await callRoute(deliveries.GET, { params: { id: workId, webhookId }, path: "/?limit=1" });
    expect(relisted.json.deliveries.map((d) => d.id)).toEqual([third.json.id]);

    // Bad input: the field path; an unknown webhook or delivery: 404; an engineer: 403.
    // The query read as every route reads one: digits only, an empty value absent, other parameters ignored.
    const listed = (query: string) =>
      callRoute(deliveries.GET, { params: { id: workId, webhookId }, path: `/?${query}` });
    for (const limit of ["0", "1e2", "0x10", "-1", "201", "1.5"])
      expect(issuesOf(await listed(`limit=${limit}`)), limit).toEqual([
        { path: "limit", message: "must be a whole number from 1 to 200" },
      ]);
    const defaults = await listed("limit=&page=2&_=1733550000");
    expect(defaults.status, defaults.text).toBe(200);
    expect(defaults.json.deliveries.length).toBeGreaterThan(1);
    expect(issuesOf(await listed("before=yesterday"))).toEqual([
      { path: "before", message: "must be a nextBefore the log gave" },
    ]);
    const noHook = await callRoute(deliveries.GET, { params: { id: workId, webhookId: "nope" } });
    expect([noHook.status, noHook.json.error.message]).toEqual([404, "Webhook not found"]);
    const noDelivery = await callRoute(redeliver.POST, {
      method: "POST",
      params: { id: workId, webhookId, deliveryId: "nope" },
    });
    expect([noDelivery.status, noDelivery.json.error.message]).toEqual([404, "Delivery not found"]);
    await grant(workId, engineer, "engineer");
    expectForbiddenRole(
      await callRoute(deliveries.GET, { token: engineer.token, params: { id: workId, webhookId } }),
      "lead",
    );
  });
});

describe("the delivery log's order and pages", () => {
  // A webhook's log as a receiver that redirects leaves it: each event tried 3 times, the retries sent while
  // later events were already being written down; two events logged in the same millisecond.
  async function seededLog() {
    const created = await postWork({ webhooks: [hook()] });
    const workId = created.json.id;
    const webhookId = created.json.webhooks[0].id;
    const t0 = Date.parse("2026-03-01T22:41:49.000Z");
    const at = (s: number) => new Date(t0 + s * 1000);
    const rows: { deliveryId: string; attempt: number; createdAt: Date; sentAt: Date }[] = [];
    // Delivery d0 at 0 s, d1 at 4 s, d2 at 8 s, d3 at 12 s, d4 and d5 at 16 s, d6 at 20 s; each retried 2 s
    // after its first try and 10 s after its second.
    const starts = [0, 4, 8, 12, 16, 16, 20];
    starts.forEach((start, i) => {
      rows.push({ deliveryId: `d${i}`, attempt: 1, createdAt: at(start), sentAt: at(start) });
      rows.push({ deliveryId: `d${i}`, attempt: 2, createdAt: at(start), sentAt: at(start + 2) });
      rows.push({ deliveryId: `d${i}`, attempt: 3, createdAt: at(start + 2), sentAt: at(start + 10) });
    });
    await h.t.db.webhookDelivery.createMany({
      data: rows.map((r) => ({
        ...r,
        workId,
        webhookId,
        webhookIndex: 0,
        url: receiver.url,
        event: "run.ended",
        runId: null,
        maxAttempts: 3,
        state: "failed",
        statusCode: 302,
        error: "the receiver answered HTTP 302",
        durationMs: 4,
        body: "{}",
        dueAt: r.sentAt,
      })),
    });
    const page = (query: string) =>
      callRoute(deliveries.GET, { params: { id: workId, webhookId }, path: `/?${query}` }).then((res) => {
        expect(res.status, res.text).toBe(200);
        return res.json as unknown as {
          deliveries: { deliveryId: string; attempt: number; reason: string | null }[];
          nextBefore: string | null;
        };
      });
    return { page, workId, webhookId };
  }

  it("lists deliveries newest first, each with all its tries together, newest try first, and says why each \
failed", async () => {
    const { page } = await seededLog();
    const all = await page("limit=50");
    expect(all.nextBefore).toBeNull();
    expect(all.deliveries.map((d) => `${d.deliveryId}/${d.attempt}`)).toEqual(
      ["d6", "d5", "d4", "d3", "d2", "d1", "d0"].flatMap((id) => [`${id}/3`, `${id}/2`, `${id}/1`]),
    );
    expect(new Set(all.deliveries.map((d) => d.reason))).toEqual(
      new Set(["redirects are not followed: give the webhook the URL it redirects to"]),
    );
  });

  it("pages by whole deliveries with nextBefore: every delivery once, none split, same-millisecond ones \
too", async () => {
    const { page, workId, webhookId } = await seededLog();
    const seen: string[] = [];
    // Two a page: d5 and d4, logged in the same millisecond, fall on two pages.
    let query = "limit=2";
    for (let pages = 0; pages < 10; pages++) {
      const { deliveries: rows, nextBefore } = await page(query);
      // Whole deliveries only: every try of each delivery on the page.
      const ids = [...new Set(rows.map((d) => d.deliveryId))];
      expect(rows).toHaveLength(ids.length * 3);
      seen.push(...ids);
      if (!nextBefore) break;
      query = `limit=2&before=${encodeURIComponent(nextBefore)}`;
    }
    expect(seen).toEqual(["d6", "d5", "d4", "d3", "d2", "d1", "d0"]);

    for (const before of ["yesterday", "2026-13-45T99:99:99.999Z_d3"]) {
      const wrong = await callRoute(deliveries.GET, {
        params: { id: workId, webhookId },
        path: `/?before=${encodeURIComponent(before)}`,
      });
      expect(wrong.status).toBe(400);
      expect(wrong.json.error.issues).toEqual([{ path: "before", message: "must be a nextBefore the log gave" }]);
    }
  });
});
