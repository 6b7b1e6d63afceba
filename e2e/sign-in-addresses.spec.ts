// The addresses people type for signing in lead to the sign-in page, and signing in from there to the inbox
// (/login used to be sent on as /signin?next=/login, and after signing in to a page that does not exist).
import { expect, test } from "./support/test";
import { ADMIN } from "./support/accounts";
import { BASE_URL } from "./support/api";

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("/login leads to the sign-in page and, signed in, to the inbox", async ({ page }) => {
    for (const typed of ["/sign-in", "/log-in"]) {
      await page.goto(typed);
      await expect(page).toHaveURL(`${BASE_URL}/signin`);
    }
    await page.goto("/login");
    await expect(page).toHaveURL(`${BASE_URL}/signin`);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${BASE_URL}/`);
    await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
    // Signed in already, it leads to the inbox too.
    await page.goto("/login");
    await expect(page).toHaveURL(`${BASE_URL}/`);
    await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  });
});
