import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./support/test";
import { dispatch, runJson, workWithChecks } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";

// Webhooks as a lead sets them up (issue 25 item 6): add one in the Work's settings (URL, events, a secret
// that is never shown again), dispatch a run, see its delivery in the webhook's log, press Redeliver and see
// the second one arrive. The receiver is a real HTTP server on 127.0.0.1 that checks the signature.

const SECRET = "e2e-webhook-secret-42";
type Got = { event: string; delivery: string; body: string; isSigned: boolean };

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
    const ended = log.getByRole("row").filter({ hasText: "run.ended" });
    await expect(ended).toHaveCount(1);
    await expect(ended).toContainText("HTTP 200");
    await expect(log.getByRole("row").filter({ hasText: "run.started" })).toContainText("HTTP 200");
    await expectNoAxeViolations(page, "the Work's webhooks settings with a delivery log");

    await ended.getByRole("button", { name: /^Redeliver run\.ended/ }).click();
    await expect(log.getByRole("row").filter({ hasText: "run.ended" })).toHaveCount(2);
    await expect(log.getByRole("row").filter({ hasText: "run.ended" }).first()).toContainText("HTTP 200");
    const endings = receiver.got.filter((g) => g.event === "run.ended");
    expect(endings).toHaveLength(2);
    // The same body, signed again, as a delivery of its own.
    expect(endings[1].body).toBe(endings[0].body);
    expect(endings[1].delivery).not.toBe(endings[0].delivery);
    expect(JSON.parse(endings[0].body)).toMatchObject({ event: "run.ended", run: { id: runId, ending: "accepted" } });
  } finally {
    await receiver.close();
  }
});
