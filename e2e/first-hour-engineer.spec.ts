import { expect, test } from "./support/test";
import { api, demoWork, dispatch, runJson, workWithChecks } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";

// The engineer's first hour (issue 24, points 1–3): every row with a log opens it, the full-log search
// follows the typing, a tail opens where the failure is, and an attempt has its own address.

const check = (id: string, command: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Check ${id}`,
  kind: "test",
  command,
  required: true,
  ...extra,
});

async function finishedDemoRun(): Promise<string> {
  const { taskId } = await demoWork();
  const runs = await api<{ runs: { id: string }[] }>("GET", `/api/tasks/${taskId}/runs`);
  const runId = runs.json.runs.at(-1)!.id;
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 60_000 }).toBe("finished");
  return runId;
}

test("a proof row's “Full log →” opens its log page, and the log API serves it", async ({ page }) => {
  const runId = await finishedDemoRun();
  await page.goto(`/runs/${runId}?attempt=1`);
  const proof = page.getByTestId("run-checks").getByRole("region", { name: "Proof" });
  await proof.locator('[data-check-id="_tests-added"] summary').click();
  await proof.locator('[data-check-id="_tests-added"]').getByRole("link", { name: "Full log →" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}/attempts/1/checks/_tests-added/log$`));
  await expect(page.getByRole("heading", { level: 1, name: "Tests were added" })).toBeVisible();
  await expect(page.getByRole("log")).toContainText("What to do: add or change a test");
  await expectNoAxeViolations(page, "a proof row's full log");
  const raw = await page.request.get(`/api/runs/${runId}/attempts/1/checks/_tests-added/log`);
  expect(raw.status()).toBe(200);
  expect(await raw.text()).toContain("What to do: add or change a test");
  // An id that is neither a check's nor a proof row's is still refused by name.
  const bad = await page.request.get(`/api/runs/${runId}/attempts/1/checks/_nope/log`);
  expect(bad.status()).toBe(400);
});

test("a full log's “Attempt n” crumb leads back to its row, open, in that attempt rather than the run's \
latest", async ({ page }) => {
  const runId = await finishedDemoRun();
  await page.goto(`/runs/${runId}/attempts/1/checks/unit/log`);
  await expect(page.getByRole("log")).toContainText("not ok");
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Attempt 1" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?attempt=1&open=unit$`));
  const checks = page.getByTestId("run-checks");
  await expect(checks.getByTestId("attempt-counter")).toHaveText("Attempt 1 of 3");
  await expect(checks.locator('[data-check-id="unit"]').getByTestId("log-tail")).toContainText("not ok");
});

test("the Agent row opened is in the address as a check's row is: Back from its full log shows it open, and \
another attempt's Agent row starts closed", async ({ page }) => {
  const runId = await finishedDemoRun();
  await page.goto(`/runs/${runId}?attempt=1`);
  const checks = page.getByTestId("run-checks");
  const agent = checks.getByTestId("agent-step");
  const agentRow = agent.locator("details").first();
  await agent.locator("summary").first().click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?attempt=1&open=_agent$`));
  await expect(agentRow).toHaveAttribute("open", "");
  await checks.getByRole("button", { name: /Attempt 2 \(/ }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?attempt=2$`));
  await expect(agentRow).not.toHaveAttribute("open");
  await agent.locator("summary").first().click();
  await agent.getByRole("link", { name: "Full log →" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}/attempts/2/checks/_agent/log$`));
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?attempt=2&open=_agent$`));
  await expect(agentRow).toHaveAttribute("open", "");
});

test("the full-log search runs as you type: the counter follows the query and the matched text is marked", async ({
  page,
}) => {
  const { taskId } = await workWithChecks("Log search", [
    check("words", 'for w in alpha beta alphabet gamma delta alpha; do echo "line with $w here"; done'),
  ]);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 30_000 }).toBe("finished");
  await page.goto(`/runs/${runId}/attempts/1/checks/words/log`);
  await expect(page.getByRole("log")).toContainText("line with delta here");
  const search = page.getByLabel("Search the log");
  await search.pressSequentially("alpha");
  // No Enter: the search ran, the counter says so, and only the matched text is marked.
  await expect(page.getByTestId("search-status")).toHaveText("1 of 3");
  await expect(page.getByRole("log").locator("mark")).toHaveText(["alpha", "alpha", "alpha"]);
  await page.getByRole("button", { name: "Next match" }).click();
  await expect(page.getByTestId("search-status")).toHaveText("2 of 3");
  await search.fill("");
  await search.pressSequentially("gamma");
  await expect(page.getByTestId("search-status")).toHaveText("1 of 1");
  await expect(page.getByRole("log").locator("mark")).toHaveText(["gamma"]);
  await search.fill("");
  await search.pressSequentially("zebra");
  await expect(page.getByTestId("search-status")).toHaveText("no matches");
  await expect(page.getByRole("log").locator("mark")).toHaveCount(0);
  await expect(page.getByText("Enter: next match")).toBeVisible();
  await expectNoAxeViolations(page, "the full log with a search");
});

test("a failed tail opens at the first failure line, and an attempt has its own address", async ({ page }) => {
  const tap =
    "printf 'TAP version 13\\n# Subtest: adds numbers\\nnot ok 1 - adds numbers\\n  ---\\n  error: " +
    "expected 3 got 4\\n  ...\\n'; " +
    'for i in $(seq 1 60); do echo "# trailer $i"; done; exit 1';
  const { taskId } = await workWithChecks("Tail at failure", [check("unit", tap)], { maxGateAttempts: 2 });
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 30_000 }).toBe("waiting");
  await page.goto(`/runs/${runId}`);
  const row = page.locator('[data-check-id="unit"]');
  await row.locator("summary").click();
  const tail = row.getByTestId("log-tail");
  await expect(tail.getByText("not ok 1 - adds numbers")).toBeInViewport();
  await expect(tail.getByText("# trailer 60", { exact: true })).not.toBeInViewport();
  await expect(tail).toContainText("Opened at the first failure (line 3)");

  // A second attempt, then the first one linked by its address.
  const started = await api("POST", `/api/runs/${runId}/attempts`);
  expect(started.status).toBe(202);
  await expect.poll(async () => (await runJson(runId)).attempts.length).toBe(2);
  await page.reload();
  const checks = page.getByTestId("run-checks");
  await expect(checks.getByTestId("attempt-counter")).toHaveText("Attempt 2 of 2");
  await checks.getByRole("button", { name: /Attempt 1 \(/ }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?attempt=1$`));
  await page.goto(`/runs/${runId}?attempt=1`);
  await expect(checks.getByTestId("attempt-counter")).toHaveText("Attempt 1 of 2");
  await expect(checks.getByRole("button", { name: /Attempt 1 \(/ })).toHaveAttribute("aria-pressed", "true");
});
