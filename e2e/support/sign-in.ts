// A browser context of its own, signed in through the sign-in page as `person` (the specs' contexts are the
// admin's unless told otherwise): for what another role sees.
import { type Browser, expect } from "@playwright/test";

export async function signedInContext(browser: Browser, person: { email: string; password: string }) {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel(/^Account: /)).toBeVisible();
  return { context, page };
}
