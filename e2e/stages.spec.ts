// Lanes and stages in Chromium (issue 26): a lead builds a lane in the settings' lane editor (a bad output
// path refused as typed, stages reordered, saved as the API then returns it); the Work's board shows a card
// per task at its stage and marks a stuck one, live while its run moves; readable at 390 px.
import type { Page } from "@playwright/test";
import { shotForPeople } from "./support/shots";
import { expect, test } from "./support/test";
import { api, dispatch, personWithRole, runJson, workWithChecks } from "./support/api";
import { signedInContext } from "./support/sign-in";

async function save(page: Page) {
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Saved: version/ })).toBeVisible();
}

test("a lead builds a lane of two stages in the lane editor, reorders them and saves", async ({ page }) => {
  const { workId } = await workWithChecks("Lanes", []);
  await page.goto(`/works/${workId}/settings/lanes`);
  await page.getByRole("button", { name: "Add a lane" }).click();
  const lane = page.getByRole("region", { name: "Lane Lane 1" });
  await lane.getByLabel("Lane id").fill("delivery");
  await lane.getByLabel("Lane name").fill("Delivery");
  const first = page.getByRole("listitem", { name: /^Stage 1:/ });
  await first.getByLabel("Stage id").fill("build");
  await first.getByLabel("Stage name").fill("Build");
  await first.getByLabel(/^Output file/).fill("../out.md");
  await expect(first.getByText("Output file: must stay inside the checkout: '..' is not allowed")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await first.getByLabel(/^Output file/).fill("");
  await first.getByRole("button", { name: "+ Add a check" }).click();
  const buildCheck = first.getByRole("listitem", { name: /^Check 1/ });
  await buildCheck.getByLabel("Name", { exact: true }).fill("The notes exist");
  await buildCheck.getByRole("combobox", { name: "Runs" }).selectOption("file_has");
  await buildCheck.getByLabel("path").fill("notes.md");

  await page.getByRole("button", { name: "Add a stage to Delivery" }).click();
  const second = page.getByRole("listitem", { name: /^Stage 2:/ });
  await second.getByLabel("Stage id").fill("research");
  await second.getByLabel("Stage name").fill("Research");
  await second.getByLabel(/^Output file/).fill("docs/research.md");
  await second.getByRole("button", { name: "+ Add a check" }).click();
  const researchCheck = second.getByRole("listitem", { name: /^Check 1/ });
  await researchCheck.getByLabel("Name", { exact: true }).fill("Two sources");
  await researchCheck.getByRole("combobox", { name: "Runs" }).selectOption("research");
  await researchCheck.getByLabel("path").fill("docs/research.md");
  await page.getByRole("button", { name: "Move stage Research up" }).click();
  await expect(page.getByRole("listitem", { name: /^Stage 1:/ })).toHaveAccessibleName("Stage 1: Research");
  await page.getByLabel(/autoAdvance/).check();
  await save(page);

  const work = (await api("GET", `/api/works/${workId}`)).json;
  expect(work.autoAdvance).toBe(true);
  expect(work.lanes).toEqual([
    {
      id: "delivery",
      name: "Delivery",
      stages: [
        expect.objectContaining({
          id: "research",
          output: "docs/research.md",
          checks: [expect.objectContaining({ use: "research" })],
        }),
        expect.objectContaining({
          id: "build",
          checks: [expect.objectContaining({ use: "file_has", with: { path: "notes.md" } })],
        }),
      ],
    },
  ]);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await shotForPeople(page, `test-results/lane-editor-${width}.png`, { fullPage: true });
  }
});

