import { execFileSync } from "node:child_process";
import { expect, test } from "./support/test";
import { gitIn, makeBareRepo, pushToRemote } from "@/lib/testing/git-repo";
import { api, dispatch, runJson } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";

// The server's git may run as another user (GATEHOUSE_RUN_AS=nobody as root): the remote is everyone's.
const openUp = (dir: string) => execFileSync("chmod", ["-R", "a+rwX", dir]);
const commitAgent = (file: string, content: string) =>
  `printf '%s\\n' '${content}' > ${file} && git add -A && git commit -qm 'add ${file}'`;

async function acceptedTask(workId: string, title: string, agentCommand: string): Promise<string> {
  const task = await api("POST", `/api/works/${workId}/tasks`, { title, agentCommand });
  expect(task.status, JSON.stringify(task.json)).toBe(201);
  const runId = await dispatch(task.json.id);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 45_000 }).toBe("finished");
  expect((await runJson(runId)).ending).toBe("accepted");
  return task.json.id;
}

test("merging an accepted task from its page lands it on the remote; a conflict is refused with its \
file; the history has a strip", async ({ page }) => {
  // Two runs, two merges and two axe scans on a shared machine: more than the default minute.
  test.setTimeout(180_000);
  const remote = makeBareRepo({ "README.md": "one\n" });
  openUp(remote.dir);
  try {
    const work = await api("POST", "/api/works", {
      name: `Landing ${Date.now()}`,
      repoUrl: remote.dir,
      baseBranch: "main",
      checkDefaults: [
        { id: "readme", name: "README exists", kind: "custom", command: "test -f README.md", required: true },
      ],
      requireTests: "off",
      vacuousPolicy: "off",
    });
    expect(work.status, JSON.stringify(work.json)).toBe(201);
    const workId = work.json.id;

    // A task never run: Merge is disabled, with the reason.
    const idle = await api("POST", `/api/works/${workId}/tasks`, { title: "Not run yet" });
    await page.goto(`/tasks/${idle.json.id}`);
    const idlePanel = page.getByRole("region", { name: "Merge" });
    await expect(idlePanel.getByRole("button", { name: "Merge" })).toBeDisabled();
    await expect(idlePanel).toContainText(
      "Cannot merge: the task has not been run yet; " +
        "the Work's merge settings ask for an accepted run with a green gate",
    );
    await expect(idlePanel).toContainText("Not merged into main yet.");

    const featureId = await acceptedTask(workId, "Add a feature", commitAgent("feature.txt", "feature"));
    const conflictingId = await acceptedTask(workId, "Rewrite the README", commitAgent("README.md", "mine"));

    await page.goto(`/tasks/${featureId}`);
    const panel = page.getByRole("region", { name: "Merge" });
    await panel.getByRole("button", { name: "Merge" }).click();
    await expect(panel.getByRole("status")).toContainText("Merged as");
    const merged = (await api("GET", `/api/tasks/${featureId}`)).json.mergedCommit as string;
    expect(gitIn(remote.dir, "rev-parse", "refs/heads/main")).toBe(merged);
    await expect(panel.getByRole("status").locator("code").first()).toHaveText(merged.slice(0, 12));
    await panel.getByText("Full commit").click();
    await expect(panel.getByText(merged)).toBeVisible();
    await expectNoAxeViolations(page, "a merged task");

    // Someone else changes the README on main: the second task's merge conflicts, and nothing is pushed.
    pushToRemote(remote.dir, "main", { "README.md": "theirs\n" });
    openUp(remote.dir);
    const before = gitIn(remote.dir, "rev-parse", "refs/heads/main");
    await page.goto(`/tasks/${conflictingId}`);
    const second = page.getByRole("region", { name: "Merge" });
    await second.getByRole("button", { name: "Merge" }).click();
    const alert = second.getByRole("alert");
    await expect(alert).toContainText("Merge refused: merging");
    await expect(alert).toContainText("conflicts in 1 file: README.md; nothing was pushed");
    await expect(alert.getByRole("listitem")).toHaveText(["README.md"]);
    expect(gitIn(remote.dir, "rev-parse", "refs/heads/main")).toBe(before);
    await expectNoAxeViolations(page, "a refused merge");

    await page.goto(`/works/${workId}`);
    await page.getByRole("link", { name: "Check history" }).click();
    await expect(page.getByRole("heading", { name: "Check history" })).toBeVisible();
    const row = page.locator('tr[data-check-id="readme"]');
    await expect(row.getByRole("cell").first()).toHaveText("2");
    const strip = row.getByRole("list", { name: "last 2 results, oldest first" });
    await expect(strip.getByRole("link")).toHaveCount(2);
    await expect(strip.getByRole("link", { name: /run #1 attempt 1: passed$/ }).first()).toBeVisible();
    await strip.getByRole("link").first().click();
    await expect(page).toHaveURL(/\/runs\//);
  } finally {
    remote.cleanup();
  }
});
