import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./support/test";
import { api, dispatch, runJson, workWithChecks } from "./support/api";

// A repository of check code on this machine: a gate script that names its version.
function gateRepo(): { dir: string; head: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-e2e-gate-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@gatehouse.invalid", ...args], {
      cwd: dir,
      encoding: "utf8",
    }).trim();
  git("init", "--quiet", "--initial-branch=main");
  fs.writeFileSync(path.join(dir, "check.sh"), 'echo "genuine gate from the check source"\n');
  git("add", "-A");
  git("commit", "--quiet", "-m", "gate");
  return { dir, head: git("rev-parse", "HEAD") };
}

test("a lead adds a check source inline: a url git would take as an option is refused as typed; \
saved, a run clones it", async ({ page }) => {
  const source = gateRepo();
  try {
    const { workId, taskId } = await workWithChecks(
      "Check sources",
      [
        {
          id: "gate",
          name: "Gate from its source",
          kind: "custom",
          command: "bash {{checks_dir}}/gate/check.sh",
          required: true,
        },
      ],
      { requireTests: "off", vacuousPolicy: "off" },
    );
    await page.goto(`/works/${workId}/settings/sources`);
    const sources = page.getByRole("region", { name: /^Check sources/ });
    // Clicked before the editor hydrates, the click can be lost: click until the row is there.
    await expect(async () => {
      if ((await sources.getByLabel("Folder name").count()) === 0)
        await sources.getByRole("button", { name: "+ Add a source" }).click();
      await expect(sources.getByLabel("Folder name")).toHaveCount(1, { timeout: 1000 });
    }).toPass();
    await sources.getByLabel("Folder name").fill("gate");
    await sources.getByLabel("Repository").fill("--upload-pack=touch /tmp/pwned");
    await expect(
      sources.getByText("Repository: must not start with '-' (git would read it as an option)"),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
    await sources.getByLabel("Repository").fill("ext::sh -c touch% /tmp/pwned");
    await expect(sources.getByText(/Repository: remote helpers .* are not allowed/)).toBeVisible();
    await sources.getByLabel("Repository").fill(source.dir);
    await sources.getByLabel("Branch, tag or commit").fill("a..b");
    await expect(sources.getByText("Branch, tag or commit: not a git ref: must not contain '..'")).toBeVisible();
    await sources.getByLabel("Branch, tag or commit").fill("main");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: /Saved: version/ })).toBeVisible();
    expect((await api("GET", `/api/works/${workId}`)).json.checkSources).toEqual([
      { name: "gate", url: source.dir, ref: "main" },
    ]);

    const runId = await dispatch(taskId);
    await expect.poll(async () => (await runJson(runId)).status, { timeout: 45_000 }).toBe("finished");
    const run = await runJson(runId);
    expect(run.checkSources).toEqual([{ name: "gate", url: source.dir, ref: "main", commit: source.head }]);
    await page.goto(`/runs/${runId}`);
    const checks = page.getByTestId("run-checks");
    await expect(checks.locator('[data-check-id="gate"] summary [data-verdict="passed"]')).toBeVisible();
    await expect(checks.locator('[data-check-id="gate"]')).toContainText("genuine gate from the check source");
    const frozen = page.getByRole("list", { name: "Check sources" });
    await expect(frozen).toContainText(`gate${source.dir}at main → ${source.head.slice(0, 8)}`);
  } finally {
    fs.rmSync(source.dir, { recursive: true, force: true });
  }
});
