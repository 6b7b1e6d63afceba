// Webhooks against real receivers on 127.0.0.1: each delivery signed with the webhook's secret over the exact
// body bytes; a receiver failing twice gets the third try (three requests logged, the last 200); a receiver
// that never answers is cut off by the timeout, logged so, and the run ends on time all the same; a retry
// owed when the server stopped is sent by the next start. Real runs through the services.
import { createHmac, timingSafeEqual } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { listDeliveries } from "../db/webhook-deliveries";
import { decideRun } from "../services/runs";
import { WEBHOOK_BACKOFF_MS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_TIMEOUT_MS } from "../gates/webhook-payload";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import { startReceiver, type Receiver } from "../testing/webhook-receiver";
import {
  configureWebhookSender,
  pruneWebhookLog,
  resumeWebhookDeliveries,
  stopWebhookSender,
  WEBHOOK_LOG_KEEP_MS,
  whenWebhooksIdle,
} from "./webhook-sender";

let h: Harness;
const receivers: Receiver[] = [];
beforeAll(async () => {
  h = await createHarness();
});
afterEach(async () => {
  configureWebhookSender({
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    backoffMs: WEBHOOK_BACKOFF_MS,
    maxAttempts: WEBHOOK_MAX_ATTEMPTS,
  });
  for (const r of receivers.splice(0)) await r.close();
});
afterAll(async () => h?.cleanup());

const SECRET = "whsec-test-0123456789";
const ALL_EVENTS = ["run.started", "run.ended", "decision.needed"];

