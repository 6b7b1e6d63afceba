import { expect, test as setup } from "@playwright/test";
import { ADMIN, ADMIN_STATE } from "./support/accounts";

// Signs in once through the real sign-in page; the other specs reuse the session.
setup("sign in as the admin", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin/);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel(/^Account: /)).toBeVisible();
  await page.context().storageState({ path: ADMIN_STATE });
});
