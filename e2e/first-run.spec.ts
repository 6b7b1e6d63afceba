import { expect, test } from "@playwright/test";
import { startOwnServer } from "./support/own-server";

test.use({ storageState: { cookies: [], origins: [] } });

// An empty database and no admin in the environment: the first visit asks for the first admin.
test("the first visit creates the first admin, who is then signed in; later visits ask to sign in", async ({
  browser,
}) => {
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
    await page.getByLabel("Name").fill("Ada Admin");
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create admin and sign in" }).click();
    await expect(page.getByText("Password: at least 10 characters")).toBeVisible();
    await page.getByLabel("Password").fill("a-good-long-password");
    await page.getByRole("button", { name: "Create admin and sign in" }).click();
    await expect(page.getByLabel("Account: Ada Admin")).toBeVisible();
    await expect(page.getByRole("link", { name: "People" })).toBeVisible();

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
