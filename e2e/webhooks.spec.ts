import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Locator } from "@playwright/test";
import { expect, test } from "./support/test";
import { api, dispatch, runJson, workWithChecks } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";
import { shotForPeople } from "./support/shots";

// Webhooks as a lead sets them up (issue 25 item 6): add one in the Work's settings (URL, events, a secret
// that is never shown again), dispatch a run, see its delivery in the webhook's log, press Redeliver and see
// the second one arrive. The receiver is a real HTTP server on 127.0.0.1 that checks the signature. Then a
// receiver that redirects and an address that refuses: each delivery's retries listed under it, newest
// first, each saying why it failed, and the older deliveries a click away once the first page is full.

const SECRET = "e2e-webhook-secret-42";

// One delivery in a webhook's log (the list item with its Redeliver button; its tries are list items inside).
const deliveryOf = (log: Locator, event: string) =>
  log
    .getByRole("list", { name: /deliveries, newest first$/ })
    .getByRole("listitem")
    .filter({ has: log.page().getByRole("button", { name: new RegExp(`^Redeliver ${event.replace(".", "\\.")} `) }) });
type Got = { event: string; delivery: string; redeliveryOf: string | undefined; body: string; isSigned: boolean };

async function startReceiver(): Promise<{ url: string; got: Got[]; close: () => Promise<void> }> {
  const got: Got[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const expected = `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;
      const isSigned = req.headers["x-gatehouse-signature-256"] === expected;
      got.push({
        event: String(req.headers["x-gatehouse-event"]),
        delivery: String(req.headers["x-gatehouse-delivery"]),
        redeliveryOf: req.headers["x-gatehouse-redelivery-of"] as string | undefined,
        body: body.toString("utf8"),
        isSigned,
      });
      res.writeHead(isSigned ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/gatehouse`,
    got,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("a lead adds a webhook, a run's end is delivered and logged, and Redeliver sends it again", async ({ page }) => {
  const receiver = await startReceiver();
  try {
    const { workId, taskId } = await workWithChecks("Webhooks", [
      { id: "hello", name: "hello", kind: "custom", command: "echo hello", required: true },
    ]);
    await page.goto(`/works/${workId}/settings/webhooks`);
    const section = page.getByRole("region", { name: /^Webhooks/ });
    // Clicked until the editor has hydrated and the row is there.
    await expect(async () => {
      if ((await section.getByLabel("Webhook 1 URL").count()) === 0)
        await section.getByRole("button", { name: "+ Add a webhook" }).click();
      await expect(section.getByLabel("Webhook 1 URL")).toBeVisible({ timeout: 1000 });
    }).toPass();
    await section.getByLabel("Webhook 1 URL").fill("ftp://example.test/hook");
    await expect(section.getByText("URL: must be an http:// or https:// URL, not ftp:")).toBeVisible();
    await section.getByLabel("Webhook 1 URL").fill(receiver.url);
    const events = section.getByRole("group", { name: "Webhook 1 events" });
    await expect(events.getByLabel("run.ended")).toBeChecked();
    await events.getByLabel("run.started").check();
    await section.getByLabel("Webhook 1 secret").fill(SECRET);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: /Saved: version/ })).toBeVisible();
    // Write-only: the field is empty again and says a secret is set.
    await expect(section.getByLabel("Webhook 1 secret")).toHaveValue("");
    await expect(section.getByText("A secret is set.")).toBeVisible();
    await expect(page.locator("body")).not.toContainText(SECRET);
    await expect(section.getByText("No deliveries yet: they appear as runs start and end.")).toBeVisible();

    const runId = await dispatch(taskId);
    await expect.poll(async () => (await runJson(runId)).status, { timeout: 60_000 }).toBe("finished");
    await expect
      .poll(() => receiver.got.map((g) => g.event).sort(), { timeout: 30_000 })
      .toEqual(["run.ended", "run.started"]);
    expect(receiver.got.every((g) => g.isSigned)).toBe(true);

    const log = section.getByRole("region", { name: "Webhook 1 deliveries" });
    await log.getByRole("button", { name: "Refresh" }).click();
    const ended = deliveryOf(log, "run.ended");
    await expect(ended).toHaveCount(1);
    await expect(ended).toContainText("Delivered");
    await expect(ended.getByRole("listitem")).toHaveText([/Try 1 of 4.*HTTP 200/]);
    await expect(deliveryOf(log, "run.started")).toContainText("HTTP 200");
    await expectNoAxeViolations(page, "the Work's webhooks settings with a delivery log");

    await ended.getByRole("button", { name: /^Redeliver run\.ended/ }).click();
    await expect(log.getByRole("status")).toHaveText("Sent again as a new delivery: delivered, HTTP 200.");
    await expect(deliveryOf(log, "run.ended")).toHaveCount(2);
    // The redelivery is the newest: first, one try of its own.
    await expect(deliveryOf(log, "run.ended").first().getByRole("listitem")).toHaveText([/Try 1 of 1.*HTTP 200/]);
    const endings = receiver.got.filter((g) => g.event === "run.ended");
    expect(endings).toHaveLength(2);
    // The same body, signed again, as a delivery of its own.
    expect(endings[1].body).toBe(endings[0].body);
    expect(endings[1].delivery).not.toBe(endings[0].delivery);
    // Named as a redelivery of the first, to the receiver and in the log.
    expect(endings.map((g) => g.redeliveryOf)).toEqual([undefined, endings[0].delivery]);
    await expect(deliveryOf(log, "run.ended").first()).toContainText(
      `delivery ${endings[1].delivery.slice(0, 8)}, a redelivery of ${endings[0].delivery.slice(0, 8)}`,
    );
    await expect(deliveryOf(log, "run.ended").last()).not.toContainText("a redelivery of");
    expect(JSON.parse(endings[0].body)).toMatchObject({ event: "run.ended", run: { id: runId, ending: "accepted" } });
  } finally {
    await receiver.close();
  }
});

