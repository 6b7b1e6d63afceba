import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { api, runJson, workWithChecks } from "./support/api";
import { adminState } from "./support/lanes";

const check = (id: string, command: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Check ${id}`,
  kind: "test",
  command,
  required: true,
  ...extra,
});

async function save(page: Page) {
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Saved: version/ })).toBeVisible();
}

test("a lead edits the defaults inline: validation as you type, a cannot-fail warning, reorder, save", async ({
  page,
}) => {
  const { workId } = await workWithChecks("Edit defaults", [
    check("unit", "npm test"),
    check("lint", "npm run lint", { kind: "lint" }),
  ]);
  await page.goto(`/works/${workId}/settings`);
  await page.getByRole("button", { name: "+ Add a check" }).click();
  const added = page.getByRole("listitem", { name: /^Check 3/ });
  await added.getByLabel("Id", { exact: true }).fill("Smoke Test");
  await expect(added.getByText("Id: lowercase letters, digits, - and _ only")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await added.getByLabel("Id", { exact: true }).fill("smoke");
  await added.getByLabel("Name", { exact: true }).fill("Smoke test passes");
  await added.getByRole("textbox", { name: "Command" }).fill("echo smoke ok");
  await expect(added.getByText("This check proves nothing:")).toBeVisible();
  await added.getByRole("textbox", { name: "Command" }).fill("./scripts/smoke.sh");
  await expect(added.getByText("This check proves nothing:")).toHaveCount(0);
  await page.getByRole("button", { name: "Move smoke up" }).click();
  await expect(page.getByRole("listitem", { name: /^Check 2/ })).toHaveAccessibleName(/Smoke test passes/);
  // The policy is a section of its own (each saves on its own); the checks' edits wait while it is open.
  await page
    .getByRole("navigation", { name: "Settings sections" })
    .getByRole("link", { name: /^Policy/ })
    .click();
  await page.getByRole("radio", { name: /warn/ }).check();
  await save(page);
  await page
    .getByRole("navigation", { name: "Settings sections" })
    .getByRole("link", { name: /^Checks/ })
    .click();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved: version 3" })).toBeVisible();
  const work = (await api("GET", `/api/works/${workId}`)).json;
  expect(work.checkDefaults.map((c) => c.id)).toEqual(["unit", "smoke", "lint"]);
  expect(work.checksPolicy).toBe("warn");
  // The change is in the history with a readable diff.
  await page.goto(`/works/${workId}/settings/history`);
  await page
    .getByRole("list", { name: "Change history" })
    .getByText(/changed checks/)
    .click();
  await expect(page.getByRole("list", { name: "Changes" }).getByText("checkDefaults.smoke")).toBeVisible();
});

test("saving over someone else's save is refused with their changes shown, then kept on top of theirs", async ({
  page,
  browser,
}) => {
  const { workId } = await workWithChecks("Conflict", [check("unit", "npm test")]);
  await page.goto(`/works/${workId}/settings`);
  const other = await browser.newContext({ storageState: adminState() });
  const otherPage = await other.newPage();
  await otherPage.goto(`/works/${workId}/settings/policy`);
  await otherPage.getByRole("combobox", { name: "Attempts per run" }).selectOption("5");
  await save(otherPage);
  await other.close();

  // Typed before the editor hydrates, the text can be lost: type until the editor holds it (Save enabled).
  await expect(async () => {
    await page
      .getByRole("listitem", { name: /^Check 1/ })
      .getByLabel("Name", { exact: true })
      .fill("Unit tests pass (renamed)");
    await expect(page.getByRole("button", { name: "Save changes" })).toBeEnabled({ timeout: 1000 });
  }).toPass();
  await page.getByRole("button", { name: "Save changes" }).click();
  const conflict = page.getByRole("alert").filter({ hasText: "Not saved: someone else saved this Work first" });
  await expect(conflict).toBeVisible();
  await expect(conflict.getByText("maxGateAttempts")).toBeVisible();
  expect((await api("GET", `/api/works/${workId}`)).json.checkDefaults[0].name).toBe("Check unit");
  await conflict.getByRole("button", { name: "Keep my edits on top of theirs" }).click();
  await save(page);
  const work = (await api("GET", `/api/works/${workId}`)).json;
  expect(work.checkDefaults[0].name).toBe("Unit tests pass (renamed)");
});

test("a gates file with a bad entry lists it with its reason; the rest is imported after confirming", async ({
  page,
}) => {
  const { workId } = await workWithChecks("Import", [check("unit", "npm test")]);
  await page.goto(`/works/${workId}/settings`);
  await page
    .getByRole("textbox", { name: "Gates file" })
    .fill(
      [
        "gates:",
        "  - run: npm run lint",
        "    name: Lint",
        "    timeout: 5m",
        '  - run: "deploy {TODO: target}"',
        "  - run: make",
        "    retries: 3",
      ].join("\n"),
    );
  await page.getByRole("button", { name: "Read the file" }).click();
  const preview = page.getByRole("region", { name: "Import preview" });
  await expect(preview).toContainText("1 check read, 2 cannot be imported");
  await expect(preview).toContainText("a {TODO: …} blank is left in the command");
  await expect(preview).toContainText("unknown field: retries");
  // Nothing is imported until confirmed.
  await expect(page.getByRole("listitem", { name: /^Check 2/ })).toHaveCount(0);
  await preview.getByRole("button", { name: "Add 1 to the list" }).click();
  await expect(page.getByRole("listitem", { name: /^Check 2: Lint/ })).toBeVisible();
  await save(page);
  const work = (await api("GET", `/api/works/${workId}`)).json;
  expect(work.checkDefaults.map((c) => [c.id, c.timeoutSec])).toEqual([
    ["unit", undefined],
    ["lint", 300],
  ]);
});

test("a task overrides one check and suppresses another, the preview follows, and a dispatch \
freezes exactly that", async ({ page }) => {
  const { taskId } = await workWithChecks("Overrides", [
    check("unit", "echo unit"),
    check("lint", "echo lint", { kind: "lint" }),
    check("types", "echo types", { kind: "typecheck" }),
  ]);
  await page.goto(`/tasks/${taskId}/edit`);
  await page.getByRole("button", { name: "Override unit" }).click();
  const unit = page.getByRole("listitem", { name: "Check unit (overridden)" });
  await unit.getByRole("textbox", { name: "Command" }).fill("echo unit-for-this-task");
  await page.getByRole("button", { name: "Suppress lint" }).click();
  await page.getByRole("button", { name: "+ Add a check" }).click();
  const added = page.getByRole("listitem", { name: /^Task check/ });
  await added.getByLabel("Name", { exact: true }).fill("Docs build");
  await added.getByRole("textbox", { name: "Command" }).fill("echo docs");
  const frozen = page.locator("#preview").getByRole("list", { name: "Declared checks" });
  await expect(frozen.getByRole("listitem")).toHaveCount(3);
  await expect(frozen.getByRole("listitem").nth(0)).toContainText("overridden");
  await expect(frozen.getByRole("listitem").nth(0)).toContainText("echo unit-for-this-task");
  await expect(frozen.getByRole("listitem").nth(2)).toContainText("added");
  await expect(page.locator("#preview")).toContainText("Suppressed for this task: lint");
  await page.getByRole("combobox", { name: "Attempts per run" }).selectOption("2");
  await save(page);

  await page.goto(`/tasks/${taskId}`);
  await page.getByRole("button", { name: "Dispatch" }).click();
  await expect(page).toHaveURL(/\/runs\//);
  const runId = page.url().split("/runs/")[1];
  await expect.poll(async () => (await runJson(runId)).status).not.toBe("queued");
  const run = await runJson(runId);
  expect(run.checks.map((c) => [c.id, c.source])).toEqual([
    ["unit", "overridden"],
    ["types", "inherited"],
    [expect.stringMatching(/^task-check/), "added"],
  ]);
  expect(run.suppressed).toEqual(["lint"]);
  expect(run.maxAttempts).toBe(2);
  expect(run.checks[0].command).toBe("echo unit-for-this-task");
});

test("on a phone, tabbing through the check editor never leaves the focus under the sticky save bar", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 700 });
  const { workId } = await workWithChecks(
    "Tabbing",
    Array.from({ length: 4 }, (_, i) => check(`c${i}`, "true")),
  );
  await page.goto(`/works/${workId}/settings/checks`);
  // An edit shows the bar with its buttons enabled.
  await page.getByLabel("Name").first().fill("Check c0, renamed");
  const bar = page.getByTestId("save-bar");
  await expect(bar.getByRole("button", { name: "Save changes" })).toBeEnabled();
  const hidden: string[] = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    const covered = await page.evaluate(() => {
      const focused = document.activeElement as HTMLElement | null;
      const barBox = document.querySelector('[data-testid="save-bar"]')?.getBoundingClientRect();
      if (!focused || !barBox || focused.closest('[data-testid="save-bar"]')) return false;
      const box = focused.getBoundingClientRect();
      // Half of it or more under the bar (a tall field may reach under it; a button must not).
      const isCovered = box.height > 0 && box.top + box.height / 2 > barBox.top;
      return isCovered ? `${focused.tagName} "${focused.getAttribute("aria-label") ?? focused.textContent}"` : false;
    });
    if (covered) hidden.push(covered);
  }
  expect(hidden).toEqual([]);
});
