import { expect, test } from "./support/test";

test("dispatching the demo from the browser shows attempt 1 red, then the gate green on attempt 2", async ({
  page,
}) => {
  await page.goto("/works");
  await page.getByRole("link", { name: /Gatehouse demo/ }).click();
  await page.getByRole("link", { name: /Make slugify produce URL slugs/ }).click();
  // The run the first start dispatched must have ended before a new one can be dispatched.
  await expect(page.getByTestId("run-checks").getByRole("status", { name: "Gate green" })).toBeVisible();

  await page.getByRole("button", { name: "Dispatch" }).click();
  await expect(page).toHaveURL(/\/runs\//);
  const checks = page.getByTestId("run-checks");
  // Live: the page follows the run without reloads until the gate turns green on attempt 2.
  await expect(checks.getByRole("status", { name: "Gate green" })).toBeVisible({ timeout: 45_000 });
  await expect(checks.getByTestId("attempt-counter")).toHaveText("Attempt 2 of 3");
  await expect(page.getByText("Accepted", { exact: true })).toBeVisible();
  // The server runs as installed: the demo ran in the sandbox, and the page says so.
  await expect(page.getByTestId("run-sandbox")).toHaveText("sandboxed (bubblewrap)");
  await expect(page.getByTestId("sandbox-warning")).toHaveCount(0);

  // Attempt 1 was red: its unit tests failed, and the agent's brief for attempt 2 says so.
  await checks.getByRole("button", { name: "Attempt 1 (red)" }).click();
  await expect(checks.getByTestId("attempt-counter")).toHaveText("Attempt 1 of 3");
  await expect(checks.locator('[data-check-id="unit"] [data-verdict="failed"]')).toBeVisible();
  await checks.getByRole("button", { name: "Attempt 2 (green)" }).click();
  await checks.getByTestId("agent-step").locator("summary").first().click();
  await checks.getByText("Brief the agent was given").click();
  await expect(checks.getByText("## What failed in attempt 1")).toBeVisible();
  await expect(checks.getByText(/demo agent: attempt 2/)).toBeVisible();
});
