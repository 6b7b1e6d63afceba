import { expect, test as setup } from "@playwright/test";
import { ADMIN } from "./support/accounts";
import { adminState, LANES, laneUrl } from "./support/lanes";

// Signs in once on each lane's server through the real sign-in page; the other specs reuse the session.
for (const lane of LANES) {
  setup(`sign in as the admin (lane ${lane})`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: laneUrl(lane) });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page).toHaveURL(/\/signin/);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByLabel(/^Account: /)).toBeVisible();
    await context.storageState({ path: adminState(lane) });
    await context.close();
  });
}
