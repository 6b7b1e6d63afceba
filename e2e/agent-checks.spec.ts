import { expect, test } from "./support/test";
import { api, dispatch, personWithRole, runJson, workWithChecks } from "./support/api";
import { signedInContext } from "./support/sign-in";

const SECRET = "e2e-held-out-marker";

test("a run with an agent check says who ran each check; a viewer sees a held-out check's name and \
verdict, not its command", async ({ page, browser }) => {
  const { workId, taskId } = await workWithChecks(
    "Agent checks",
    [
      { id: "built", name: "It builds", kind: "build", command: "echo built", required: true },
      {
        id: "smoke",
        name: "The health page says OK",
        kind: "custom",
        command: "Start the server and open /health: it must say OK.",
        required: true,
        executor: "agent",
      },
      {
        id: "held",
        name: "Held-out acceptance",
        kind: "test",
        command: `echo held-out passed # ${SECRET}`,
        required: true,
        hidden: true,
      },
    ],
    {
      agentCommand:
        `echo '{"checks": [{"id": "smoke", "status": "pass", "message": "health said OK"}, {"id": ` +
        `"nope", "status": "pass"}]}' > "$GATEHOUSE_REPORT_FILE"`,
      maxGateAttempts: 1,
      requireTests: "off",
      vacuousPolicy: "off",
    },
  );
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 45_000 }).toBe("finished");

  await page.goto(`/runs/${runId}`);
  const checks = page.getByTestId("run-checks");
  await expect(checks.getByRole("status", { name: "Gate green" })).toBeVisible();
  const smoke = checks.locator('[data-check-id="smoke"]');
  await expect(smoke).toContainText("reported by the agent");
  await expect(smoke).toContainText("health said OK");
  await expect(smoke.locator('summary [data-verdict="passed"]')).toBeVisible();
  await expect(checks.locator('[data-check-id="built"]')).toContainText("run by Gatehouse");
  await expect(checks.getByTestId("report-notes")).toContainText('"nope" is not a check of this run: dropped');
  // The admin sees the held-out check's command.
  await expect(page.getByText(SECRET).first()).toBeAttached();

  const viewer = await personWithRole(workId, "viewer");
  const { context, page: asViewer } = await signedInContext(browser, viewer);
  await asViewer.goto(`/runs/${runId}`);
  const held = asViewer.getByTestId("run-checks").locator('[data-check-id="held"]');
  await expect(held).toContainText("Held-out acceptance");
  await expect(held.locator('summary [data-verdict="passed"]')).toBeVisible();
  await held.locator("summary").click();
  await expect(held).toContainText("its command and log are shown to leads");
  await expect(asViewer.getByText("Its command is shown to leads.")).toBeVisible();
  expect(await asViewer.content()).not.toContain(SECRET);
  const viaApi = await asViewer.request.get(`/api/runs/${runId}`);
  expect(await viaApi.text()).not.toContain(SECRET);
  expect((await asViewer.request.get(`/api/runs/${runId}/attempts/1/checks/held/log`)).status()).toBe(403);
  await context.close();

  // The API says who ran each row.
  const rows = (await api("GET", `/api/runs/${runId}`)).json.attempts[0].checks;
  expect(rows.filter((r) => !r.checkId.startsWith("_")).map((r) => [r.checkId, r.executor])).toEqual([
    ["built", "platform"],
    ["smoke", "agent"],
    ["held", "platform"],
  ]);
});
