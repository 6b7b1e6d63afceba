import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { makeBareRepo, makeGitRepo } from "@/lib/testing/git-repo";
import { expect, test } from "./support/test";
import { api, demoWorkJson, personWithRole, workWithChecks } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";
import { signedInContext } from "./support/sign-in";

// Changing which Work a Work is, and what a task is called, in the UI: the General section of a Work's
// settings (name, repository, base branch: admins edit them, everyone else reads them), the links to it
// where a page says the repository must change, and a task's title and description in its editor.

const nav = (page: Page) => page.getByRole("navigation", { name: "Settings sections" });

test("the Work's lead, an admin, renames it and moves it to another repository and base branch; an invalid \
repository is refused beside its field and nothing is saved", async ({ page }) => {
  const { workId } = await workWithChecks("Before the move", []);
  const before = (await api("GET", `/api/works/${workId}`)).json;
  const bare = makeBareRepo();
  // Merge pushes as the server's git user (GATEHOUSE_RUN_AS=nobody as root): a repository it may write to.
  execFileSync("chmod", ["-R", "a+rwX", bare.dir]);
  try {
    await page.goto(`/works/${workId}/settings`);
    // General comes first in the navigation.
    await expect(nav(page).getByRole("link").first()).toHaveText("General");
    await nav(page).getByRole("link", { name: "General", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/works/${workId}/settings/general$`));
    const general = page.getByRole("form", { name: "Name and repository" });
    const name = general.getByRole("textbox", { name: "Name", exact: true });
    const repository = general.getByRole("textbox", { name: "Repository", exact: true });
    const baseBranch = general.getByRole("textbox", { name: "Base branch", exact: true });
    await expect(name).toHaveValue(before.name);
    await expect(repository).toHaveValue(before.repoUrl);
    await expect(baseBranch).toHaveValue("main");

    const renamed = `After the move ${Date.now()}`;
    await name.fill(renamed);
    await repository.fill("-oProxyCommand=x");
    await baseBranch.fill("release");
    await general.getByRole("button", { name: "Save", exact: true }).click();
    // The error is the repository field's own (said beside it, and read with it), the others untouched.
    await expect(general.getByText("Repository: must not start with '-'")).toBeVisible();
    await expect(repository).toHaveAccessibleDescription(/Repository: must not start with '-'/);
    await expect(repository).toHaveAttribute("aria-invalid", "true");
    await expect(name).not.toHaveAttribute("aria-invalid", "true");
    await expect(general.getByRole("alert").filter({ hasText: "Nothing was saved" })).toBeVisible();
    await expectNoAxeViolations(page, "General, a refused save");
    // Nothing of it was saved, and what was typed is still there to correct.
    expect((await api("GET", `/api/works/${workId}`)).json).toMatchObject({
      name: before.name,
      repoUrl: before.repoUrl,
      baseBranch: "main",
      version: before.version,
    });
    await expect(name).toHaveValue(renamed);

    await repository.fill(bare.dir);
    await general.getByRole("button", { name: "Save", exact: true }).click();
    await expect(general.getByRole("status")).toHaveText(`Saved: version ${before.version + 1}`);
    // Saved; the new repository has no "release" yet, and the save says so (with what it has).
    await expect(general.getByRole("list", { name: "Saved, with warnings" })).toHaveText(
      'the repository has no branch "release" (it has main): runs end inconclusive until it is pushed',
    );
    expect((await api("GET", `/api/works/${workId}`)).json).toMatchObject({
      name: renamed,
      repoUrl: bare.dir,
      baseBranch: "release",
      version: before.version + 1,
    });
    // The page names the Work anew, and its history says what changed, and from what.
    await expect(
      page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: renamed }),
    ).toBeVisible();
    await nav(page).getByRole("link", { name: "History", exact: true }).click();
    const change = page.getByRole("list", { name: "Change history" }).getByRole("listitem").first();
    await expect(change).toContainText("changed name, repository, base branch");
    await change.locator("summary").click();
    await expect(change).toContainText(bare.dir);
    await expect(change).toContainText("release");

    await page.goto(`/works/${workId}`);
    await expect(page.getByRole("heading", { level: 1, name: renamed })).toBeVisible();
    await expect(page.getByText(bare.dir)).toBeVisible();
  } finally {
    bare.cleanup();
  }
});

test("a new Work named like another is refused beside its name, and nothing is made", async ({ page }) => {
  const demo = await demoWorkJson();
  const before = (await api("GET", "/api/works")).json.works.length;
  await page.goto("/works");
  await page.getByRole("button", { name: "New Work" }).click();
  const form = page.getByRole("form", { name: "New Work" });
  const name = form.getByRole("textbox", { name: "Name", exact: true });
  // The demo's name in other case and spacing is the same name.
  await name.fill(`  ${demo.name.toUpperCase().replace(" ", "   ")} `);
  await form.getByRole("textbox", { name: "Repository", exact: true }).fill(demo.repoUrl);
  await form.getByRole("button", { name: "Create Work" }).click();
  await expect(form.getByRole("alert")).toHaveText(
    `Name: another Work is named "${demo.name}": give this one a name of its own`,
  );
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toBeFocused();
  expect((await api("GET", "/api/works")).json.works.length).toBe(before);
});

test("a refused new task says which field and why beside it, marks the field and focuses it; nothing is made", async ({
  page,
}) => {
  const demo = await demoWorkJson();
  const before = (await api("GET", `/api/works/${demo.id}/tasks`)).json.tasks.length;
  await page.goto(`/works/${demo.id}`);
  await page.getByRole("button", { name: "New task" }).click();
  const form = page.getByRole("form", { name: "New task" });
  await form.getByRole("textbox", { name: "Title", exact: true }).fill("On the base branch");
  const branch = form.getByRole("textbox", { name: /^Branch/ });
  await branch.fill("main");
  await form.getByRole("button", { name: "Create task" }).click();
  await expect(form.getByRole("alert")).toHaveText(
    'Branch: "main" is the Work\'s base branch; a task works on a branch of its own',
  );
  await expect(branch).toHaveAttribute("aria-invalid", "true");
  await expect(branch).toBeFocused();
  expect((await api("GET", `/api/works/${demo.id}/tasks`)).json.tasks.length).toBe(before);
});

test("a new Work whose base branch the repository does not have says so, with the branches it has", async ({
  page,
}) => {
  const bare = makeBareRepo();
  try {
    await page.goto("/works");
    await page.getByRole("button", { name: "New Work" }).click();
    const form = page.getByRole("form", { name: "New Work" });
    await form.getByRole("textbox", { name: "Name", exact: true }).fill(`No develop ${Date.now()}`);
    await form.getByRole("textbox", { name: "Repository", exact: true }).fill(bare.dir);
    await form.getByRole("textbox", { name: /^Base branch/ }).fill("develop");
    await form.getByRole("button", { name: "Create Work" }).click();
    await expect(page).toHaveURL(/\/settings\?repo=no-branch$/);
    const notice = page.getByRole("alert").filter({ hasText: 'the repository has no branch "develop" (it has main)' });
    await expect(notice).toContainText("check the base branch and, if it is wrong, change it in General.");
  } finally {
    bare.cleanup();
  }
});

test("a new Work whose repository cannot be reached says so in one sentence, with the way to General to \
change it", async ({ page }) => {
  const bare = makeBareRepo();
  try {
    await page.goto("/works");
    await page.getByRole("button", { name: "New Work" }).click();
    const form = page.getByRole("form", { name: "New Work" });
    await form.getByRole("textbox", { name: "Name", exact: true }).fill(`Mistyped ${Date.now()}`);
    await form.getByRole("textbox", { name: "Repository", exact: true }).fill("/nonexistent/mistyped.git");
    await form.getByRole("button", { name: "Create Work" }).click();
    await expect(page).toHaveURL(/\/settings\?repo=unreachable$/);
    const notice = page.getByRole("alert").filter({ hasText: "/nonexistent/mistyped.git cannot be reached" });
    await expect(notice).toBeVisible();
    // git's reason ends with a full stop; the page's sentence goes on after it without a second one.
    await expect(notice).not.toContainText("..");
    await expect(notice).toContainText(/[^.]\. Its runs will end inconclusive/);
    await notice.getByRole("link", { name: "General" }).click();
    await expect(page).toHaveURL(/\/settings\/general$/);
    await page.getByRole("textbox", { name: "Repository", exact: true }).fill(bare.dir);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved: version 2" })).toBeVisible();
    // The other sections take up the version that save made: their next save is not refused as stale.
    await nav(page)
      .getByRole("link", { name: /^Proof/ })
      .click();
    await expect(async () => {
      await page.getByLabel("Protected files", { exact: true }).fill("scripts/**");
      await expect(page.getByLabel("Protected files", { exact: true })).toHaveValue("scripts/**", { timeout: 1000 });
    }).toPass();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved: version 3" })).toBeVisible();
  } finally {
    bare.cleanup();
  }
});

test("a lead who is not an admin, and a viewer, read the Work's name and repository and are told who changes \
them; an admin's warning that Merge will fail links to General", async ({ page, browser }) => {
  test.setTimeout(60_000);
  // A repository with the base branch checked out: the Work page warns that Merge will fail.
  const repo = makeGitRepo();
  execFileSync("chmod", ["-R", "a+rwX", repo.dir]);
  try {
    const { workId } = await workWithChecks("Read only", [], { repoUrl: repo.dir });
    await page.goto(`/works/${workId}`);
    const warning = page.getByRole("note", { name: "Merge will fail" });
    await warning.getByRole("link", { name: "Change the Work's repository" }).click();
    await expect(page).toHaveURL(new RegExp(`/works/${workId}/settings/general$`));
    await expect(page.getByRole("textbox", { name: "Repository", exact: true })).toHaveValue(repo.dir);

    for (const role of ["lead", "viewer"] as const) {
      const person = await personWithRole(workId, role);
      const { context, page: theirs } = await signedInContext(browser, person);
      if (role === "lead") {
        await theirs.goto(`/works/${workId}`);
        const note = theirs.getByRole("note", { name: "Merge will fail" });
        await expect(note).toContainText("An admin changes a Work's repository.");
        await expect(note.getByRole("link")).toHaveCount(0);
        await theirs.goto(`/works/${workId}/settings`);
        await nav(theirs).getByRole("link", { name: "General", exact: true }).click();
      } else {
        // The probes behind ?repo= run git on the repository: for the leads who land there, not for any reader.
        await theirs.goto(`/works/${workId}/settings?repo=checked-out`);
        await expect(theirs.getByRole("heading", { name: "Settings", exact: true })).toBeVisible();
        await expect(theirs.getByRole("note", { name: "Merge will fail" })).toHaveCount(0);
        await theirs.getByRole("link", { name: "Its name and repository" }).click();
      }
      await expect(theirs).toHaveURL(new RegExp(`/works/${workId}/settings/general$`));
      const general = theirs.getByRole("region", { name: "General" });
      const values = general.getByRole("definition");
      await expect(values.nth(1)).toHaveText(repo.dir);
      await expect(values.nth(2)).toHaveText("main");
      await expect(general).toContainText("An admin changes a Work's name, repository and base branch");
      await expect(general.getByRole("textbox")).toHaveCount(0);
      await expect(general.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
      await expectNoAxeViolations(theirs, `General, read by a ${role}`);
      await context.close();
    }
  } finally {
    repo.cleanup();
  }
});

test("an engineer edits a task's title and description; an empty title is refused beside the field", async ({
  browser,
}) => {
  const { workId, taskId } = await workWithChecks("Old title", []);
  const engineer = await personWithRole(workId, "engineer");
  const { context, page } = await signedInContext(browser, engineer);
  await page.goto(`/tasks/${taskId}`);
  await page.getByRole("link", { name: "Edit task" }).click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${taskId}/edit$`));
  const about = page.getByRole("region", { name: "Title and description" });
  const title = about.getByRole("textbox", { name: "Title", exact: true });
  const description = about.getByRole("textbox", { name: "Description", exact: true });
  // Typed before the editor hydrates, text can be lost: type until the field holds it.
  await expect(async () => {
    await title.fill("");
    await expect(title).toHaveValue("", { timeout: 1000 });
    await expect(about.getByText("Title: required: 1–200 characters")).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(title).toHaveAccessibleDescription(/Title: required/);
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await expect(page.getByTestId("editor-status")).toContainText("1 problem to fix before saving");

  await title.fill("Add a /health endpoint");
  await description.fill("GET /health answers 200 with the version.");
  await expect(about.getByRole("alert")).toHaveCount(0);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved: version 2" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edit “Add a /health endpoint”");
  const history = page.getByRole("list", { name: "Change history" });
  await expect(history.getByRole("listitem").first()).toContainText("changed title, description of");
  expect((await api("GET", `/api/tasks/${taskId}`)).json).toMatchObject({
    title: "Add a /health endpoint",
    description: "GET /health answers 200 with the version.",
    version: 2,
  });

  await page.goto(`/tasks/${taskId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Add a /health endpoint" })).toBeVisible();
  await expect(page.getByText("GET /health answers 200 with the version.")).toBeVisible();
  await context.close();
});
