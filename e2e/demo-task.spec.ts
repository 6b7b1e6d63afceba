import { expect, test } from "@playwright/test";

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
