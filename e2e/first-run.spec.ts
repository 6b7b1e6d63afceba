import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { expectNoAxeViolations } from "./support/axe";
import { startOwnServer } from "./support/own-server";

test.use({ storageState: { cookies: [], origins: [] } });

// An empty database and no admin in the environment: the first visit asks for the first admin. The setup
// page exists only on an empty database, so its accessibility pass (light and dark, also with its error)
// is here, on this test's own server, rather than in accessibility.spec.ts.
test("the first visit creates the first admin, who is then signed in; later visits ask to sign in; the \
setup page passes axe, light and dark, also with its error", async ({ browser }) => {
  test.setTimeout(180_000);
  // Beside this run's E2E_PORT, so parallel runs with different E2E_PORTs do not meet.
  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) + 82 : 3292;
  const server = await startOwnServer({ port, env: { GATEHOUSE_BOOTSTRAP_TOKEN: "" } });
  try {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto("/works");
    await expect(page).toHaveURL(/\/setup$/);
    await expect(page.getByRole("heading", { name: "Welcome to Gatehouse" })).toBeVisible();
    await expectNoAxeViolations(page, "first-run setup (light)");
    const tooShort = async (setup: Page) => {
      await setup.getByLabel("Name").fill("Ada Admin");
      await setup.getByLabel("Email").fill("ada@example.com");
      await setup.getByLabel("Password").fill("short");
      await setup.getByRole("button", { name: "Create admin and sign in" }).click();
      await expect(setup.getByText("Password: at least 10 characters")).toBeVisible();
    };
    await tooShort(page);
    await expectNoAxeViolations(page, "first-run setup with an error (light)");
    const dark = await browser.newContext({ baseURL: server.url, colorScheme: "dark" });
    const darkPage = await dark.newPage();
    await darkPage.goto("/setup");
    await expect(darkPage.getByRole("heading", { name: "Welcome to Gatehouse" })).toBeVisible();
    await expectNoAxeViolations(darkPage, "first-run setup (dark)");
    await tooShort(darkPage);
    await expectNoAxeViolations(darkPage, "first-run setup with an error (dark)");
    await dark.close();
    // A good password refused for a mistyped email's sake is kept: fixing the email is enough.
    await page.getByLabel("Email").fill("ada@");
    await page.getByLabel("Password").fill("a-good-long-password");
    await page.getByRole("button", { name: "Create admin and sign in" }).click();
    await expect(page.getByText(/^Email: /)).toBeVisible();
    await expect(page.getByLabel("Password")).toHaveValue("a-good-long-password");
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByRole("button", { name: "Create admin and sign in" }).click();
    await expect(page.getByLabel("Account: Ada Admin")).toBeVisible();
    await expect(page.getByRole("link", { name: "People" })).toBeVisible();
    // The empty inbox says what to do first, and leads there.
    await expect(page.getByText("No Works yet")).toBeVisible();
    await page.getByRole("link", { name: "Create the first one on Works" }).click();
    await expect(page).toHaveURL(/\/works$/);

    // Once an admin exists, the setup page is closed.
    const fresh = await browser.newContext({ baseURL: server.url });
    const other = await fresh.newPage();
    await other.goto("/setup");
    await expect(other).toHaveURL(/\/signin$/);
    await fresh.close();
    await context.close();
  } finally {
    server.stop();
  }
});
