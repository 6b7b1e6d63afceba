import { execFileSync } from "node:child_process";
import { expect, test } from "./support/test";
import { gitIn, makeGitRepo } from "@/lib/testing/git-repo";
import { api, dispatch, runJson, workWithChecks } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";

// The team lead's first hour (issue 24, points 4, 5, 8 and 9): a new check's id typed through a default's
// id stays a new check, the profile says what it asks before a dispatch, a Work that cannot land its
// merges says why, and a task's own agent command is set and seen in the UI.

const unit = { id: "unit", name: "Unit tests pass", kind: "test", command: "npm test", required: true };

test("a new check's id typed through a default's id stays a new check; replacing a default is its \
row's button", async ({ page }) => {
  const { taskId } = await workWithChecks("Typing ids", [unit]);
  await page.goto(`/tasks/${taskId}/edit`);
  await page.getByRole("button", { name: "+ Add a check" }).click();
  const added = page.getByRole("listitem", { name: /^Task check/ });
  const id = added.getByLabel("Id", { exact: true });
  await id.fill("");
  await id.pressSequentially("unit");
  // Reading "unit" it is still the new check, still editable, still focused, and refused by name.
  await expect(id).toBeFocused();
  await expect(id).toBeEditable();
  await expect(page.getByRole("listitem", { name: "Unit tests pass (inherited)" })).toBeVisible();
  await expect(
    added.getByText(/is already one of the Work's checks: to replace it, use "Override" on its row/),
  ).toBeVisible();
  await expectNoAxeViolations(page, "a new check whose id is a default's");
  await id.pressSequentially("-discount");
  await expect(id).toHaveValue("unit-discount");
  await expect(id).toBeFocused();
  await added.getByLabel("Name", { exact: true }).fill("Discounts apply");
  await added.getByLabel("Command", { exact: true }).fill("node test/discount.test.js");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Saved: version/ })).toBeVisible();
  const task = (await api("GET", `/api/tasks/${taskId}`)).json;
  expect(task.effectiveChecks.map((c) => [c.id, c.source, c.command])).toEqual([
    ["unit", "inherited", "npm test"],
    ["unit-discount", "added", "node test/discount.test.js"],
  ]);
});

test("the profile says what it asks before a dispatch: the task editor, the task page and the Work page", async ({
  page,
}) => {
  const { workId, taskId } = await workWithChecks("Profile said", [unit]);
  await page.goto(`/works/${workId}`);
  await expect(page.getByRole("note", { name: "What the profile requires" })).toContainText(
    "Profile standard: for every check a task adds (its acceptance criteria), the agent must show " +
      "it working in .gatehouse/evidence.md",
  );
  await page.goto(`/tasks/${taskId}/edit`);
  const note = page.getByRole("note", { name: "What the profile requires" });
  await expect(note).toContainText("this task adds no acceptance check");
  await page.getByRole("button", { name: "+ Add a check" }).click();
  const added = page.getByRole("listitem", { name: /^Task check/ });
  await added.getByLabel("Id", { exact: true }).fill("smoke");
  await added.getByLabel("Name", { exact: true }).fill("Smoke test passes");
  await added.getByLabel("Command", { exact: true }).fill("echo smoke");
  await expect(note).toContainText(
    "this task adds 1 acceptance check (“smoke”), so the agent must write .gatehouse/evidence.md",
  );
  await expectNoAxeViolations(page, "the task editor with the profile note");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Saved: version/ })).toBeVisible();
  await page.goto(`/tasks/${taskId}`);
  await expect(page.getByRole("note", { name: "What the profile requires" })).toContainText(
    "Without it the run is red, even with every check green",
  );
});

test("a task's own agent command is set in the task editor and shown on the task page", async ({ page }) => {
  const { taskId } = await workWithChecks("Task agent", [unit], { agentCommand: "echo the-work-agent" });
  await page.goto(`/tasks/${taskId}`);
  await expect(page.getByTestId("task-agent-command")).toHaveText("agent echo the-work-agent (from the Work)");
  await page.goto(`/tasks/${taskId}/edit`);
  const field = page.getByTestId("task-agent");
  await expect(field).toContainText("Empty: this task runs the Work's agent (echo the-work-agent).");
  await expect(async () => {
    await field.getByLabel("Agent command for this task").fill("echo the-task-agent");
    await expect(field.getByLabel("Agent command for this task")).toHaveValue("echo the-task-agent", { timeout: 1000 });
  }).toPass();
  await expect(field).toContainText("This task's own agent replaces the Work's for its runs.");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Saved: version/ })).toBeVisible();
  expect((await api("GET", `/api/tasks/${taskId}`)).json.agentCommand).toBe("echo the-task-agent");
  await page.goto(`/tasks/${taskId}`);
  await expect(page.getByTestId("task-agent-command")).toHaveText("agent echo the-task-agent (this task's)");
  // A run freezes the task's agent, not the Work's.
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 30_000 }).not.toBe("queued");
  await page.goto(`/runs/${runId}`);
  await expect(page.getByRole("region", { name: "What this run froze" })).toContainText("echo the-task-agent");
});

