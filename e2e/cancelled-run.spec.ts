import { expect, test } from "./support/test";
import { api, dispatch, runJson, workWithChecks } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";

// A run cancelled while a slow check runs, after a reports-only check failed: its gate reads the same on
// every page (never "Pending"), the check the cancel cut short reads "Stopped", the one after it "Skipped",
// and the reports-only failure the amber "Warning" it would be on an accepted run.
test("a cancelled run: gate Stopped on the run, Work and inbox pages; the check it cut short Stopped, a \
reports-only failure a Warning", async ({ page }) => {
  test.setTimeout(120_000);
  const { workId, taskId } = await workWithChecks(
    "Cancelled",
    [
      { id: "style", name: "Style", kind: "lint", command: "echo 'style: 2 problems'; false", required: false },
      { id: "slow", name: "Slow tests", kind: "custom", command: "echo working; sleep 60", required: true },
      { id: "after", name: "After", kind: "build", command: "true", required: true },
    ],
    { requireTests: "off", vacuousPolicy: "off" },
  );
  const runId = await dispatch(taskId);
  await expect
    .poll(async () => (await runJson(runId)).attempts?.[0]?.checks.find((c) => c.checkId === "slow")?.verdict, {
      timeout: 60_000,
    })
    .toBe("running");
  expect((await api("POST", `/api/runs/${runId}/cancel`)).status).toBe(200);
  const run = await runJson(runId);
  expect([run.ending, run.gate, run.attempts[0].gate]).toEqual(["rejected", "stopped", "stopped"]);

  await page.goto(`/runs/${runId}`);
  const checks = page.getByTestId("run-checks");
  await expect(checks.getByRole("status", { name: "Stopped" })).toBeVisible();
  await expect(page.locator('li[data-check-id="slow"] [data-verdict]')).toHaveText("Stopped");
  await expect(page.locator('li[data-check-id="after"] [data-verdict]')).toHaveText("Skipped");
  await expect(page.locator('li[data-check-id="style"] [data-verdict]')).toHaveText("Warning");
  // The check that was stopped ran: its row opens on what it printed, and links its log.
  const slow = page.locator('li[data-check-id="slow"]');
  await slow.locator("summary").first().click();
  await expect(slow).toContainText("working");
  await expectNoAxeViolations(page, "a cancelled run, its stopped check expanded");

  await page.goto(`/works/${workId}`);
  await expect(page.getByRole("link", { name: /Cancelled/ }).getByRole("status", { name: "Stopped" })).toBeVisible();

  await page.goto("/");
  const ending = page.getByRole("list", { name: "Recent endings" }).locator(`a[href="/runs/${runId}"]`);
  await expect(ending.getByRole("status", { name: "Stopped" }).first()).toBeAttached();
  await expect(ending.getByRole("status", { name: "Pending" })).toHaveCount(0);
});

test("Cancel run asks once more; keeping it running changes nothing, confirming ends it", async ({ page }) => {
  const { taskId } = await workWithChecks("Cancel asks", [
    { id: "slow", name: "Slow", kind: "custom", command: "sleep 30", required: true },
  ]);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status).toBe("running");
  await page.goto(`/runs/${runId}`);
  await page.getByRole("button", { name: "Cancel run" }).click();
  const confirm = page.getByRole("group", { name: "Cancel this run?" });
  await expect(confirm.getByRole("button", { name: "Yes, cancel the run" })).toBeFocused();
  await confirm.getByRole("button", { name: "Keep it running" }).click();
  await expect(confirm).toHaveCount(0);
  expect((await runJson(runId)).status).toBe("running");
  await page.getByRole("button", { name: "Cancel run" }).click();
  await page.getByRole("button", { name: "Yes, cancel the run" }).click();
  await expect.poll(async () => (await runJson(runId)).ending).toBe("rejected");
  await expect(page.locator('h1 [data-ending="rejected"]')).toBeVisible();
});