// What a receiver does: recompute the HMAC of the body it got and compare in constant time.
function isSignedWith(body: Buffer, header: string | string[] | undefined, secret: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(body).digest("hex")}`);
  const given = Buffer.from(String(header ?? ""));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function receiver(answer: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

describe("webhooks", () => {
  it("signs each delivery: a receiver verifying the signature accepts run.started, run.ended and decision.needed", async () => {
    const r = await receiver((req) =>
      isSignedWith(req.body, req.headers["x-gatehouse-signature-256"], SECRET) ? 200 : 401,
    );
    const s = await makeScenario(h, {
      maxGateAttempts: 1,
      agentCommand: "true",
      checkDefaults: [
        check("unit", "exit 1"),
        check("secret-check", "echo held-out-command-text; exit 0", { hidden: true }),
      ],
      webhooks: [{ url: r.url, events: ALL_EVENTS, secret: SECRET }],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("partial");
    await whenWebhooksIdle();

    // run.ended and decision.needed leave at the same moment: in either order.
    const byEvent = (event: string) => r.received.find((q) => q.headers["x-gatehouse-event"] === event)!;
    expect(r.received.map((q) => q.headers["x-gatehouse-event"]).sort()).toEqual([
      "decision.needed",
      "run.ended",
      "run.started",
    ]);
    for (const q of r.received) {
      expect(isSignedWith(q.body, q.headers["x-gatehouse-signature-256"], SECRET)).toBe(true);
      expect(isSignedWith(q.body, q.headers["x-gatehouse-signature-256"], "another-secret")).toBe(false);
      expect(q.headers["content-type"]).toBe("application/json");
      expect(q.headers["x-gatehouse-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
    }
    const ended = byEvent("run.ended").json;
    expect(ended).toMatchObject({
      event: "run.ended",
      work: { id: s.work.id, name: s.work.name },
      task: { id: s.task.id, key: s.task.key },
      run: {
        id: detail.run.id,
        url: `http://localhost:3000/runs/${detail.run.id}`,
        ending: "partial",
        gate: "red",
        needsDecision: true,
        attempt: { n: 1, of: 1 },
      },
      checks: [
        { id: "unit", name: "unit passes", verdict: "failed", required: true },
        { id: "secret-check", name: "secret-check passes", verdict: "passed", required: true },
      ],
    });
    // A held-out check is its name and verdict: nothing of what it runs or printed.
    expect(r.received.map((q) => q.body.toString()).join("")).not.toContain("held-out-command-text");

    const log = await listDeliveries({ workId: s.work.id, take: 10 });
    expect(log.map((d) => [d.event, d.state, d.statusCode, d.attempt])).toEqual(
      expect.arrayContaining([
        ["run.started", "delivered", 200, 1],
        ["run.ended", "delivered", 200, 1],
        ["decision.needed", "delivered", 200, 1],
      ]),
    );
    // The logged body is the exact bytes that were signed and sent.
    expect(log.find((d) => d.event === "run.ended")?.body).toBe(byEvent("run.ended").body.toString("utf8"));
  });

  it("retries with backoff: a receiver failing twice with 500 gets the third try; three requests logged, the last 200", async () => {
    configureWebhookSender({ backoffMs: 20 });
    const r = await receiver((_req, i) => (i < 2 ? 500 : 200));
    const s = await makeScenario(h, {
      checkDefaults: [check("unit", "exit 0")],
      webhooks: [{ url: r.url, events: ["run.ended"], secret: SECRET }],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("accepted");
    await whenWebhooksIdle();

    expect(r.received.map((q) => q.headers["x-gatehouse-attempt"])).toEqual(["1", "2", "3"]);
    expect(new Set(r.received.map((q) => q.headers["x-gatehouse-delivery"])).size).toBe(1);
    const log = (await listDeliveries({ workId: s.work.id, take: 10 })).reverse();
    expect(log.map((d) => [d.attempt, d.state, d.statusCode])).toEqual([
      [1, "failed", 500],
      [2, "failed", 500],
      [3, "delivered", 200],
    ]);
    expect(log[0].error).toBe("the receiver answered HTTP 500");
    // Each retry waited longer than the one before it (20 ms, then 80 ms).
    expect(log[1].dueAt.getTime() - log[0].createdAt.getTime()).toBeGreaterThanOrEqual(20);
    expect(log[2].dueAt.getTime() - log[1].createdAt.getTime()).toBeGreaterThanOrEqual(80);
  });

  it("a receiver that never answers is cut off by the timeout and logged so; the run ends on time regardless", async () => {
    configureWebhookSender({ timeoutMs: 6_000, maxAttempts: 1 });
    const r = await receiver(() => "hang");
    const s = await makeScenario(h, {
      checkDefaults: [check("unit", "exit 0")],
      webhooks: [{ url: r.url, events: ["run.started", "run.ended"], secret: SECRET }],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("accepted");
    // The run ended while the receiver was still holding run.started's request open.
    const [started] = await listDeliveries({ workId: s.work.id, take: 10 }).then((l) =>
      l.filter((d) => d.event === "run.started"),
    );
    expect(started.state).toBe("sending");
    expect(detail.run.finishedAt!.getTime()).toBeLessThan(started.sentAt!.getTime() + 6_000);

    await whenWebhooksIdle();
    const log = await listDeliveries({ workId: s.work.id, take: 10 });
    expect(log).toHaveLength(2);
    for (const d of log) {
      expect([d.state, d.statusCode, d.error]).toEqual(["failed", null, "timed out: no answer within 6 s"]);
      expect(d.durationMs).toBeGreaterThanOrEqual(5_900);
    }
    expect(r.received).toHaveLength(2);
  });

  it("a retry owed when the server stopped is sent by the next start", async () => {
    configureWebhookSender({ backoffMs: 60_000 });
    const r = await receiver((_req, i) => (i === 0 ? 503 : 200));
    const s = await makeScenario(h, {
      checkDefaults: [check("unit", "exit 0")],
      webhooks: [{ url: r.url, events: ["run.ended"], secret: SECRET }],
    });
    await dispatchAndSettle(h, s.task.id);
    // The first try failed; its retry waits a minute. The process stops (its timers are gone).
    await expect.poll(async () => (await listDeliveries({ workId: s.work.id, take: 10 })).length).toBe(2);
    stopWebhookSender();
    const pending = (await listDeliveries({ workId: s.work.id, take: 10 })).find((d) => d.state === "pending");
    expect(pending?.attempt).toBe(2);
    // The minute has passed when the next start looks.
    await h.t.db.webhookDelivery.update({ where: { id: pending!.id }, data: { dueAt: new Date() } });
    expect(await resumeWebhookDeliveries()).toBe(1);
    await whenWebhooksIdle();
    const log = (await listDeliveries({ workId: s.work.id, take: 10 })).reverse();
    expect(log.map((d) => [d.attempt, d.state, d.statusCode])).toEqual([
      [1, "failed", 503],
      [2, "delivered", 200],
    ]);
    expect(isSignedWith(r.received[1].body, r.received[1].headers["x-gatehouse-signature-256"], SECRET)).toBe(true);
  });

  it("keeps a delivery log of 30 days: older requests done with are dropped, a pending one stays", async () => {
    configureWebhookSender({ backoffMs: 60_000 });
    const r = await receiver((_req, i) => (i === 0 ? 200 : 503));
    const s = await makeScenario(h, {
      checkDefaults: [check("unit", "exit 0")],
      webhooks: [{ url: r.url, events: ["run.started", "run.ended"], secret: SECRET }],
    });
    await dispatchAndSettle(h, s.task.id);
    // run.started delivered, run.ended failed once and waits for its retry.
    await expect.poll(async () => (await listDeliveries({ workId: s.work.id, take: 10 })).length).toBe(3);
    stopWebhookSender();
    const now = Date.now();
    const old = new Date(now - WEBHOOK_LOG_KEEP_MS - 60_000);
    await h.t.db.webhookDelivery.updateMany({ where: { workId: s.work.id }, data: { createdAt: old } });
    expect(await pruneWebhookLog(now)).toBe(2);
    const left = await listDeliveries({ workId: s.work.id, take: 10 });
    expect(left.map((d) => [d.event, d.attempt, d.state])).toEqual([["run.ended", 2, "pending"]]);
  });

  it("a partial run answered by a lead sends run.ended again, with the ending the answer gave it", async () => {
    const r = await receiver(() => 200);
    const s = await makeScenario(h, {
      maxGateAttempts: 1,
      agentCommand: "true",
      checkDefaults: [check("unit", "exit 1")],
      webhooks: [{ url: r.url, events: ["run.ended"], secret: SECRET }],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending).toBe("partial");
    await decideRun(SYSTEM_ACTOR, detail.run.id, { choice: "accept", reason: "good enough" });
    await whenWebhooksIdle();
    const runs = r.received.map((q) => q.json.run as { ending: string; needsDecision: boolean });
    expect(runs.map((run) => [run.ending, run.needsDecision])).toEqual([
      ["partial", true],
      ["accepted", false],
    ]);
  });
});
