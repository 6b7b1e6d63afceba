import { expect, test } from "./support/test";
import { api, demoWork, dispatch, runJson, workWithChecks } from "./support/api";

test("a run page shows the proof rows under the checks: the demo's attempt 1 added no test, attempt 2 did", async ({
  page,
}) => {
  const { taskId } = await demoWork();
  const runs = await api<{ runs: { id: string }[] }>("GET", `/api/tasks/${taskId}/runs`);
  const runId = runs.json.runs.at(-1)!.id;
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 45_000 }).toBe("finished");
  await page.goto(`/runs/${runId}`);
  const checks = page.getByTestId("run-checks");
  await expect(checks.getByRole("status", { name: "Gate green" })).toBeVisible();
  const proof = checks.getByRole("region", { name: "Proof" });
  await expect(proof.locator('[data-check-id="_tests-added"] summary [data-verdict="passed"]')).toBeVisible();
  await expect(proof).toContainText("The change touches 1 test file: test/slugify.test.js");
  await expect(proof.locator('[data-check-id="_protected"] summary [data-verdict="passed"]')).toBeVisible();
  await expect(proof.locator('[data-check-id="_tests-kept"] summary [data-verdict="passed"]')).toBeVisible();
  await expect(proof.locator('[data-check-id="_fails-without-change"] summary [data-verdict="passed"]')).toBeVisible();
  await expect(proof).toContainText('Without the change, "unit" fails: it tests the work');
  // The checks' own rows stay above, outside the Proof group.
  await expect(checks.locator('[data-check-id="unit"]')).toHaveCount(1);
  await expect(proof.locator('[data-check-id="unit"]')).toHaveCount(0);

  await checks.getByRole("button", { name: "Attempt 1 (red)" }).click();
  const row = proof.locator('[data-check-id="_tests-added"]');
  await expect(proof.locator('[data-check-id="_tests-added"] summary [data-verdict="failed"]')).toBeVisible();
  await expect(row).toContainText("The change adds or changes no test: none of its files is a test file");
  await expect(row).toContainText("Reports only");
  await proof.locator('[data-check-id="_tests-added"] summary [data-verdict="failed"]').click();
  await expect(row.getByTestId("log-tail")).toContainText("What to do: add or change a test");
  // Grouped by kind, the proof rows keep their own group.
  await page.getByRole("button", { name: "By kind" }).click();
  await expect(checks.getByRole("region", { name: "test checks" })).toContainText("Unit tests pass");
  await expect(proof.locator('[data-check-id="_tests-added"] summary [data-verdict="failed"]')).toBeVisible();
});

test("an agent that edits the script its gate runs gets a red gate, though the script now exits 0", async ({
  page,
}) => {
  const { taskId } = await workWithChecks(
    "Edits its own gate",
    [{ id: "gate", name: "The gate script passes", kind: "custom", command: "bash scripts/gate.sh", required: true }],
    {
      agentCommand: "mkdir -p scripts && echo 'exit 0' > scripts/gate.sh",
      maxGateAttempts: 1,
      requireTests: "off",
    },
  );
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 30_000 }).toBe("finished");
  await page.goto(`/runs/${runId}`);
  const checks = page.getByTestId("run-checks");
  await expect(checks.getByRole("status", { name: "Gate red" })).toBeVisible();
  await expect(checks.locator('[data-check-id="gate"] summary [data-verdict="passed"]')).toBeVisible();
  const proof = checks.getByRole("region", { name: "Proof" });
  await expect(proof.locator('[data-check-id="_protected"] summary [data-verdict="failed"]')).toBeVisible();
  // The script did not exist at the start: without it the check fails, so it passes only with its edit.
  await expect(proof).toContainText('"gate" passes only with its edited gate: scripts/gate.sh');
});

test("a lead edits the proof settings inline: a glob outside the checkout is refused as typed; \
saved, the API has them", async ({ page }) => {
  const { workId } = await workWithChecks("Proof settings", [
    { id: "unit", name: "Unit", kind: "test", command: "npm test", required: true },
  ]);
  await page.goto(`/works/${workId}/settings/proof`);
  const proof = page.getByRole("region", { name: "Proof" });
  // Typed before the editor hydrates, the text can be lost: type until it holds.
  await expect(async () => {
    await proof.getByLabel("Protected files").fill("scripts/**\n../outside");
    await expect(proof.getByLabel("Protected files")).toHaveValue("scripts/**\n../outside", { timeout: 1000 });
  }).toPass();
  await expect(
    proof.getByText("Protected files: line 2 (../outside): must stay inside the checkout: '..' is not allowed"),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await proof.getByLabel("Protected files").fill("scripts/**\nMakefile");
  await proof.getByLabel("Test files").fill("spec/**/*_spec.rb\nsrc/[abc");
  await expect(proof.getByText('Test files: line 2 (src/[abc): not a glob: missing closing: "]"')).toBeVisible();
  await proof.getByLabel("Test files").fill("spec/**/*_spec.rb");
  await proof.getByLabel("Tests must be added").selectOption("required");
  await expect(proof.getByText("A change without a test is red")).toBeVisible();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Saved: version/ })).toBeVisible();
  const saved = (await api("GET", `/api/works/${workId}`)).json;
  expect(saved).toMatchObject({
    testPatterns: ["spec/**/*_spec.rb"],
    requireTests: "required",
    protectedPaths: ["scripts/**", "Makefile"],
    vacuousPolicy: "warn",
  });
});
