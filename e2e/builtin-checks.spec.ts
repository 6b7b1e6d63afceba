import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { api, dispatch, runJson, workWithChecks } from "./support/api";

async function save(page: Page) {
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Saved: version/ })).toBeVisible();
}

test("a lead saves a built-in check in the editor; its run row shows the built-in's message", async ({ page }) => {
  const { workId, taskId } = await workWithChecks("Built-in", [
    { id: "unit", name: "Unit tests pass", kind: "test", command: "npm test", required: false },
  ]);
  await page.goto(`/works/${workId}/settings`);
  await page.getByRole("button", { name: "+ Add a check" }).click();
  const added = page.getByRole("listitem", { name: /^Check 2/ });
  await expect(async () => {
    await added.getByLabel("Id", { exact: true }).fill("pkg");
    await expect(added.getByLabel("Id", { exact: true })).toHaveValue("pkg", { timeout: 1000 });
  }).toPass();
  await added.getByLabel("Name", { exact: true }).fill("package.json is valid JSON");
  await added.getByRole("combobox", { name: "Runs" }).selectOption("json_valid");
  await added.getByLabel("path").fill("../package.json");
  await expect(added.getByText("path: must stay inside the results directory: '..' is not allowed")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await added.getByLabel("path").fill("package.json");
  await save(page);
  const work = (await api("GET", `/api/works/${workId}`)).json;
  expect(work.checkDefaults[1]).toMatchObject({ id: "pkg", use: "json_valid", with: { path: "package.json" } });
  expect(work.checkDefaults[1].command).toBeUndefined();

  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 45_000 }).toBe("finished");
  await page.goto(`/runs/${runId}`);
  const row = page.getByTestId("run-checks").locator('[data-check-id="pkg"]');
  await expect(row.locator('summary [data-verdict="passed"]')).toBeVisible();
  await expect(row).toContainText(/package\.json: valid JSON \(\d+ B\)/);
  const result = (await runJson(runId)).attempts[0].checks.find((c) => c.checkId === "pkg");
  expect([result?.verdict, result?.exitCode]).toEqual(["passed", null]);
});

test("a lead uploads a Work asset, sees it listed with its size, and deletes it", async ({ page }) => {
  const { workId } = await workWithChecks("Assets", [
    { id: "unit", name: "Unit tests pass", kind: "test", command: "npm test", required: true },
  ]);
  await page.goto(`/works/${workId}/settings/assets`);
  const assets = page.getByRole("region", { name: "Assets" });
  await expect(assets.getByText("No assets yet")).toBeVisible();
  await assets.getByLabel("Upload files…").setInputFiles({
    name: "expected output.json",
    mimeType: "application/json",
    buffer: Buffer.from('{"total": 42}\n'),
  });
  const list = assets.getByRole("list", { name: "Assets" });
  await expect(list.getByText("expected-output.json")).toBeVisible();
  await expect(list).toContainText("14 B");
  expect((await api("GET", `/api/works/${workId}/assets`)).json.assets).toEqual([
    expect.objectContaining({ name: "expected-output.json", size: 14 }),
  ]);
  await list.getByRole("button", { name: "Delete expected-output.json" }).click();
  await expect(assets.getByText("No assets yet")).toBeVisible();
});