// A receiver that redirects every request, its answer's body HTML that must never reach the page as HTML.
async function startRedirecter(): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      hits++;
      res
        .writeHead(302, { location: "https://elsewhere.example/hook", "content-type": "text/html" })
        .end('<b id="from-receiver">moved</b><script>document.title="owned"</script>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// An address where nothing listens: a port taken and given back.
async function refusingUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}

test("a failing receiver's log: each delivery's retries under it, newest first, why each failed, older ones \
on request", async ({ page }) => {
  const redirecter = await startRedirecter();
  try {
    const hook = (url: string) => ({ url, events: ["run.ended"], secret: SECRET });
    const { workId, taskId } = await workWithChecks(
      "Failing webhooks",
      [{ id: "hello", name: "hello", kind: "custom", command: "echo hello", required: true }],
      { webhooks: [hook(redirecter.url), hook(await refusingUrl())] },
    );
    const runId = await dispatch(taskId);
    await expect.poll(async () => (await runJson(runId)).status, { timeout: 60_000 }).toBe("finished");
    // The first try and its first retry (2 s later) have failed.
    await expect.poll(redirecter.hits, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);

    await page.goto(`/works/${workId}/settings/webhooks`);
    const section = page.getByRole("region", { name: /^Webhooks/ });
    const log = section.getByRole("region", { name: "Webhook 1 deliveries" });
    const original = deliveryOf(log, "run.ended");
    await expect(original).toHaveCount(1);
    // Every try of the one delivery under it, newest first; each failed one says why.
    const tries = original.getByRole("list", { name: /^Tries of run\.ended/ }).getByRole("listitem");
    await expect(tries.filter({ hasText: "Try 2 of 4" })).toContainText(
      "HTTP 302 — redirects are not followed: give the webhook the URL it redirects to, https://elsewhere.example/hook",
    );
    const numbers = (await tries.allTextContents()).map((t) => Number(/Try (\d+)/.exec(t)?.[1]));
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(numbers.at(-1)).toBe(1);
    await expect(tries.filter({ hasText: "Try 1 of 4" })).toContainText("redirects are not followed");
    // What the receiver answered is nowhere on the page, as HTML or as text.
    await expect(page.locator("#from-receiver")).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText("moved");
    expect(await page.title()).not.toBe("owned");
    const refused = deliveryOf(section.getByRole("region", { name: "Webhook 2 deliveries" }), "run.ended");
    await expect(refused.getByRole("listitem").filter({ hasText: "Try 1 of 4" })).toContainText(
      "No response — connection refused",
    );
    await expectNoAxeViolations(page, "a webhook log with failed tries");

    // Twenty redeliveries later the delivery is on the log's second page, its tries still together.
    const work = await api("GET", `/api/works/${workId}`);
    const webhookId = work.json.webhooks[0].id;
    const first = await api<{ deliveries: { id: string; attempt: number }[] }>(
      "GET",
      `/api/works/${workId}/webhooks/${webhookId}/deliveries?limit=1`,
    );
    const firstTry = first.json.deliveries.find((d) => d.attempt === 1);
    if (!firstTry) throw new Error(`no first try in ${JSON.stringify(first.json)}`);
    for (let i = 0; i < 20; i++) {
      const again = await api("POST", `/api/works/${workId}/webhooks/${webhookId}/deliveries/${firstTry.id}/redeliver`);
      expect(again.status).toBe(201);
    }
    await log.getByRole("button", { name: "Refresh" }).click();
    await expect(log.getByText("20 deliveries shown")).toBeVisible();
    await expect(deliveryOf(log, "run.ended")).toHaveCount(20);
    await expect(log.getByRole("list", { name: /^Tries of/ }).filter({ hasText: "Try 2 of 4" })).toHaveCount(0);
    await shotForPeople(page, "test-results/webhook-deliveries-1280-light.png", { fullPage: true });
    await log.getByRole("button", { name: "Show older deliveries" }).click();
    await expect(log.getByText("21 deliveries: the log keeps 30 days")).toBeVisible();
    await expect(deliveryOf(log, "run.ended").last().getByRole("listitem").last()).toContainText("Try 1 of 4");
    await expect(log.getByRole("button", { name: "Show older deliveries" })).toHaveCount(0);

    await page.emulateMedia({ colorScheme: "dark" });
    await expectNoAxeViolations(page, "a webhook log with failed tries, dark");
    await shotForPeople(page, "test-results/webhook-deliveries-1280-dark.png", { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await shotForPeople(page, "test-results/webhook-deliveries-390-dark.png", { fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });
    await shotForPeople(page, "test-results/webhook-deliveries-390-light.png", { fullPage: true });
  } finally {
    await redirecter.close();
  }
});