test("the board shows each task at its stage, marks a stuck one live, and reads on a phone", async ({ page }) => {
  const lanes = [
    {
      id: "delivery",
      name: "Delivery",
      stages: [
        {
          id: "research",
          name: "Research",
          maxAttempts: 1,
          checks: [{ id: "sources", name: "Sources listed", kind: "custom", required: true, command: "false" }],
        },
        {
          id: "build",
          name: "Build",
          checks: [{ id: "ok", name: "Builds", kind: "build", required: true, command: "true" }],
        },
      ],
    },
    {
      id: "ops",
      name: "Ops",
      stages: [
        {
          id: "deploy",
          name: "Deploy",
          checks: [{ id: "ok", name: "Up", kind: "custom", required: true, command: "true" }],
        },
      ],
    },
  ];
  const { workId } = await workWithChecks("Board", [], { lanes });
  const stuck = (
    await api("POST", `/api/works/${workId}/tasks`, { title: "Research the slug rules", lane: "delivery" })
  ).json;
  const docs = (await api("POST", `/api/works/${workId}/tasks`, { title: "Deploy the docs", lane: "ops" })).json;
  await page.goto(`/works/${workId}/board`);
  const research = page.getByRole("region", { name: "Stage Research" });
  await expect(research.getByRole("listitem").filter({ hasText: stuck.key })).toContainText("not run yet");
  const runId = await dispatch(stuck.id);
  // Live: the card turns stuck once the stage's one attempt is red, without a reload.
  await expect(research.getByRole("listitem").filter({ hasText: stuck.key })).toContainText("stuck");
  await expect(research.getByRole("listitem").filter({ hasText: stuck.key })).toContainText("attempt 1 of 1");
  expect((await runJson(runId)).ending).toBe("partial");
  await page.getByRole("combobox", { name: "Lane", exact: true }).selectOption("ops");
  await expect(page.getByRole("region", { name: "Stage Deploy" })).toContainText("Deploy the docs");
  // A task whose last stage is accepted reads done, not as an attempt still under way.
  await dispatch(docs.id);
  const docsCard = page
    .getByRole("region", { name: "Stage Deploy" })
    .getByRole("listitem")
    .filter({ hasText: docs.key });
  await expect(docsCard).toContainText("done");
  await expect(docsCard).toContainText("accepted on attempt 1");
  await page.getByRole("combobox", { name: "Lane", exact: true }).selectOption("delivery");
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await shotForPeople(page, `test-results/board-${width}.png`, { fullPage: true });
    // Nothing wider than the screen: the columns stack on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }

  await page.goto(`/tasks/${stuck.id}`);
  const stepper = page.getByRole("navigation", { name: "Stages of lane Delivery" });
  await expect(stepper.getByRole("listitem").nth(0)).toContainText("stuck");
  await expect(stepper.getByRole("listitem").nth(1)).toContainText("waiting");
  await shotForPeople(page, "test-results/stepper-1280.png", { fullPage: true });
});

test("the stages demo: research fails once (one source of two), passes, then build; the task ends accepted", async ({
  page,
}) => {
  const works = (await api("GET", "/api/works")).json.works as unknown as { id: string; name: string }[];
  const demo = works.find((w) => w.name === "Stages demo");
  expect(demo, "the stages demo Work is seeded on first start").toBeTruthy();
  const task = (await api("GET", `/api/works/${demo!.id}/tasks`)).json.tasks[0];
  // Each run as the run's JSON gives it (its stage, its ending).
  const runsOf = async () => {
    const listed = (await api("GET", `/api/tasks/${task.id}/runs`)).json.runs as unknown as { id: string }[];
    return Promise.all(listed.map((r) => runJson(r.id))) as unknown as Promise<
      { id: string; stage: string; ending: string | null }[]
    >;
  };
  await expect
    .poll(async () => (await runsOf()).map((r) => `${r.stage}:${r.ending}`).sort(), { timeout: 120_000 })
    .toEqual(["build:accepted", "research:accepted"]);
  const research = (await runsOf()).find((r) => r.stage === "research")!;
  const detail = await runJson(research.id);
  expect((detail.attempts as unknown as { gate: string }[]).map((a) => a.gate)).toEqual(["red", "green"]);
  await page.goto(`/tasks/${task.id}`);
  const stepper = page.getByRole("navigation", { name: "Stages of lane Delivery" });
  await expect(stepper.getByRole("listitem").nth(0)).toContainText("done");
  await expect(stepper.getByRole("listitem").nth(1)).toContainText("done");
  await page.setViewportSize({ width: 390, height: 900 });
  await shotForPeople(page, "test-results/stages-demo-stepper-390.png", { fullPage: true });
});

const stage = (id: string, name: string, command: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  checks: [{ id: `${id}-done`, name: `${name} done`, kind: "custom", required: true, command }],
  ...extra,
});

