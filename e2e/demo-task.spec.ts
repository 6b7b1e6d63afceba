import { expect, test } from "./support/test";

test("the demo task shows its declared checks and the run the first start dispatched", async ({ page }) => {
  await page.goto("/works");
  await page.getByRole("link", { name: /Gatehouse demo/ }).click();
  await page.getByRole("link", { name: /Make slugify produce URL slugs/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Make slugify produce URL slugs" })).toBeVisible();
  // The first start dispatched the demo: attempt 1 red, attempt 2 green.
  const checks = page.getByTestId("run-checks");
  await expect(checks.getByRole("status", { name: "Gate green" })).toBeVisible();
  await expect(checks.getByTestId("attempt-counter")).toHaveText("Attempt 2 of 3");
  await expect(checks.getByRole("button", { name: "Attempt 1 (red)" })).toBeVisible();
  // The declared checks, with where each came from.
  await page.getByText("Declared checks now").click();
  const declared = page.getByRole("list", { name: "Declared checks" });
  await expect(declared.getByRole("listitem")).toHaveCount(3);
  await expect(declared.getByText("inherited")).toHaveCount(3);
  await expect(declared.getByText("node --test test/")).toBeVisible();
});

test("the demo run's failing row shows the test counts and names the failing tests", async ({ page }) => {
  await page.goto("/works");
  await page.getByRole("link", { name: /Gatehouse demo/ }).click();
  await page.getByRole("link", { name: /Make slugify produce URL slugs/ }).click();
  const checks = page.getByTestId("run-checks");
  await expect(checks.getByRole("status", { name: "Gate green" })).toBeVisible();
  // Attempt 2 (green): every test passed, the four there were and the one the agent added.
  const unit = checks.locator('[data-check-id="unit"]');
  await expect(unit.getByTestId("test-counts")).toHaveText("5 passed");
  // Attempt 1 (red): node:test's counts, and the failing tests by name instead of "# duration_ms …".
  await checks.getByRole("button", { name: "Attempt 1 (red)" }).click();
  await expect(unit.getByTestId("test-counts")).toHaveText("1 passed · 3 failed");
  await expect(unit).toContainText("3 failed: lower-cases, drops punctuation, trims dashes at the ends");
  await expect(unit.locator("summary")).not.toContainText("duration_ms");
});