test("on a phone a long agent command is cut short on the task page, never the words around it", async ({ page }) => {
  const command = "printf 'limit\\n' > limits.txt && git add -A && git commit -qm 'rate limits for the endpoints'";
  const { taskId } = await workWithChecks("Long agent", [unit], { agentCommand: command });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/tasks/${taskId}`);
  const line = page.getByTestId("task-agent-command");
  await expect(line).toHaveText(`agent ${command} (from the Work)`);
  // Measured once the page has settled (it may render again as its data comes in).
  await expect(async () => {
    const [label, code, suffix, whole] = await Promise.all([
      line.getByText("agent", { exact: true }).boundingBox({ timeout: 1000 }),
      line.locator("code").boundingBox({ timeout: 1000 }),
      line.getByText("(from the Work)").boundingBox({ timeout: 1000 }),
      line.boundingBox({ timeout: 1000 }),
    ]);
    // Each on one line, side by side, within the screen: the command alone gives way.
    for (const box of [label, suffix]) expect(box?.height).toBeLessThanOrEqual((code?.height ?? 0) + 1);
    expect(label!.x + label!.width).toBeLessThanOrEqual(code!.x);
    expect(code!.x + code!.width).toBeLessThanOrEqual(suffix!.x);
    expect(whole!.x + whole!.width).toBeLessThanOrEqual(375);
  }).toPass();
});

test("a Work on a repository with the base branch checked out warns before Merge, and Merge says why first", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const repo = makeGitRepo({ "README.md": "one\n" });
  execFileSync("chmod", ["-R", "a+rwX", repo.dir]);
  try {
    const work = await api("POST", "/api/works", {
      name: `Checked out ${Date.now()}`,
      repoUrl: repo.dir,
      baseBranch: "main",
      checkDefaults: [
        { id: "readme", name: "README exists", kind: "custom", command: "test -f README.md", required: true },
      ],
      requireTests: "off",
      vacuousPolicy: "off",
      profile: "lite",
    });
    expect(work.status, JSON.stringify(work.json)).toBe(201);
    await page.goto(`/works/${work.json.id}`);
    const warning = page.getByRole("note", { name: "Merge will fail" });
    await expect(warning).toContainText(`has "main" checked out, and git refuses to push to a checked-out branch`);
    await expectNoAxeViolations(page, "a Work whose merges cannot be pushed");

    // Saving the Work's settings says it too, beside "Saved", in the editor.
    await page.goto(`/works/${work.json.id}/settings/policy`);
    await page.getByLabel(/^Fail fast/).check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved: version 2" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Saved, with warnings" })).toContainText(
      `has "main" checked out, and git refuses to push to a checked-out branch: Merge will fail`,
    );
    await expectNoAxeViolations(page, "a settings save that warns that Merge will fail");

    const task = await api("POST", `/api/works/${work.json.id}/tasks`, {
      title: "Add a file",
      agentCommand: "echo more > more.txt && git add -A && git commit -qm more",
    });
    const runId = await dispatch(task.json.id);
    await expect.poll(async () => (await runJson(runId)).status, { timeout: 45_000 }).toBe("finished");
    expect((await runJson(runId)).ending).toBe("accepted");
    await page.goto(`/tasks/${task.json.id}`);
    await expect(page.getByRole("note", { name: "Merge will fail" })).toBeVisible();
    const panel = page.getByRole("region", { name: "Merge" });
    await panel.getByRole("button", { name: "Merge", exact: true }).click();
    await panel.getByRole("button", { name: "Yes, merge and push" }).click();
    const alert = panel.getByRole("alert");
    await expect(alert).toContainText(
      `Merge refused: the repository refused the push to "main" because "main" is checked out there`,
    );
    await expect(alert).toContainText("Point the Work's repository at a bare clone (git clone --bare)");
    expect(gitIn(repo.dir, "log", "--format=%s", "-1")).toBe("initial commit");
  } finally {
    repo.cleanup();
  }
});

test("a gates file's preview applies the save rules: 21 checks cannot replace the list, and each \
refusal links to its entry", async ({ page }) => {
  const { workId } = await workWithChecks("Import cap", [unit]);
  await page.goto(`/works/${workId}/settings`);
  const yaml = `gates:\n${Array.from({ length: 21 }, (_, i) => `  - run: echo ${i}\n    id: c${i}`).join("\n")}\n`;
  const file = page.getByRole("textbox", { name: "Gates file" });
  await expect(async () => {
    await file.fill(yaml);
    await expect(file).toHaveValue(yaml, { timeout: 1000 });
  }).toPass();
  await page.getByRole("button", { name: "Read the file" }).click();
  const preview = page.getByRole("region", { name: "Import preview" });
  await expect(preview).toContainText("YAML list: 21 checks read, 0 cannot be imported.");
  const refusals = preview.getByRole("alert", { name: "Refused on save" });
  await expect(refusals).toContainText("Replace would be refused on save:checkDefaults: at most 20 checks");
  await expect(preview.getByRole("button", { name: "Replace the list with 21 checks" })).toBeDisabled();
  await expect(preview.getByRole("button", { name: "Add 21 to the list" })).toBeDisabled();
  await expectNoAxeViolations(page, "an import preview refused on save");

  // An id the list already has: Add is refused with a link to that entry; Replace is fine.
  await file.fill("gates:\n  - run: npm test\n    id: unit\n");
  await page.getByRole("button", { name: "Read the file" }).click();
  await expect(refusals).toContainText("Add would be refused on save:");
  await expect(preview.getByRole("button", { name: "Replace the list with 1 check" })).toBeEnabled();
  await expect(preview.getByRole("button", { name: "Add 1 to the list" })).toBeDisabled();
  await refusals.getByRole("link", { name: /checkDefaults\.1\.id: duplicate id "unit"/ }).click();
  await expect(page).toHaveURL(/#import-entry-0$/);
});

test("the editor's problem summary leads to the first field with a problem", async ({ page }) => {
  const { taskId } = await workWithChecks("Problem summary", [unit]);
  await page.goto(`/tasks/${taskId}/edit`);
  await page.getByRole("button", { name: "+ Add a check" }).click();
  const id = page.getByRole("listitem", { name: /^Task check/ }).getByLabel("Id", { exact: true });
  await id.fill("Not An Id");
  await page.getByRole("button", { name: "Save changes" }).focus();
  const status = page.getByTestId("editor-status");
  await expect(status).toContainText("problem");
  await status.getByRole("button", { name: "Go to the first" }).click();
  await expect(page.locator('[aria-invalid="true"]').first()).toBeFocused();
});

test("a check just added opens without red: a hint, nothing marked invalid, saving off until it is filled in", async ({
  page,
}) => {
  const { taskId } = await workWithChecks("Fresh check", [unit]);
  await page.goto(`/tasks/${taskId}/edit`);
  await page.getByRole("button", { name: "+ Add a check" }).click();
  const added = page.getByRole("listitem", { name: /^Task check/ });
  await expect(added).toContainText("A new check: give it a name and what it runs, then save.");
  await expect(added.locator('[aria-invalid="true"]')).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
  // The save bar says what is missing, not "2 problems" nobody has made yet.
  await expect(page.getByTestId("editor-status")).toHaveText("Fill in the new check to save");
  // Once typed in, its problems show where they are.
  await added.getByLabel("Name", { exact: true }).fill("Docs build");
  await expect(added).not.toContainText("A new check: give it a name");
  await expect(added.getByText(/^Command: /)).toBeVisible();
  await added.getByRole("textbox", { name: "Command" }).fill("make docs");
  await expect(page.getByRole("button", { name: "Save changes" })).toBeEnabled();
});

test("a check just added to the Work's defaults counts no problem yet: the bar asks to fill it in, no section \
is flagged", async ({ page }) => {
  const { workId } = await workWithChecks("Fresh default", [unit]);
  await page.goto(`/works/${workId}/settings/checks`);
  await page.getByRole("button", { name: "+ Add a check" }).click();
  const status = page.getByTestId("editor-status");
  await expect(status).toHaveText("Fill in the new check to save");
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await expect(page.getByRole("navigation", { name: "Settings sections" })).not.toContainText("problems");
  // A problem typed into it counts at once.
  const added = page.getByRole("listitem").filter({ hasText: "New check" }).last();
  await added.getByLabel("Id", { exact: true }).fill("Not An Id");
  await expect(status).toContainText(/\d+ problems? to fix before saving/);
});