test("a task is put on a lane where it is created and moved in its editor; not while a run is active", async ({
  page,
}) => {
  const lanes = [
    { id: "delivery", name: "Delivery", stages: [stage("research", "Research", "false", { maxAttempts: 1 })] },
    { id: "slow", name: "Slow", stages: [stage("wait", "Wait", "sleep 30", { maxAttempts: 2 })] },
  ];
  const { workId } = await workWithChecks("Lane picker", [], { lanes });
  await page.goto(`/works/${workId}`);
  await page.getByRole("button", { name: "New task" }).click();
  await page.getByLabel("Title").fill("Research the slug rules");
  await page.getByRole("combobox", { name: "Lane" }).selectOption("delivery");
  await page.getByRole("button", { name: "Create task" }).click();
  await expect(page).toHaveURL(/\/tasks\//);
  const taskId = page.url().split("/tasks/")[1];
  expect((await api("GET", `/api/tasks/${taskId}`)).json).toMatchObject({ lane: "delivery", stage: "research" });
  // The header and the declared checks are the current stage's, not the Work's.
  await expect(page.getByTestId("task-attempts")).toHaveText("1 attempt (stage Research)");
  await expect(page.getByRole("region", { name: "Checks" })).toContainText("Research done");

  await page.getByRole("link", { name: "Edit task" }).click();
  const preview = page.getByRole("region", { name: "Preview: what a dispatch would freeze" });
  await expect(preview).toContainText("Research done");
  await page.getByRole("combobox", { name: "Lane" }).selectOption("slow");
  // The preview follows the lane picked: the new lane's first stage.
  await expect(preview).toContainText("Wait done");
  await save(page);
  expect((await api("GET", `/api/tasks/${taskId}`)).json).toMatchObject({ lane: "slow", stage: "wait" });

  const runId = await dispatch(taskId);
  await page.reload();
  await page.getByRole("combobox", { name: "Lane" }).selectOption("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "to another lane while run #1 is" })).toBeVisible();
  expect((await api("GET", `/api/tasks/${taskId}`)).json).toMatchObject({ lane: "slow", stage: "wait" });
  await api("POST", `/api/runs/${runId}/cancel`);
  await page.goto(`/tasks/${taskId}`);
  await expect(page.getByTestId("task-attempts")).toHaveText("2 attempts (stage Wait)");
});

test("a stuck stage is skipped from its run page, and another task is sent back to an earlier stage", async ({
  page,
}) => {
  const lanes = [
    {
      id: "delivery",
      name: "Delivery",
      stages: [
        stage("research", "Research", "true"),
        stage("build", "Build", "false", { maxAttempts: 1 }),
        stage("ship", "Ship", "true"),
      ],
    },
  ];
  const { workId } = await workWithChecks("Stuck stages", [], { lanes, autoAdvance: true });
  const taskOnLane = async (title: string) =>
    (await api("POST", `/api/works/${workId}/tasks`, { title, lane: "delivery" })).json;
  // Research is green, so build is dispatched at once and is stuck after its one red attempt.
  const stuckRunOf = async (taskId: string) => {
    await dispatch(taskId);
    let found = "";
    await expect
      .poll(
        async () => {
          const runs = (await api("GET", `/api/tasks/${taskId}/runs`)).json.runs as unknown as { id: string }[];
          for (const r of runs) {
            const run = await runJson(r.id);
            if (run.stage === "build" && run.needsDecision) found = r.id;
          }
          return found;
        },
        { timeout: 90_000 },
      )
      .not.toBe("");
    return found;
  };

  const skipped = await taskOnLane("Skip the build");
  await page.goto(`/runs/${await stuckRunOf(skipped.id)}`);
  await page.getByRole("button", { name: "Skip stage build" }).click();
  await expect(page.getByRole("region", { name: "Decision needed" })).toHaveCount(0);
  expect((await api("GET", `/api/tasks/${skipped.id}`)).json.stage).toBe("ship");

  const sentBack = await taskOnLane("Send the build back");
  const stuckRun = await stuckRunOf(sentBack.id);
  // The inbox's card says where the task is stuck.
  await page.goto("/");
  await expect(
    page.getByRole("list", { name: "Runs needing a decision" }).getByRole("listitem").filter({ hasText: sentBack.key }),
  ).toContainText("Stuck at stage Build after 1 attempt (lane Delivery)");
  await page.goto(`/runs/${stuckRun}`);
  await page.getByRole("combobox", { name: "Stage to send it back to" }).selectOption("research");
  await page.getByRole("button", { name: "Send back" }).click();
  await expect(page.getByRole("region", { name: "Decision needed" })).toHaveCount(0);
  expect((await api("GET", `/api/tasks/${sentBack.id}`)).json.stage).toBe("research");
});

test("a task on a lane lists its stage's held-out check by name only to a viewer, with its command to a lead", async ({
  page,
  browser,
}) => {
  const heldOut = {
    id: "secret-spec",
    name: "The held-out spec",
    kind: "test",
    required: true,
    hidden: true,
    command: "grep -q slugify-held-out-marker src/slug.js",
  };
  const lanes = [{ id: "delivery", name: "Delivery", stages: [{ id: "build", name: "Build", checks: [heldOut] }] }];
  const { workId } = await workWithChecks("Held-out stage", [], { lanes });
  const task = (await api("POST", `/api/works/${workId}/tasks`, { title: "Build it", lane: "delivery" })).json;
  await page.goto(`/tasks/${task.id}`);
  const declared = page.getByRole("list", { name: "Declared checks" });
  await expect(declared).toContainText("slugify-held-out-marker");

  const viewer = await personWithRole(workId, "viewer");
  const { context, page: asViewer } = await signedInContext(browser, viewer);
  await asViewer.goto(`/tasks/${task.id}`);
  const seen = asViewer.getByRole("list", { name: "Declared checks" });
  await expect(seen).toContainText("The held-out spec");
  await expect(seen).toContainText("Its command is shown to leads.");
  expect(await asViewer.content()).not.toContain("slugify-held-out-marker");
  await context.close();
});
