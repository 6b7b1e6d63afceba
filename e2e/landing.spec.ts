import { execFileSync } from "node:child_process";
import { expect, test } from "./support/test";
import { gitIn, makeBareRepo, pushToRemote } from "@/lib/testing/git-repo";
import { api, dispatch, runJson } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";
import { ADMIN } from "./support/accounts";

// The server's git may run as another user (GATEHOUSE_RUN_AS=nobody as root): the remote is everyone's.
const openUp = (dir: string) => execFileSync("chmod", ["-R", "a+rwX", dir]);
const commitAgent = (file: string, content: string) =>
  `printf '%s\\n' '${content}' > ${file} && git add -A && git commit -qm 'add ${file}'`;

// A Work on `repoUrl` whose one required check is that README.md is there.
async function readmeWork(name: string, repoUrl: string): Promise<string> {
  const work = await api("POST", "/api/works", {
    name: `${name} ${Date.now()}`,
    repoUrl,
    baseBranch: "main",
    checkDefaults: [
      { id: "readme", name: "README exists", kind: "custom", command: "test -f README.md", required: true },
    ],
    requireTests: "off",
    vacuousPolicy: "off",
  });
  expect(work.status, JSON.stringify(work.json)).toBe(201);
  return work.json.id;
}

async function acceptedTask(workId: string, title: string, agentCommand: string): Promise<string> {
  const task = await api("POST", `/api/works/${workId}/tasks`, { title, agentCommand });
  expect(task.status, JSON.stringify(task.json)).toBe(201);
  const runId = await dispatch(task.json.id);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 45_000 }).toBe("finished");
  expect((await runJson(runId)).ending).toBe("accepted");
  return task.json.id;
}

