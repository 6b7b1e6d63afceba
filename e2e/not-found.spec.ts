// An address that names nothing answers a real 404 (for the browser and for scripts), and its page says what is
// not there: the Work, task, run, attempt or check. Pages stream their loading skeleton first, which used to
// send 200 before the page found out; a malformed attempt number was a 500. (The run page's ?attempt= is the
// reader's choice, not an object: one the run does not have shows the latest, e2e/reading-runs.spec.ts.)
import { expect, test } from "./support/test";
import { api, demoWork, runJson } from "./support/api";

// The demo Work's first run, once it has ended (its attempt 1 has a "unit" check with a log).
async function endedDemoRun(): Promise<{ workId: string; taskId: string; runId: string; attempts: number }> {
  const { id: workId, taskId } = await demoWork();
  const runs = (await api("GET", `/api/tasks/${taskId}/runs`)).json.runs as unknown as { id: string }[];
  const runId = runs.at(-1)!.id;
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 60_000 }).toBe("finished");
  return { workId, taskId, runId, attempts: (await runJson(runId)).attempts.length };
}

test("unknown or malformed ids answer 404 with a page naming what is not there", async ({ page }) => {
  const { workId, taskId, runId, attempts } = await endedDemoRun();
  const log = (n: number | string, check: string) => `/runs/${runId}/attempts/${n}/checks/${check}/log`;
  const missing: [string, string][] = [
    ["/works/no-such-work", "No such Work"],
    ["/works/no-such-work/checks", "No such Work"],
    [`/works/${workId}/settings/no-such-section`, "No such section"],
    ["/tasks/no-such-task", "No such task"],
    ["/tasks/no-such-task/edit", "No such task"],
    ["/runs/no-such-run", "No such run"],
    ["/runs/no-such-run/attempts/1/checks/unit/log", "No such run"],
    ["/runs/no-such-run?attempt=1", "No such run"],
    [log(attempts + 1, "unit"), "No such attempt"],
    [log("abc", "unit"), "No such attempt"],
    [log(1, "no-such-check"), "No such check"],
    [log(1, "not%20a%20check%20id!"), "No such check"],
  ];
  for (const [path, heading] of missing) {
    const res = await page.goto(path);
    expect([path, res?.status()]).toEqual([path, 404]);
    await expect(page.getByRole("heading", { level: 1, name: heading }), path).toBeVisible();
    await expect(page.getByText("This page could not be shown"), path).toHaveCount(0);
    // A script (no browser's Sec-Fetch headers) is told the same.
    expect([path, (await page.request.get(path)).status()]).toEqual([path, 404]);
  }
  // The attempt's page leads back to the run.
  await page.goto(log(attempts + 1, "unit"));
  await page.getByRole("link", { name: "Open the run" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));

  for (const path of [
    `/works/${workId}`,
    `/works/${workId}/checks`,
    `/tasks/${taskId}`,
    `/runs/${runId}`,
    `/runs/${runId}?attempt=1`,
    `/runs/${runId}?attempt=${attempts + 1}`,
    log(1, "unit"),
  ]) {
    expect([path, (await page.goto(path))?.status()]).toEqual([path, 200]);
    await expect(page.getByRole("heading", { level: 1 }).first(), path).not.toHaveText(/^No such/);
  }
});

test("an address that matches no page says Not found, on the page and in the tab", async ({ page }) => {
  const res = await page.goto("/no-such-page-here");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
  await expect(page).toHaveTitle("Not found · Gatehouse");
});
