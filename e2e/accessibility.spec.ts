import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { api, demoWorkJson, dispatch, runJson, workWithChecks } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";

// Every page a person reaches, in light and dark, checked with axe-core (WCAG 2.1 A/AA and best
// practices): zero violations. Seeded through the real server; the pages are visited in the states a
// person sees them in (rows expanded, editors open, forms with their messages). The first-run setup page,
// which exists only on an empty database, is checked in first-run.spec.ts on that test's own server.

const check = (id: string, command: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Check ${id}`,
  kind: "test",
  command,
  required: true,
  ...extra,
});

type Seed = {
  workId: string;
  taskBefore: string;
  taskAfter: string;
  runId: string;
  demoRunId: string;
};

let seeded: Promise<Seed> | undefined;

async function seed(): Promise<Seed> {
  const { workId, taskId } = await workWithChecks(
    "Accessibility",
    [
      check("unit", "echo all good"),
      check(
        "broken",
        'for i in $(seq 1 40); do echo "step $i"; done; printf \'\\033[31mFAIL\\033[0m ' +
          "src/app.test.js expected 2 got 3\\n'; exit 3",
        { kind: "build" },
      ),
      check("lint", "echo lint ok", { kind: "lint", required: false }),
    ],
    { maxGateAttempts: 1 },
  );
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).ending, { timeout: 60_000 }).toBe("partial");
  const before = await api("POST", `/api/works/${workId}/tasks`, { title: "Not run yet" });
  // A saved change, so the settings page has a history entry to open.
  const { version } = (await api("GET", `/api/works/${workId}`)).json;
  const patched = await api("PATCH", `/api/works/${workId}`, { version, maxGateAttempts: 2 });
  expect(patched.status).toBe(200);
  const demo = await demoWorkJson();
  const demoTasks = await api("GET", `/api/works/${demo.id}/tasks`);
  const demoRuns = await api("GET", `/api/tasks/${demoTasks.json.tasks[0].id}/runs`);
  const demoRunId = demoRuns.json.runs[demoRuns.json.runs.length - 1].id;
  await expect.poll(async () => (await runJson(demoRunId)).status, { timeout: 60_000 }).toBe("finished");
  return { workId, taskBefore: before.json.id, taskAfter: taskId, runId, demoRunId };
}

const seedOnce = () => {
  seeded ??= seed();
  return seeded;
};

async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

for (const scheme of ["light", "dark"] as const) {
  // The light pass is `npm test`'s; the dark one repeats every page (tag @full, `npm run test:full`).
  test.describe(`${scheme} theme`, scheme === "dark" ? { tag: "@full" } : {}, () => {
    test.use({ colorScheme: scheme });

    test("signed out: the sign-in page, also with its error", async ({ browser }) => {
      const context = await browser.newContext({ colorScheme: scheme, storageState: { cookies: [], origins: [] } });
      const page = await context.newPage();
      await page.goto("/");
      await expect(page).toHaveURL(/\/signin/);
      await expectNoAxeViolations(page, `sign-in (${scheme})`);
      await page.getByLabel("Email").fill("nobody-a11y@e2e.example");
      await page.getByLabel("Password").fill("not-the-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("alert")).toBeVisible();
      await expectNoAxeViolations(page, `sign-in with an error (${scheme})`);
      await context.close();
    });

    test("inbox, works list and a Work, with their create panels open", async ({ page }) => {
      const { workId } = await seedOnce();
      await open(page, "/");
      await expect(page.getByRole("list", { name: "Runs needing a decision" })).toBeVisible();
      await expectNoAxeViolations(page, `inbox (${scheme})`);
      await open(page, "/works");
      await expectNoAxeViolations(page, `works list (${scheme})`);
      await page.getByRole("button", { name: "New Work" }).click();
      await expect(page.getByRole("button", { name: "Create Work" })).toBeVisible();
      await expectNoAxeViolations(page, `works list, New Work open (${scheme})`);
      await open(page, `/works/${workId}`);
      await expectNoAxeViolations(page, `a Work (${scheme})`);
      await page.getByRole("button", { name: "New task" }).click();
      await expect(page.getByRole("button", { name: "Create task" })).toBeVisible();
      await expectNoAxeViolations(page, `a Work, New task open (${scheme})`);
    });

    test("checks and policy editor: as loaded, and with a new check, a warning, an import preview, \
history open", async ({ page }) => {
      const { workId } = await seedOnce();
      await open(page, `/works/${workId}/settings`);
      await expect(
        page.getByRole("listitem", { name: /^Check 1/ }).getByRole("textbox", { name: "Command" }),
      ).toBeVisible();
      await expectNoAxeViolations(page, `checks and policy (${scheme})`);
      await page.getByRole("button", { name: "+ Add a check" }).click();
      const added = page.getByRole("listitem", { name: /^Check 4/ });
      await added.getByLabel("Id", { exact: true }).fill("Not An Id");
      await added.getByRole("textbox", { name: "Command" }).fill("echo proves nothing");
      await expect(added.getByText("This check proves nothing:")).toBeVisible();
      await page
        .getByRole("textbox", { name: "Gates file" })
        .fill("gates:\n  - run: npm run lint\n  - run: make\n    retries: 3");
      await page.getByRole("button", { name: "Read the file" }).click();
      await expect(page.getByRole("region", { name: "Import preview" })).toBeVisible();
      await expectNoAxeViolations(page, `checks and policy, editing (${scheme})`);
      // A built-in's parameter fields, one with its error.
      await added.getByRole("combobox", { name: "Runs" }).selectOption("file_contains");
      await added.getByLabel("path").fill("../out.md");
      await expect(added.getByText("path: must stay inside the results directory")).toBeVisible();
      await expectNoAxeViolations(page, `checks and policy, a built-in (${scheme})`);
      // The check sources are a section of their own (the checks' edits wait in theirs).
      await page
        .getByRole("navigation", { name: "Settings sections" })
        .getByRole("link", { name: /^Check sources/ })
        .click();
      // The section opens at its own address; clicked before the navigation has settled, the button seen
      // may be the one about to be replaced (seen once in CI: focused, nothing added).
      await expect(page).toHaveURL(new RegExp(`/works/${workId}/settings/sources$`));
      const sources = page.getByRole("region", { name: /^Check sources/ });
      const repository = sources.getByLabel("Repository");
      await expect(async () => {
        if ((await repository.count()) === 0) await sources.getByRole("button", { name: "+ Add a source" }).click();
        await expect(repository).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 20_000 });
      await repository.fill("-oProxyCommand=x");
      await expect(sources.getByText("Repository: must not start with '-'")).toBeVisible();
      await expectNoAxeViolations(page, `check sources, editing (${scheme})`);
      await open(page, `/works/${workId}/settings/history`);
      await page.getByRole("list", { name: "Change history" }).locator("summary").first().click();
      await expect(page.getByRole("list", { name: "Changes" })).toBeVisible();
      await expectNoAxeViolations(page, `settings history open (${scheme})`);
    });

    test("task checks editor, with an override open", async ({ page }) => {
      const { taskBefore } = await seedOnce();
      await open(page, `/tasks/${taskBefore}/edit`);
      await expectNoAxeViolations(page, `task checks (${scheme})`);
      await page.getByRole("button", { name: "Override unit" }).click();
      await page.getByRole("button", { name: "Suppress lint" }).click();
      await page.getByRole("button", { name: "+ Add a check" }).click();
      await expect(page.getByRole("listitem", { name: /^Task check/ })).toBeVisible();
      await expectNoAxeViolations(page, `task checks, editing (${scheme})`);
    });

    test("lanes: the board, the Lanes settings section, and a task on a lane with its lane picker", async ({
      page,
    }) => {
      const lanes = [
        {
          id: "delivery",
          name: "Delivery",
          stages: [
            { id: "research", name: "Research", checks: [check("sources", "echo sources")] },
            { id: "build", name: "Build", maxAttempts: 2, checks: [check("unit", "echo all good")] },
          ],
        },
      ];
      const { workId } = await workWithChecks("Accessible lanes", [], { lanes });
      const task = (await api("POST", `/api/works/${workId}/tasks`, { title: "On a lane", lane: "delivery" })).json;
      await open(page, `/works/${workId}/board`);
      await expect(page.getByRole("region", { name: "Stage Research" })).toContainText("On a lane");
      await expectNoAxeViolations(page, `board (${scheme})`);
      await open(page, `/works/${workId}/settings/lanes`);
      await expect(page.getByRole("region", { name: "Lane Delivery" })).toBeVisible();
      await expectNoAxeViolations(page, `lanes settings (${scheme})`);
      await open(page, `/tasks/${task.id}`);
      await expectNoAxeViolations(page, `a task on a lane (${scheme})`);
      await open(page, `/tasks/${task.id}/edit`);
      await expect(page.getByRole("combobox", { name: "Lane" })).toHaveValue("delivery");
      await expectNoAxeViolations(page, `task editor with its lane (${scheme})`);
      await open(page, `/works/${workId}`);
      await page.getByRole("button", { name: "New task" }).click();
      await expect(page.getByRole("combobox", { name: "Lane" })).toBeVisible();
      await expectNoAxeViolations(page, `New task with a lane picker (${scheme})`);
    });

    test("general, access and secrets sections", async ({ page }) => {
      const { workId } = await seedOnce();
      await open(page, `/works/${workId}/settings/general`);
      await expect(page.getByRole("form", { name: "Name and repository" })).toBeVisible();
      await expectNoAxeViolations(page, `general (${scheme})`);
      await open(page, `/works/${workId}/settings/access`);
      await expectNoAxeViolations(page, `access (${scheme})`);
      await open(page, `/works/${workId}/settings/secrets`);
      await expectNoAxeViolations(page, `secrets (${scheme})`);
    });

    test("a task before and after a run, with a row expanded to its log tail", async ({ page }) => {
      const { taskBefore, taskAfter } = await seedOnce();
      await open(page, `/tasks/${taskBefore}`);
      await expectNoAxeViolations(page, `task before a run (${scheme})`);
      await open(page, `/tasks/${taskAfter}`);
      await expect(page.locator('[data-check-id="broken"] [data-verdict="failed"]')).toBeVisible();
      await expectNoAxeViolations(page, `task after a run (${scheme})`);
      await page.locator('[data-check-id="broken"] summary').click();
      await expect(page.locator('[data-check-id="broken"]').getByTestId("log-tail")).toContainText("FAIL");
      await expectNoAxeViolations(page, `task, row expanded (${scheme})`);
    });

    test("the check history of a Work, with its strips", async ({ page }) => {
      const { workId } = await seedOnce();
      await open(page, `/works/${workId}/checks`);
      await expect(page.locator('tr[data-check-id="broken"] li a')).toHaveCount(1);
      await expectNoAxeViolations(page, `check history (${scheme})`);
    });

    test("a run page with its decision, and one with the agent's brief and log", async ({ page }) => {
      const { runId, demoRunId } = await seedOnce();
      await open(page, `/runs/${runId}`);
      await expect(page.getByRole("heading", { name: "Decision needed", exact: true })).toBeVisible();
      await page.locator('[data-check-id="broken"] summary').click();
      await expect(page.locator('[data-check-id="broken"]').getByTestId("log-tail")).toContainText("FAIL");
      await expectNoAxeViolations(page, `run needing a decision (${scheme})`);
      await open(page, `/runs/${demoRunId}`);
      await page.getByTestId("agent-step").first().locator("summary").first().click();
      await page.getByText("Brief the agent was given").first().click();
      await expect(page.getByTestId("log-tail").first()).toBeVisible();
      await expectNoAxeViolations(page, `run with the agent's brief and log (${scheme})`);
    });

    test("the full log, opened at a line", async ({ page }) => {
      const { runId } = await seedOnce();
      await page.goto(`/runs/${runId}/attempts/1/checks/broken/log#L20`);
      await expect(page.locator('[data-line="20"]')).toHaveAttribute("data-selected", "true");
      await expectNoAxeViolations(page, `full log (${scheme})`);
      // The search runs after a pause in typing (an Enter then would step to the 2nd match): no Enter.
      await page.getByLabel("Search the log").fill("step 3");
      await expect(page.getByTestId("search-status")).toHaveText(/1 of \d+/);
      await expectNoAxeViolations(page, `full log, searched (${scheme})`);
    });

    test("audit, people, API tokens (with a new token shown), password (with a refusal)", async ({ page }) => {
      await open(page, "/audit");
      await expectNoAxeViolations(page, `audit (${scheme})`);
      await open(page, "/admin/users");
      await expectNoAxeViolations(page, `people (${scheme})`);
      await open(page, "/admin/workers");
      await expectNoAxeViolations(page, `workers (${scheme})`);
      await open(page, "/settings/tokens");
      await page.getByLabel("Name").fill(`a11y ${scheme}`);
      await page.getByRole("button", { name: "Create token" }).click();
      await expect(page.getByTestId("new-token")).toBeVisible();
      await expectNoAxeViolations(page, `API tokens (${scheme})`);
      // The password form with a refusal shown (one that checks no password: the admin's is not guessed at).
      await open(page, "/settings/password");
      await page.getByLabel("Current password").fill("not the password at all");
      await page.getByLabel("New password", { exact: true }).fill("a new passphrase 11");
      await page.getByLabel("New password again").fill("a new passphrase 12");
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "not the same as the new password" })).toBeVisible();
      await expectNoAxeViolations(page, `password (${scheme})`);
    });

    test("not-found pages and the account menu", async ({ page }) => {
      await open(page, "/no-such-page");
      await expectNoAxeViolations(page, `not found (${scheme})`);
      await open(page, "/works/no-such-work");
      await expectNoAxeViolations(page, `Work not found (${scheme})`);
      await page.getByLabel(/^Account: /).click();
      await expect(page.getByRole("link", { name: "API tokens" })).toBeVisible();
      await expectNoAxeViolations(page, `account menu open (${scheme})`);
    });
  });
}