test("merging an accepted task from its page asks first, then lands it on the remote and offers no Merge \
until the branch moves; a conflict is refused with its file; the history has a strip", async ({ page }) => {
  // Three runs, three merges and three axe scans on a shared machine: more than the default minute.
  test.setTimeout(240_000);
  const remote = makeBareRepo({ "README.md": "one\n" });
  openUp(remote.dir);
  try {
    const workId = await readmeWork("Landing", remote.dir);

    // A task never run: Merge is disabled, with the reason.
    const idle = await api("POST", `/api/works/${workId}/tasks`, { title: "Not run yet" });
    await page.goto(`/tasks/${idle.json.id}`);
    const idlePanel = page.getByRole("region", { name: "Merge" });
    await expect(idlePanel.getByRole("button", { name: "Merge", exact: true })).toBeDisabled();
    await expect(idlePanel).toContainText(
      "Cannot merge: the task has not been run yet; " +
        "the Work's merge settings ask for an accepted run with a green gate",
    );
    await expect(idlePanel).toContainText("Not merged into main yet.");

    const featureId = await acceptedTask(workId, "Add a feature", commitAgent("feature.txt", "feature"));
    const conflictingId = await acceptedTask(workId, "Rewrite the README", commitAgent("README.md", "mine"));

    await page.goto(`/tasks/${featureId}`);
    const panel = page.getByRole("region", { name: "Merge" });
    const mergeButton = panel.getByRole("button", { name: "Merge", exact: true });
    const asking = panel.getByRole("group", { name: "Merge this task?" });
    const yes = asking.getByRole("button", { name: "Yes, merge and push" });
    const featureBranch = (await api("GET", `/api/tasks/${featureId}`)).json.branch as string;
    const mainBefore = gitIn(remote.dir, "rev-parse", "refs/heads/main");

    // Merge pushes to the team's base branch: it asks once, saying so, the confirming press focused.
    await mergeButton.click();
    await expect(asking).toContainText(
      `Merges ${featureBranch} into main with a merge commit (method: merge) and pushes it to ${remote.dir}. ` +
        "Gatehouse cannot undo this.",
    );
    await expect(yes).toBeFocused();
    await expectNoAxeViolations(page, "the step that asks before a merge");
    // Escape backs out, the focus back on Merge; so does "Keep it unmerged" (opened from the keyboard).
    await page.keyboard.press("Escape");
    await expect(asking).toBeHidden();
    await expect(mergeButton).toBeFocused();
    await page.keyboard.press("Enter");
    await asking.getByRole("button", { name: "Keep it unmerged" }).click();
    await expect(asking).toBeHidden();
    await expect(mergeButton).toBeFocused();
    await expect(panel).toContainText("Not merged into main yet.");
    expect(gitIn(remote.dir, "rev-parse", "refs/heads/main")).toBe(mainBefore);
    expect((await api("GET", `/api/tasks/${featureId}`)).json.mergedCommit).toBeNull();

    await mergeButton.click();
    await yes.click();
    await expect(panel.getByRole("status")).toContainText("Merged as");
    const merged = (await api("GET", `/api/tasks/${featureId}`)).json.mergedCommit as string;
    expect(gitIn(remote.dir, "rev-parse", "refs/heads/main")).toBe(merged);
    await expect(panel.getByRole("status").locator("code").first()).toHaveText(merged.slice(0, 12));
    await expect(panel.getByRole("status")).toContainText(`into main by ${ADMIN.email}`);
    // Nothing left to merge: no Merge button (it would only say "nothing to merge"), after a reload too.
    await expect(mergeButton).toHaveCount(0);
    await page.reload();
    await expect(panel.getByRole("status")).toContainText(`Merged as ${merged.slice(0, 12)} into main`);
    await expect(mergeButton).toHaveCount(0);
    await panel.getByText("Full commit").click();
    await expect(panel.getByText(merged)).toBeVisible();
    await expectNoAxeViolations(page, "a merged task");

    // A new run commits past the merge: Merge is offered again, beside "Merged as", and lands the new commit.
    const { version } = (await api<{ version: number }>("GET", `/api/tasks/${featureId}`)).json;
    const patched = await api("PATCH", `/api/tasks/${featureId}`, {
      version,
      agentCommand: commitAgent("more.txt", "more"),
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    const rerun = await dispatch(featureId);
    await expect.poll(async () => (await runJson(rerun)).status, { timeout: 45_000 }).toBe("finished");
    expect((await runJson(rerun)).ending).toBe("accepted");
    await page.reload();
    await expect(panel.getByRole("status")).toContainText(`Merged as ${merged.slice(0, 12)}`);
    await expect(mergeButton).toBeEnabled();
    await mergeButton.click();
    await yes.click();
    await expect(mergeButton).toHaveCount(0);
    const mergedAgain = (await api("GET", `/api/tasks/${featureId}`)).json.mergedCommit as string;
    expect(mergedAgain).not.toBe(merged);
    expect(gitIn(remote.dir, "rev-parse", "refs/heads/main")).toBe(mergedAgain);
    await expect(panel.getByRole("status").locator("code").first()).toHaveText(mergedAgain.slice(0, 12));

    // Someone else changes the README on main: the second task's merge conflicts, and nothing is pushed.
    pushToRemote(remote.dir, "main", { "README.md": "theirs\n" });
    openUp(remote.dir);
    const before = gitIn(remote.dir, "rev-parse", "refs/heads/main");
    await page.goto(`/tasks/${conflictingId}`);
    const second = page.getByRole("region", { name: "Merge" });
    await second.getByRole("button", { name: "Merge", exact: true }).click();
    await second.getByRole("button", { name: "Yes, merge and push" }).click();
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
    await expect(row.getByRole("cell").first()).toHaveText("3");
    const strip = row.getByRole("list", { name: "last 3 results, oldest first" });
    await expect(strip.getByRole("link")).toHaveCount(3);
    await expect(strip.getByRole("link", { name: /run #1 attempt 1: passed$/ }).first()).toBeVisible();
    await strip.getByRole("link").first().click();
    await expect(page).toHaveURL(/\/runs\//);
  } finally {
    remote.cleanup();
  }
});

test("a merge confirmed from the keyboard leaves the focus on “Merged as”, not at the start of the page", async ({
  page,
}) => {
  const remote = makeBareRepo({ "README.md": "one\n" });
  openUp(remote.dir);
  try {
    const taskId = await acceptedTask(
      await readmeWork("Keyboard merge", remote.dir),
      "Merge by keyboard",
      commitAgent("keys.txt", "keys"),
    );
    await page.goto(`/tasks/${taskId}`);
    const panel = page.getByRole("region", { name: "Merge" });
    await panel.getByRole("button", { name: "Merge", exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(panel.getByRole("button", { name: "Yes, merge and push" })).toBeFocused();
    await page.keyboard.press("Enter");
    // The Merge button is gone once merged: the focus goes to what replaced it, so the keyboard goes on from here.
    await expect(panel.getByRole("status")).toContainText("Merged as");
    await expect(panel.getByRole("button", { name: "Merge", exact: true })).toHaveCount(0);
    await expect(panel.getByRole("status")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(panel.getByText("Full commit")).toBeFocused();
  } finally {
    remote.cleanup();
  }
});
