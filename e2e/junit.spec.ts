import { expect, test } from "./support/test";
import { api, dispatch, runJson, workWithChecks } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";

// A real node:test suite, written by the check itself (outside every test pattern, so the proof rows leave
// it alone), reporting to JUnit XML: one test fails.
const UNIT = [
  "mkdir -p e2e-suite out && cat > e2e-suite/slug.js <<'JS'",
  'const test = require("node:test");',
  'const assert = require("node:assert/strict");',
  'test("lower-cases the title", () => assert.equal("Hello", "hello"));',
  'test("trims spaces", () => assert.equal("  a ".trim(), "a"));',
  "JS",
  "node --test --test-reporter=junit --test-reporter-destination=out/junit.xml e2e-suite/slug.js",
].join("\n");

test("an accepted run: the reports-only JUnit check is an amber Warning listing its failed test; a \
test check with no summary warns", async ({ page }) => {
  test.setTimeout(120_000);
  const { taskId } = await workWithChecks(
    "JUnit",
    [
      { id: "ready", name: "It builds", kind: "build", command: "true", required: true },
      { id: "unit", name: "Unit tests", kind: "custom", command: UNIT, required: false, junit: "out/*.xml" },
      {
        id: "smoke",
        name: "Smoke tests",
        kind: "test",
        command: "echo \"make: 'test' is up to date.\"",
        required: true,
      },
    ],
    { requireTests: "off", vacuousPolicy: "off" },
  );
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 60_000 }).toBe("finished");
  const run = await runJson(runId);
  expect([run.ending, run.gate]).toEqual(["accepted", "green"]);

  await page.goto(`/runs/${runId}`);
  const unit = page.locator('li[data-check-id="unit"]');
  // Reports only and failed, on an accepted run: a warning, not a red "Failed".
  await expect(unit.locator("[data-verdict]")).toHaveText("Warning");
  await expect(unit.locator("[data-verdict]")).toHaveAttribute("data-verdict", "failed");
  await expect(unit).toContainText("1 failed: lower-cases the title");
  await expect(unit.getByTestId("test-counts")).toHaveText("1 passed · 1 failed");
  await unit.locator("summary").first().click();
  await expect(unit).toContainText("failed, but this check only reports");
  const failed = unit.getByRole("region", { name: "Failed tests" });
  await expect(failed).toContainText("Failed tests (1)");
  await failed.getByText("lower-cases the title").click();
  await expect(failed.locator("pre").first()).toContainText("Expected values to be strictly equal");
  await expect(failed).toContainText("'Hello'");

  // A test check that passed with no sign that any test ran: passed, with the warning on its row.
  const smoke = page.locator('li[data-check-id="smoke"]');
  await expect(smoke.locator("[data-verdict]")).toHaveText("Passed");
  await expect(smoke.getByTestId("row-warning")).toHaveText(
    "Warning: no test summary seen: Gatehouse cannot tell that tests ran",
  );
  // The required check that passed is green, as ever.
  await expect(page.locator('li[data-check-id="ready"] [data-verdict]')).toHaveText("Passed");
  await expectNoAxeViolations(page, "a run with a JUnit warning row, expanded");
});

test("a lead declares a check's JUnit reports in the editor: a glob leaving the checkout is refused as typed", async ({
  page,
}) => {
  const { workId } = await workWithChecks("JUnit editor", [
    { id: "ready", name: "It builds", kind: "build", command: "make", required: true },
  ]);
  await page.goto(`/works/${workId}/settings`);
  await page.getByRole("button", { name: "+ Add a check" }).click();
  const added = page.getByRole("listitem", { name: /^Check 2/ });
  await added.getByLabel("Id", { exact: true }).fill("unit");
  await added.getByLabel("Name", { exact: true }).fill("Unit tests pass");
  await added.getByRole("textbox", { name: "Command" }).fill("npm test");
  await added.getByLabel("JUnit reports").fill("../reports/*.xml");
  await expect(added.getByText("JUnit reports: must stay inside the checkout: '..' is not allowed")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await added.getByLabel("JUnit reports").fill("reports/*.xml");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Saved: version/ })).toBeVisible();
  const work = (await api("GET", `/api/works/${workId}`)).json;
  expect(work.checkDefaults.find((c) => c.id === "unit")?.junit).toBe("reports/*.xml");
});

test("the check history shows per-test pass rates from the JUnit reports, worst first", async ({ page }) => {
  test.setTimeout(120_000);
  // Attempt 1: "sometimes fails" fails (no marker yet); attempt 2: it passes. "always fails" fails both times.
  const suite = [
    "mkdir -p e2e-suite out && cat > e2e-suite/slug.js <<'JS'",
    'const test = require("node:test");',
    'const assert = require("node:assert/strict");',
    'const fs = require("node:fs");',
    'const seen = fs.existsSync("out/marker");',
    'fs.writeFileSync("out/marker", "ran");',
    'test("sometimes fails", () => assert.ok(seen));',
    'test("always passes", () => assert.ok(true));',
    'test("always fails", () => assert.ok(false));',
    "JS",
    "node --test --test-reporter=junit --test-reporter-destination=out/junit.xml e2e-suite/slug.js",
  ].join("\n");
  const { workId, taskId } = await workWithChecks(
    "JUnit history",
    [{ id: "unit", name: "Unit tests", kind: "custom", command: suite, required: true, junit: "out/*.xml" }],
    { requireTests: "off", vacuousPolicy: "off" },
  );
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 60_000 }).toBe("waiting");
  expect((await api("POST", `/api/runs/${runId}/attempts`)).status).toBe(202);
  await expect.poll(async () => (await runJson(runId)).attempts[1]?.status, { timeout: 60_000 }).toBe("finished");

  await page.goto(`/works/${workId}/checks`);
  const row = page.locator('tr[data-check-id="unit"]');
  // One run of two attempts: the check ran twice, and the column says times run, not runs.
  await expect(page.getByRole("columnheader", { name: "Times run" })).toBeVisible();
  await expect(row.getByRole("cell").first()).toHaveText("2");
  const rates = row.getByTestId("test-rates");
  await expect(rates).toContainText("3 tests over 2 results · 2 not always passing");
  await rates.locator("summary").click();
  const list = rates.getByRole("list", { name: "Tests that did not always pass" });
  await expect(list.getByRole("listitem")).toHaveText([
    /^0%\s*always fails \(0\/2\)$/,
    /^50%\s*sometimes fails \(1\/2\)$/,
  ]);
  await expectNoAxeViolations(page, "the check history with per-test pass rates open");
});