test("the first Tab stop skips the header to the page itself", async ({ page }) => {
  await page.goto("/works");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).not.toBeInViewport();
  await page.keyboard.press("Tab");
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
  // The next Tab goes into the page, not back through the header's links.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);
});

// WCAG 2.2's target size (2.5.8, AA): a control is at least 24 × 24 CSS px, unless it is a link inside running
// text (`display: inline`). What a thumb presses on a phone: the crumbs, "Full log →", "Open the run", the
// disclosure summaries.
test("on a phone, the controls of a Work, a task, a run with a row open and the audit trail are at least \
24 px each way", async ({ page }) => {
  const { workId, taskAfter, runId } = await seedOnce();
  await page.setViewportSize({ width: 390, height: 844 });
  const tooSmall = () =>
    page.evaluate(() =>
      [...document.querySelectorAll("main a, main button, main summary, main [role=button], header a, header button")]
        .filter((el) => {
          const box = el.getBoundingClientRect();
          if (box.width === 0 || box.height === 0 || getComputedStyle(el).display === "inline") return false;
          return box.width < 24 || box.height < 24;
        })
        .map((el) => {
          const box = el.getBoundingClientRect();
          const text = (el.textContent ?? "").trim().slice(0, 40);
          return `${el.tagName.toLowerCase()} "${text}" ${Math.round(box.width)}×${Math.round(box.height)}`;
        }),
    );
  for (const path of [`/works/${workId}`, `/tasks/${taskAfter}`, "/audit"]) {
    await open(page, path);
    expect(await tooSmall(), path).toEqual([]);
  }
  await open(page, `/runs/${runId}`);
  await page.locator('[data-check-id="broken"] summary').click();
  await expect(page.getByRole("link", { name: "Full log →" })).toBeVisible();
  expect(await tooSmall(), "a run with a row open").toEqual([]);
});
