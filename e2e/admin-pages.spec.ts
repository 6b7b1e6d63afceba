import { expect, test } from "./support/test";
import { api, BASE_URL, demoWorkJson } from "./support/api";
import { signedInContext } from "./support/sign-in";

test("an admin creates a Work and a task from the dashboard", async ({ page }) => {
  const demo = await demoWorkJson();
  await page.goto("/works");
  // The panel opens and closes (Cancel, Escape) without leaving the page.
  const newWork = page.getByRole("button", { name: "New Work" });
  await newWork.click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByLabel("Repository", { exact: true })).toBeHidden();
  await newWork.click();
  await page.getByLabel("Name", { exact: true }).press("Escape");
  await expect(page.getByLabel("Repository", { exact: true })).toBeHidden();
  await expect(newWork).toHaveAttribute("aria-expanded", "false");
  await newWork.click();
  const name = `Dashboard Work ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Repository", { exact: true }).fill(demo.repoUrl);
  await page.getByRole("button", { name: "Create Work" }).click();
  await expect(page.getByRole("heading", { name: "Settings", exact: true })).toBeVisible();
  await page.getByRole("link", { name }).click();
  await page.getByRole("button", { name: "New task" }).click();
  await page.getByLabel("Title").fill("Add a health endpoint");
  await page.getByRole("button", { name: "Create task" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Add a health endpoint" })).toBeVisible();
});

test("an API token is shown once, works as a bearer token, and stops working when revoked", async ({ page }) => {
  // `/settings` (typed, or linked from elsewhere) leads to the only section there is, by a real redirect.
  const settings = await page.request.get("/settings", { maxRedirects: 0 });
  expect(settings.status()).toBe(307);
  expect(settings.headers().location).toBe("/settings/tokens");
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/settings\/tokens$/);
  const name = `CI ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!;
  expect(token).toMatch(/^gatehouse_/);
  const call = () =>
    fetch(`${BASE_URL}/api/works`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
  expect(await call()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  const row = page.getByRole("list", { name: "Tokens" }).getByRole("listitem").filter({ hasText: name });
  await expect(row).toContainText(/last used/);
  // Revoking asks first; Cancel (and Escape) leave the token working.
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  const asking = row.getByRole("group", { name: `Revoke ${name}?` });
  await expect(asking).toContainText("this cannot be undone");
  await asking.getByRole("button", { name: "Cancel" }).click();
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await page.keyboard.press("Escape");
  await expect(asking).toBeHidden();
  expect(await call()).toBe(200);
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await row.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(row).toContainText("revoked");
  expect(await call()).toBe(401);
});

test("a token's name is held to the schema's 80 characters, and a refused one is said beside the field", async ({
  page,
}) => {
  await page.goto("/settings/tokens");
  const name = page.getByLabel("Name", { exact: true });
  await expect(name).toHaveAttribute("maxlength", "80");
  const create = page.getByRole("button", { name: "Create token" });
  // Only spaces: the browser lets it through, the server refuses it.
  await name.fill("   ");
  await create.click();
  const required = "Name: required: a name saying what the token is for";
  await expect(page.getByRole("alert").filter({ hasText: required })).toBeVisible();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription(required);
  await expect(name).toBeFocused();
  // Sent past the field's limit (as a script could): the server's rule, in the same place.
  await name.evaluate((input) => input.removeAttribute("maxlength"));
  await name.fill("x".repeat(81));
  await create.click();
  await expect(name).toHaveAccessibleDescription("Name: at most 80 characters");
  await expect(page.getByText(/^name: /)).toHaveCount(0);
  await expect(page.getByTestId("new-token")).toHaveCount(0);
});

test("a tab's title names the page and Gatehouse; a Work's pages name the Work", async ({ page }) => {
  const demo = await demoWorkJson();
  await page.goto("/");
  await expect(page).toHaveTitle("Inbox · Gatehouse");
  // Two Works' boards open in two tabs are told apart by their titles.
  for (const [path, title] of [
    ["checks", "Check history"],
    ["board", "Board"],
    ["settings", "Settings"],
    ["settings/general", "General"],
  ]) {
    await page.goto(`/works/${demo.id}/${path}`);
    await expect(page).toHaveTitle(`${title} · ${demo.name} · Gatehouse`);
  }
});

test("an admin adds a person; a lead gives them a role and sets a secret whose value is never shown", async ({
  page,
}) => {
  const email = `pat-${Date.now()}@e2e.example`;
  await page.goto("/admin/users");
  const form = page.getByRole("form", { name: "Add a person" });
  await form.getByLabel("Email").fill(email);
  // A name that shows nothing is refused beside the field, by its label.
  await form.getByLabel("Name").fill("\u200b");
  await form.getByLabel("Password").fill("pat-password-123");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(form.getByRole("alert")).toHaveText("Name: must contain a visible character");
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await form.getByLabel("Name").fill("Pat Person");
  await form.getByLabel("Password").fill("pat-password-123");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Added ${email}` })).toBeVisible();
  await expect(page.getByRole("list", { name: "People" })).toContainText(email);

  const demo = await demoWorkJson();
  await page.goto(`/works/${demo.id}/settings/access`);
  const role = page.getByRole("form", { name: "Give a role" });
  await role.getByLabel("Email").fill(email);
  await role.getByLabel("Role").selectOption("viewer");
  await role.getByRole("button", { name: "Give role" }).click();
  await expect(page.getByRole("list", { name: "Members" })).toContainText(email);

  await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Secrets" }).click();
  await expect(page).toHaveURL(new RegExp(`/works/${demo.id}/settings/secrets$`));
  const secret = page.getByRole("form", { name: "Set a secret" });
  await secret.getByLabel("Name").fill("DEPLOY_TOKEN");
  await secret.getByLabel("Value").fill("short");
  await secret.getByRole("button", { name: "Save secret" }).click();
  await expect(secret.getByRole("alert")).toContainText("Value: at least 6 characters");
  await secret.getByLabel("Value").fill("dt-0123456789-secret");
  await secret.getByRole("button", { name: "Save secret" }).click();
  await expect(page.getByRole("list", { name: "Secrets" })).toContainText("DEPLOY_TOKEN");
  expect(await page.content()).not.toContain("dt-0123456789-secret");
  // Deleting it asks first, then it is gone.
  const secrets = page.getByRole("list", { name: "Secrets" });
  await secrets.getByRole("button", { name: "Delete DEPLOY_TOKEN" }).click();
  await expect(secrets.getByRole("group", { name: "Delete DEPLOY_TOKEN?" })).toContainText(
    "cannot be shown or restored",
  );
  await secrets.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "DEPLOY_TOKEN" })).toHaveCount(0);
});

// Sixteen pages at a phone's width and at a wide screen's. The accessibility pass (accessibility.spec.ts)
// opens nearly all of them at 1280 px in `npm test`; the 1440 px pass repeats them whole (tag @full,
// `npm run test:full`).
async function everyPage(): Promise<string[]> {
  const demo = await demoWorkJson();
  const task = (await api("GET", `/api/works/${demo.id}/tasks`)).json.tasks[0];
  const run = (await api("GET", `/api/tasks/${task.id}/runs`)).json.runs[0];
  return [
    "/",
    "/works",
    `/works/${demo.id}`,
    `/works/${demo.id}/settings`,
    `/works/${demo.id}/settings/access`,
    `/works/${demo.id}/settings/secrets`,
    `/tasks/${task.id}`,
    `/tasks/${task.id}/edit`,
    `/runs/${run.id}`,
    `/runs/${run.id}/attempts/1/checks/unit/log`,
    `/runs/${run.id}/attempts/1/checks/_agent/log`,
    "/audit",
    `/audit?workId=${demo.id}`,
    "/admin/users",
    "/admin/workers",
    "/settings/tokens",
    "/settings/password",
  ];
}

for (const width of [375, 1440]) {
  test(`every page renders at ${width} px`, width === 1440 ? { tag: "@full" } : {}, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    for (const path of await everyPage()) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first(), path).toBeVisible();
      await expect(page.getByText("This page could not be shown"), path).toHaveCount(0);
    }
  });
}

test("the account menu closes as menus do: Escape (back on its button), a click outside, a link followed", async ({
  page,
}) => {
  await page.goto("/works");
  const account = page.getByLabel(/^Account: /);
  const tokens = page.getByRole("link", { name: "API tokens" });
  await account.click();
  await expect(tokens).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(tokens).toBeHidden();
  await expect(account).toBeFocused();
  await account.click();
  await expect(tokens).toBeVisible();
  await page.getByRole("heading", { name: "Works", level: 1 }).click();
  await expect(tokens).toBeHidden();
  await account.click();
  await tokens.click();
  await expect(page).toHaveURL(/\/settings\/tokens$/);
  await expect(tokens).toBeHidden();
});

test("on a phone, New Work opens under its button in the page, leaving the heading and the button in view", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/works");
  const button = page.getByRole("button", { name: "New Work" });
  await button.click();
  const form = page.getByRole("form", { name: "New Work" });
  await expect(form).toBeVisible();
  const [heading, opener, panel] = await Promise.all([
    page.getByRole("heading", { name: "Works", level: 1 }).boundingBox(),
    button.boundingBox(),
    form.boundingBox(),
  ]);
  expect(panel!.y).toBeGreaterThanOrEqual(heading!.y + heading!.height);
  expect(panel!.y).toBeGreaterThanOrEqual(opener!.y + opener!.height);
  expect(panel!.x + panel!.width).toBeLessThanOrEqual(390);
});

test("an admin disables a person (signed out at once, refused at sign-in), sets them a new password and \
enables them again", async ({ page, browser }) => {
  const person = { email: `sam-${Date.now()}@e2e.example`, password: "sam-first-password-1" };
  expect((await api("POST", "/api/users", { ...person, name: "Sam Leaver" })).status).toBe(201);
  const sam = await signedInContext(browser, person);

  await page.goto("/admin/users");
  // The bootstrap token's account is the setting's to turn off: nothing to press on its row.
  const automation = page
    .getByRole("list", { name: "People" })
    .getByRole("listitem")
    .filter({ hasText: "automation@gatehouse.invalid" });
  await expect(automation).toContainText("GATEHOUSE_BOOTSTRAP_TOKEN's account");
  await expect(automation.getByRole("button")).toHaveCount(0);
  const row = page.getByRole("list", { name: "People" }).getByRole("listitem").filter({ hasText: person.email });
  // Disabling asks first, saying what happens.
  await row.getByRole("button", { name: `Disable ${person.email}` }).click();
  await expect(row.getByRole("group", { name: `Disable ${person.email}?` })).toContainText("signed out everywhere");
  await row.getByRole("button", { name: "Yes, disable" }).click();
  await expect(row).toContainText("disabled");
  await expect(row).toContainText("cannot sign in, API tokens refused");

  // Sam's open browser is signed out at the next page, and the sign-in page says why.
  await sam.page.reload();
  await expect(sam.page).toHaveURL(/\/signin/);
  await sam.page.getByLabel("Email").fill(person.email);
  await sam.page.getByLabel("Password").fill(person.password);
  await sam.page.getByRole("button", { name: "Sign in" }).click();
  const said = (text: string) => sam.page.getByRole("alert").filter({ hasText: text });
  await expect(said("this account is disabled: ask an admin to enable it")).toBeVisible();

  // A new password: a weak one is refused naming the rule, a good one is set.
  await row.getByText("Set a new password").click();
  const reset = row.getByRole("form", { name: `New password for ${person.email}` });
  await reset.getByLabel("New password").fill("aaaaaaaaaaaa");
  await reset.getByRole("button", { name: "Set password" }).click();
  await expect(reset.getByRole("alert")).toContainText("New password: at least 5 different characters besides spaces");
  const newPassword = "sam-second-password-2";
  await reset.getByLabel("New password").fill(newPassword);
  await reset.getByRole("button", { name: "Set password" }).click();
  await expect(reset.getByRole("status")).toContainText(`New password set for ${person.email}`);
  await row.getByRole("button", { name: `Enable ${person.email}` }).click();
  await expect(row.getByRole("button", { name: `Disable ${person.email}` })).toBeVisible();
  await expect(row).not.toContainText("cannot sign in");

  await sam.page.getByLabel("Password").fill(person.password);
  await sam.page.getByRole("button", { name: "Sign in" }).click();
  await expect(said("wrong email or password")).toBeVisible();
  await sam.page.getByLabel("Password").fill(newPassword);
  await sam.page.getByRole("button", { name: "Sign in" }).click();
  await expect(sam.page.getByLabel(/^Account: /)).toBeVisible();
  await sam.context.close();
});

test("a person changes their own password from the account menu; their other browser is signed out", async ({
  browser,
}) => {
  const person = { email: `kim-${Date.now()}@e2e.example`, password: "kim-first-password-1" };
  expect((await api("POST", "/api/users", { ...person, name: "Kim" })).status).toBe(201);
  const laptop = await signedInContext(browser, person);
  const phone = await signedInContext(browser, person);
  const { page } = laptop;
  await page.getByLabel(/^Account: /).click();
  await page.getByRole("link", { name: "Password" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Password" })).toBeVisible();
  const form = page.getByRole("form", { name: "Change your password" });
  const fill = async (current: string, next: string, again: string) => {
    await form.getByLabel("Current password").fill(current);
    await form.getByLabel("New password", { exact: true }).fill(next);
    await form.getByLabel("New password again").fill(again);
    await form.getByRole("button", { name: "Change password" }).click();
  };
  await fill("not-my-password-0", "kim-second-password-2", "kim-second-password-2");
  await expect(form.getByRole("alert")).toContainText("Current password: not your current password");
  await fill(person.password, "kim-second-password-2", "kim-second-passwrod-2");
  await expect(form.getByRole("alert")).toContainText("New password again: not the same as the new password");
  await fill(person.password, "kim-second-password-2", "kim-second-password-2");
  await expect(form.getByRole("status")).toHaveText("Password changed. 1 other browser was signed out.");
  await page.reload();
  await expect(page.getByLabel(/^Account: /)).toBeVisible();
  await phone.page.reload();
  await expect(phone.page).toHaveURL(/\/signin/);
  await laptop.context.close();
  await phone.context.close();
});

test("the audit trail is narrowed to one kind of entries and to who did them; the address keeps the filters", async ({
  page,
}) => {
  const person = { email: `audited-${Date.now()}@e2e.example`, password: "audited-password-1" };
  const created = await api<{ id: string }>("POST", "/api/users", { ...person, name: "Audited" });
  expect((await api("PATCH", `/api/users/${created.json.id}`, { disabled: true })).status).toBe(200);
  await page.goto("/audit");
  const filters = page.getByRole("form", { name: "Filter the audit trail" });
  await filters.getByLabel("What").selectOption({ label: "People and roles" });
  // The API's bootstrap token acts as the automation account (automation@gatehouse.invalid).
  await filters.getByLabel("Who").fill("Automation@");
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/\/audit\?kind=people&who=Automation%40$/);
  const trail = page.getByRole("list", { name: "Audit trail" });
  await expect(trail).toContainText(`disabled ${person.email}`);
  for (const pill of await trail.getByRole("listitem").locator("span.rounded").allTextContents())
    expect(pill).toMatch(/^(user|member)\./);
  // The filters stay in the form, and nothing matching says so.
  await expect(filters.getByLabel("What")).toHaveValue("people");
  await filters.getByLabel("Who").fill("nobody-at-all@e2e");
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("Nothing matches these filters")).toBeVisible();
  await filters.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(filters.getByLabel("What")).toHaveValue("");
});

test("a row's refused press says why under the row: revoking, from a page left open, a token already revoked", async ({
  page,
  context,
}) => {
  const name = `stale ${Date.now()}`;
  await page.goto("/settings/tokens");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("new-token")).toBeVisible();
  const stale = await context.newPage();
  await stale.goto("/settings/tokens");
  const revoke = async (p: typeof page) => {
    const row = p.getByRole("list", { name: "Tokens" }).getByRole("listitem").filter({ hasText: name });
    await row.getByRole("button", { name: `Revoke ${name}` }).click();
    await row.getByRole("button", { name: "Yes, revoke" }).click();
    return row;
  };
  await expect(await revoke(page)).toContainText("revoked");
  const row = await revoke(stale);
  await expect(row.getByRole("alert")).toHaveText("token not found (or already revoked)");
  await stale.close();
});
