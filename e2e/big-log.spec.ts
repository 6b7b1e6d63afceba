import { expect, test } from "./support/test";
import { dispatch, runJson, workWithChecks } from "./support/api";

// A log of 1,000,000 lines: opened at a line link, searched, and downloadable raw.
test("a million-line log opens at #L500000 highlighted, and search jumps between matches", async ({ page }) => {
  test.setTimeout(120_000);
  const { taskId } = await workWithChecks("Big log", [
    {
      id: "million",
      name: "Prints a million lines",
      kind: "test",
      required: true,
      command: "awk 'BEGIN { for (i = 1; i <= 1000000; i++) printf \"line %d: \\033[32mok\\033[0m\\n\", i }'",
    },
  ]);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 60_000 }).toBe("finished");

  await page.goto(`/runs/${runId}/attempts/1/checks/million/log#L500000`);
  await expect(page.getByTestId("line-count")).toHaveText("1,000,000 lines");
  const line = page.locator('[data-line="500000"]');
  await expect(line).toContainText("line 500000: ok");
  await expect(line).toHaveAttribute("data-selected", "true");
  await expect(line.getByText("ok", { exact: true })).toHaveClass(/ansi-green/);

  // Clicking a line number makes it the link.
  await page.locator('[data-line="500003"] a').click();
  await expect(page).toHaveURL(/#L500003$/);

  await page.getByLabel("Search the log").fill("line 77777:");
  await page.getByLabel("Search the log").press("Enter");
  await expect(page.getByTestId("search-status")).toHaveText("1 of 1");
  await expect(page.locator('[data-line="77777"]')).toHaveAttribute("data-selected", "true");

  // Searched after the pause in typing: waited for, so the Enter after it steps, however slow the machine.
  await page.getByLabel("Search the log").fill("line 99999");
  await expect(page.getByTestId("search-status")).toHaveText("1 of 11");
  await page.getByLabel("Search the log").press("Enter");
  await expect(page.getByTestId("search-status")).toHaveText("2 of 11");
  await expect(page.locator('[data-line="999990"]')).toHaveAttribute("data-selected", "true");
  await page.getByRole("button", { name: "Previous match" }).click();
  await expect(page.locator('[data-line="99999"]')).toHaveAttribute("data-selected", "true");

  const download = await page.request.get(`/api/runs/${runId}/attempts/1/checks/million/log?download=1`);
  expect(download.headers()["content-disposition"]).toContain("attachment");
  expect(download.headers()["content-type"]).toContain("text/plain");
});

// A colour opened on one line stays on across the following lines, also where the viewer's chunks of
// lines meet (lines 500/501), until the output resets it.
test("a colour that spans many lines keeps its colour in the full log, across chunk boundaries", async ({ page }) => {
  const { taskId } = await workWithChecks("Colour spans", [
    {
      id: "spans",
      name: "Prints a long red block",
      kind: "test",
      required: true,
      command:
        "printf 'start\\n\\033[31mFAIL block opens\\n'; for i in $(seq 3 600); do echo \"still red " +
        "$i\"; done; printf '\\033[0mplain again\\n'",
    },
  ]);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 60_000 }).toBe("finished");
  for (const n of [300, 560]) {
    // A fresh load each time (going to another #L of the same page would only change the hash).
    await page.goto("about:blank");
    await page.goto(`/runs/${runId}/attempts/1/checks/spans/log#L${n}`);
    const line = page.locator(`[data-line="${n}"]`);
    await expect(line.getByText(`still red ${n}`, { exact: true })).toHaveClass(/ansi-red/);
  }
  const lastLine = page.locator('[data-line="601"]');
  await page.goto("about:blank");
  await page.goto(`/runs/${runId}/attempts/1/checks/spans/log`);
  await expect(lastLine.getByText("plain again", { exact: true })).not.toHaveClass(/ansi-red/);
  await expect(page.locator('[data-line="600"]').getByText("still red 600", { exact: true })).toHaveClass(/ansi-red/);
});
