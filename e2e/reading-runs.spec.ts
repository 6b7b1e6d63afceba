import { expect, test } from "./support/test";
import { ADMIN } from "./support/accounts";
import { api, demoWorkJson, dispatch, runJson, workWithChecks } from "./support/api";

// Each test makes its own Work (or only reads the demo's): the file's tests are spread over the lanes instead of
// running one after the other in one (the longest file of the suite, it set when the suite ended).
test.describe.configure({ mode: "parallel" });

const check = (id: string, command: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Check ${id}`,
  kind: "test",
  command,
  required: true,
  ...extra,
});

test("a failed row expands (by keyboard too) to its log tail, with colours and the exit code", async ({ page }) => {
  const { taskId } = await workWithChecks("Failing tail", [
    check("ok", "echo all good"),
    check("broken", "printf 'compiling\\n\\033[31mFAIL\\033[0m src/app.test.js expected 2 got 3\\n'; exit 3", {
      kind: "build",
    }),
  ]);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status).toBe("waiting");
  await page.goto(`/tasks/${taskId}`);
  const broken = page.locator('[data-check-id="broken"] summary');
  await expect(broken.locator('[data-verdict="failed"]')).toBeVisible();
  await broken.focus();
  await page.keyboard.press("Enter");
  const tail = page.locator('[data-check-id="broken"]').getByTestId("log-tail");
  await expect(tail).toContainText("FAIL src/app.test.js expected 2 got 3");
  await expect(tail.getByText("FAIL", { exact: true })).toHaveClass(/ansi-red/);
  await expect(page.locator('[data-check-id="broken"]')).toContainText("exit 3");
  // The rows can be grouped by kind.
  await page.getByRole("button", { name: "By kind" }).click();
  await expect(page.getByRole("region", { name: "build checks" })).toContainText("Check broken");
});

test("the full log opened from a tail that opened at the first failure shows that line", async ({ page }) => {
  const { taskId } = await workWithChecks("Failure on top", [
    check("early", "printf 'setting up\\nFAIL src/a.test.js expected 1 got 2\\n'; seq 1 300; exit 1"),
  ]);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status).toBe("waiting");
  await page.goto(`/runs/${runId}`);
  await page.locator('[data-check-id="early"] summary').click();
  const tail = page.locator('[data-check-id="early"]').getByTestId("log-tail");
  await expect(tail).toContainText("Opened at the first failure (line 2)");
  await tail.getByRole("link", { name: "Full log →" }).click();
  await expect(page).toHaveURL(/#L2$/);
  const log = page.getByRole("log");
  await expect(log.getByText("FAIL src/a.test.js expected 1 got 2")).toBeInViewport();
});

test("the attempt chosen and the rows opened are in the address: Back from the full log, a reload and a pasted \
link show them; an attempt the run lacks shows the latest", async ({ page }) => {
  const { taskId } = await workWithChecks(
    "Addressed",
    [check("unit", 'echo "unit of attempt $GATEHOUSE_ATTEMPT"; exit 1'), check("lint", "echo tidy")],
    { maxGateAttempts: 2 },
  );
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 30_000 }).toBe("waiting");
  expect((await api("POST", `/api/runs/${runId}/attempts`)).status).toBe(202);
  await expect.poll(async () => (await runJson(runId)).attempts[1]?.status, { timeout: 30_000 }).toBe("finished");
  // Come from the task, so Back can show where the run page's own history ends.
  await page.goto(`/tasks/${taskId}`);
  await page.goto(`/runs/${runId}`);
  const checks = page.getByTestId("run-checks");
  const counter = checks.getByTestId("attempt-counter");
  const unit = checks.locator('[data-check-id="unit"]');
  const openRows = checks.locator("details[open]");
  // The address says nothing: the latest attempt, every row closed, as before.
  await expect(counter).toHaveText("Attempt 2 of 2");
  await expect(openRows).toHaveCount(0);

  await checks.getByRole("button", { name: /Attempt 1 \(/ }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?attempt=1$`));
  await unit.locator("summary").click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?attempt=1&open=unit$`));
  await expect(unit.getByTestId("log-tail")).toContainText("unit of attempt 1");
  await unit.getByRole("link", { name: "Full log →" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}/attempts/1/checks/unit/log`));
  await expect(page.getByRole("log")).toContainText("unit of attempt 1");

  const showsAttempt1WithUnitOpen = async (how: string) => {
    await expect(page, how).toHaveURL(new RegExp(`/runs/${runId}\\?attempt=1&open=unit$`));
    await expect(counter, how).toHaveText("Attempt 1 of 2");
    await expect(checks.getByRole("button", { name: /Attempt 1 \(/ }), how).toHaveAttribute("aria-pressed", "true");
    await expect(unit.getByTestId("log-tail"), how).toContainText("unit of attempt 1");
    await expect(openRows, how).toHaveCount(1);
  };
  await page.goBack();
  await showsAttempt1WithUnitOpen("back from the full log");
  await page.reload();
  await showsAttempt1WithUnitOpen("reloaded");
  // Choosing replaced the address in place: one Back more leaves the run page for the task.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/tasks/${taskId}$`));
  await page.goForward();
  await showsAttempt1WithUnitOpen("forward again");

  // Closing the row takes it out of the address; another attempt starts with its rows closed.
  await unit.locator("summary").click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?attempt=1$`));
  await unit.locator("summary").click();
  await checks.getByRole("button", { name: /Attempt 2 \(/ }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?attempt=2$`));
  await expect(openRows).toHaveCount(0);

  // A pasted link opens what it names; one naming an attempt the run lacks shows the latest, with no error.
  await page.goto(`/runs/${runId}?attempt=1&open=lint,unit`);
  await expect(counter).toHaveText("Attempt 1 of 2");
  await expect(openRows).toHaveCount(2);
  for (const n of ["99", "0", "x"]) {
    const res = await page.goto(`/runs/${runId}?attempt=${n}`);
    expect([n, res?.status()]).toEqual([n, 200]);
    await expect(counter, n).toHaveText("Attempt 2 of 2");
    await expect(openRows, n).toHaveCount(0);
    await expect(page.getByText("No such attempt"), n).toHaveCount(0);
  }
  // Its first choice writes an address that says what is shown.
  await unit.locator("summary").click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?open=unit$`));
  await expect(unit.getByTestId("log-tail")).toContainText("unit of attempt 2");

  // The rows grouped by kind are in the address too, and stay so across attempts and a reload.
  const byKind = checks.getByRole("button", { name: "By kind" });
  await byKind.click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?open=unit&order=kind$`));
  await expect(checks.getByRole("region", { name: "test checks" })).toBeVisible();
  await checks.getByRole("button", { name: /Attempt 1 \(/ }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?attempt=1&order=kind$`));
  await page.reload();
  await expect(byKind).toHaveAttribute("aria-pressed", "true");
  await expect(counter).toHaveText("Attempt 1 of 2");
  await checks.getByRole("button", { name: "As run" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?attempt=1$`));
  await expect(checks.getByRole("region", { name: "test checks" })).toHaveCount(0);
});

test("following a link to a run's checks (#checks, as a missing log's page gives) stops with their heading below \
the sticky header, on a wide screen and on a phone", async ({ page }) => {
  // Enough rows that the page scrolls to reach them.
  const { taskId } = await workWithChecks(
    "Anchored",
    Array.from({ length: 4 }, (_, i) => check(`c${i + 1}`, "true")),
    { agentCommand: "true" },
  );
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 30_000 }).toBe("finished");
  for (const [width, height] of [
    [1440, 500],
    [390, 600],
  ]) {
    await page.setViewportSize({ width, height });
    await page.goto(`/runs/${runId}`);
    const heading = page.locator("#checks-title");
    await expect(heading).toBeVisible();
    // The link followed on the page itself: the browser scrolls to the fragment at once (on a first load it may
    // not, when the page is still being laid out).
    await page.evaluate(() => {
      window.location.hash = "#checks";
    });
    await expect.poll(() => page.evaluate(() => window.scrollY), { message: `${width}: scrolled` }).toBeGreaterThan(0);
    const headerBottom = await page
      .locator("header")
      .first()
      .evaluate((h) => h.getBoundingClientRect().bottom);
    const headingTop = await heading.evaluate((h) => h.getBoundingClientRect().top);
    expect(headingTop, `${width}: the heading below the header`).toBeGreaterThanOrEqual(headerBottom);
  }
});

test("output with HTML and <script> is shown as text and never runs; a text-direction control is shown, \
not applied", async ({ page }) => {
  const { taskId } = await workWithChecks("Hostile output", [
    check(
      "xss",
      `echo '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><b>bold?</b>'; ` +
        // U+202E (right-to-left override): applied, "invoice<RLO>gnp.exe" would read "invoiceexe.png".
        `printf 'invoice\\xe2\\x80\\xaegnp.exe\\n'; exit 1`,
    ),
  ]);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status).toBe("waiting");
  await page.goto(`/runs/${runId}`);
  await expect(page.locator('[data-check-id="xss"] [data-verdict="failed"]')).toBeVisible();
  await page.locator('[data-check-id="xss"] summary').click();
  const tail = page.locator('[data-check-id="xss"]').getByTestId("log-tail");
  await expect(tail).toContainText(
    '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><b>bold?</b>',
  );
  await expect(tail.locator("img, b, script")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  // The control is its code point, marked, in the tail and in the row's message (its last line); the page
  // holds no U+202E to apply.
  await expect(tail).toContainText("invoice<U+202E>gnp.exe");
  await expect(page.locator('[data-check-id="xss"] summary')).toContainText("invoice<U+202E>gnp.exe");
  expect(await page.locator("main").textContent()).not.toContain("\u202e");
  // The full log page shows it as text too.
  await tail.getByRole("link", { name: "Full log →" }).click();
  await expect(page.getByRole("log")).toContainText("<script>window.__pwned=1</script>");
  await expect(page.getByRole("log")).toContainText("invoice<U+202E>gnp.exe");
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test("a live run updates its rows, chip and tail without a reload, then stops at its ending", async ({ page }) => {
  const { taskId } = await workWithChecks("Live", [
    check("slow", 'for i in $(seq 1 12); do echo "tick $i"; sleep 0.4; done'),
    check("after", "echo done"),
  ]);
  const runId = await dispatch(taskId);
  await page.goto(`/runs/${runId}`);
  const checks = page.getByTestId("run-checks");
  await expect(checks.locator('[data-check-id="slow"] summary [data-verdict="running"]')).toBeVisible();
  await checks.locator('[data-check-id="slow"] summary').click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?open=slow$`));
  const tail = page.locator('[data-check-id="slow"]').getByTestId("log-tail");
  await expect(tail).toContainText("tick 3");
  await expect(tail).toContainText("following");
  await expect(tail).toContainText("tick 8");
  await expect(checks.getByRole("status", { name: "Gate green" })).toBeVisible();
  await expect(checks.locator('[data-check-id="after"] [data-verdict="passed"]')).toBeVisible();
  await expect(page.getByText("Accepted", { exact: true })).toBeVisible();
  // The page refreshed at the ending with the row still open, as its address says.
  await expect(tail).toContainText("tick 12");
});

test("a partial run's decision is answered from the run page: more attempts, then accept", async ({ page }) => {
  const { taskId } = await workWithChecks("Decide", [check("red", "false")], { maxGateAttempts: 1 });
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).ending).toBe("partial");
  await page.goto("/");
  await page
    .getByRole("list", { name: "Runs needing a decision" })
    .getByRole("link", { name: /: Decide$/ })
    .click();
  await expect(page.getByRole("heading", { name: "Decision needed", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Grant more attempts" }).click();
  // Exactly: Next's route announcer reads out the page's title, "Run #1 Waiting for a fix", as well.
  await expect(page.getByText("Waiting for a fix", { exact: true })).toBeVisible();
  // With no agent, the page says how a person hands the fix in.
  const handIn = page.getByRole("region", { name: "Hand in a fix for attempt 2" });
  await expect(handIn).toContainText(/commit the fix and run gatehouse gate [A-Z0-9]+-\d+: it pushes the clone/);
  // The log-in command names this site as the browser reached it, and says where a token comes from.
  const origin = new URL(page.url()).origin;
  await expect(handIn).toContainText(`gatehouse login ${origin} --token <token>`);
  await expect(handIn.getByRole("link", { name: "make one" })).toHaveAttribute("href", "/settings/tokens");
  await page.getByRole("button", { name: "Run attempt 2" }).click();
  await expect(page.getByRole("heading", { name: "Decision needed", exact: true })).toBeVisible();
  await expect(page.getByTestId("attempt-counter")).toHaveText("Attempt 2 of 2");
  await page.getByRole("button", { name: "Accept as it stands" }).click();
  await page.getByRole("button", { name: "Confirm: accept as it stands" }).click();
  await expect(page.locator('h1 [data-ending="accepted"]')).toBeVisible();
  await expect(page.getByTestId("ending-reason")).toContainText("accepted as it stands by");
  // Two clocks, each named: start to end (waiting for the decisions included), and the agent's and checks' time.
  await expect(page.getByTestId("run-spent")).toHaveText(/^took \d.* · agent and checks \d.*$/);
  const run = await runJson(runId);
  expect(run.ending).toBe("accepted");
});

test("the inbox filters endings by Work and ending", async ({ page }) => {
  const { taskId, workId } = await workWithChecks("Filtered", [check("ok", "true")]);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).ending).toBe("accepted");
  await page.goto("/");
  await page.getByLabel("Work", { exact: true }).selectOption(workId);
  await page.getByLabel("Ending", { exact: true }).selectOption("accepted");
  await page.getByRole("button", { name: "Filter" }).click();
  const endings = page.getByRole("list", { name: "Recent endings" });
  await expect(endings.getByRole("listitem")).toHaveCount(1);
  await expect(endings).toContainText("Filtered");
  await page.getByLabel("Ending", { exact: true }).selectOption("rejected");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No runs match these filters")).toBeVisible();
});

test("a run accepted though its agent gave up is flagged wherever its ending shows; the inbox lists those", async ({
  page,
}) => {
  const settings = { requireTests: "off", vacuousPolicy: "off" };
  const gaveUp = await workWithChecks("Agent gave up", [check("ok", "true")], {
    ...settings,
    agentCommand: "echo 'no API key'; exit 3",
  });
  const didIt = await workWithChecks("Agent did it", [check("ok", "true")], {
    ...settings,
    agentCommand: "echo done > done.txt",
  });
  const [gaveUpRun, didItRun] = [await dispatch(gaveUp.taskId), await dispatch(didIt.taskId)];
  await expect.poll(async () => (await runJson(gaveUpRun)).ending).toBe("accepted");
  await expect.poll(async () => (await runJson(didItRun)).ending).toBe("accepted");
  expect((await runJson(gaveUpRun)).agentCaveat).toBe("agent-failed-no-change");
  expect((await runJson(didItRun)).agentCaveat).toBeNull();

  // The run's header: accepted, and beside it what the agent did.
  await page.goto(`/runs/${gaveUpRun}`);
  const header = page.locator("h1");
  await expect(header.locator('[data-ending="accepted"]')).toBeVisible();
  await expect(header.locator("[data-agent-caveat]")).toHaveText("Agent failed, no change");
  await page.goto(`/runs/${didItRun}`);
  await expect(page.locator('h1 [data-ending="accepted"]')).toBeVisible();
  await expect(page.locator("h1 [data-agent-caveat]")).toHaveCount(0);

  // The task's run history and its Work's task list.
  await page.goto(`/tasks/${gaveUp.taskId}`);
  await expect(page.locator("[data-agent-caveat]").first()).toHaveText("Agent failed, no change");
  await page.goto(`/works/${gaveUp.workId}`);
  await expect(page.locator("[data-agent-caveat]:visible")).toHaveText("Agent failed, no change");

  // The inbox: the chip on its row; the filter keeps such runs and leaves the clean acceptance out.
  await page.goto("/");
  const endings = page.getByRole("list", { name: "Recent endings" });
  const gaveUpRow = endings.getByRole("listitem").filter({ hasText: "Agent gave up" });
  await expect(gaveUpRow.locator("[data-agent-caveat]")).toHaveText("Agent failed, no change");
  await expect(
    endings.getByRole("listitem").filter({ hasText: "Agent did it" }).locator("[data-agent-caveat]"),
  ).toHaveCount(0);
  await page.getByLabel("Ending", { exact: true }).selectOption({ label: "Accepted, agent failed" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/ending=agent-failed/);
  await expect(endings.getByRole("listitem").filter({ hasText: "Agent gave up" })).toHaveCount(1);
  await expect(endings.getByRole("listitem").filter({ hasText: "Agent did it" })).toHaveCount(0);
  await expect(page.getByLabel("Ending", { exact: true })).toHaveValue("agent-failed");
});

test("pages fit a 375 px phone without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const demo = await demoWorkJson();
  const tasks = await api("GET", `/api/works/${demo.id}/tasks`);
  for (const path of ["/", "/works", `/works/${demo.id}`, `/tasks/${tasks.json.tasks[0].id}`]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  // A task's title reads whole there (two lines before it is cut), in the Work's list and the inbox.
  for (const path of [`/works/${demo.id}`, "/"]) {
    await page.goto(path);
    const title = page.getByText("Make slugify produce URL slugs", { exact: true }).first();
    await expect(title).toBeVisible();
    const isCut = await title.evaluate((e) => {
      const box = e.closest(".line-clamp-2") ?? e;
      return box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
    });
    expect(isCut, path).toBe(false);
  }
  // The check history's table scrolls inside its box there, and says so.
  await page.goto(`/works/${demo.id}/checks`);
  await expect(
    page.getByText("Swipe the table sideways for durations, flaky runs and the last results."),
  ).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByText("Swipe the table sideways")).toBeHidden();
});

test("names as long as allowed, without a space, wrap on a phone instead of widening the page", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const checkName = `Lint${"x".repeat(116)}`;
  const { workId, taskId } = await workWithChecks("Long", [{ ...check("long", "echo nope; exit 1"), name: checkName }]);
  const title = `Fix${"y".repeat(147)}`;
  expect((await api("PATCH", `/api/tasks/${taskId}`, { version: 1, title })).status).toBe(200);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status).toBe("waiting");
  const tokenName = `ci${"z".repeat(78)}`;
  expect((await api("POST", "/api/auth/token", { ...ADMIN, name: tokenName })).status).toBe(201);
  for (const [path, shown] of [
    [`/tasks/${taskId}`, title],
    [`/runs/${runId}`, checkName],
    [`/tasks/${taskId}/edit`, title],
    [`/works/${workId}/settings/checks`, checkName],
    [`/runs/${runId}/attempts/1/checks/long/log`, checkName],
    ["/settings/tokens", tokenName],
    [`/works/${workId}`, title],
    ["/", title],
    [`/works/${workId}/checks`, checkName],
  ]) {
    await page.goto(path);
    await expect(page.getByText(shown).first()).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    if (overflow > 0)
      console.log(
        path,
        await page.evaluate(() =>
          [...document.querySelectorAll("body *")]
            .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === "visible")
            .slice(-6)
            .map(
              (e) =>
                `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().width)} ` +
                `${e.textContent?.slice(0, 30)}`,
            ),
        ),
      );
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});

test("the check history shows a reports-only check's failure as a warning, as the run page does", async ({ page }) => {
  const { workId, taskId } = await workWithChecks("Reports only", [
    { ...check("todo", "echo TODO left; exit 1"), required: false },
    check("unit", "true"),
  ]);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).ending).toBe("accepted");
  await page.goto(`/works/${workId}/checks`);
  const todo = page.locator('tr[data-check-id="todo"]');
  await expect(todo).toContainText("reports only");
  await expect(todo.getByRole("link", { name: /attempt 1: failed \(reports only\)$/ })).toHaveClass(/bg-amber-300/);
  const unit = page.locator('tr[data-check-id="unit"]');
  await expect(unit).not.toContainText("reports only");
  await expect(unit.getByRole("link", { name: /attempt 1: passed$/ })).toHaveClass(/bg-emerald-500/);
});

test("while a run of the task is in progress, Dispatch waits for it and says which; once it ends, it is back", async ({
  page,
}) => {
  const { taskId } = await workWithChecks("One at a time", [check("red", "exit 1")]);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status).toBe("waiting");
  await page.goto(`/tasks/${taskId}`);
  const dispatchButton = page.getByRole("button", { name: "Dispatch" });
  await expect(dispatchButton).toBeDisabled();
  await expect(dispatchButton).toHaveAccessibleDescription("Run #1 is waiting for a fix: one run at a time.");
  await expect(page.getByRole("link", { name: "Run #1" }).first()).toHaveAttribute("href", `/runs/${runId}`);
  expect((await api("POST", `/api/runs/${runId}/cancel`)).status).toBe(200);
  // The page follows the run: its end brings the button back without a reload.
  await expect(dispatchButton).toBeEnabled();
});

test("a task's run history is paged, newest first", async ({ page }) => {
  test.setTimeout(120_000);
  const { taskId } = await workWithChecks("Many runs", [check("ok", "true")]);
  for (let i = 0; i < 21; i++) {
    const runId = await dispatch(taskId);
    await expect.poll(async () => (await runJson(runId)).status).toBe("finished");
  }
  await page.goto(`/tasks/${taskId}`);
  const runs = page.getByRole("list", { name: "Runs" });
  await expect(runs.getByRole("listitem")).toHaveCount(20);
  await expect(runs.getByRole("listitem").first()).toContainText("#21");
  await page.getByRole("link", { name: "Older runs →" }).click();
  await expect(runs.getByRole("listitem")).toHaveCount(1);
  await expect(runs.getByRole("listitem").first()).toContainText("#1");
});

test("a test check that ran no test is Hollow, says 0 tests ran, and turns the gate red", async ({ page }) => {
  const { taskId } = await workWithChecks("No tests", [
    check("unit", "printf 'TAP version 13\\n1..0\\n# tests 0\\n# pass 0\\n# fail 0\\n# duration_ms 3.9\\n'"),
  ]);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status).toBe("waiting");
  expect((await runJson(runId)).attempts[0].checks[0].tests).toEqual({
    runner: "node:test",
    passed: 0,
    failed: 0,
    skipped: 0,
    total: 0,
  });
  await page.goto(`/runs/${runId}`);
  const row = page.locator('[data-check-id="unit"]');
  await expect(row.locator('[data-verdict="hollow"]')).toHaveText("Hollow");
  await expect(row).toContainText("0 tests ran");
  await expect(row.getByTestId("test-counts")).toHaveText("0 tests");
  await expect(page.getByTestId("run-checks").getByRole("status", { name: "Gate red" })).toBeVisible();
});

test("on a phone: a silent check says so, a long message reads whole once opened, and nothing widens the page", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const long = "3 failed: lower-cases, drops punctuation, keeps the hyphen between words, trims both ends";
  const { taskId } = await workWithChecks(`A Work whose name goes on and on ${"and on ".repeat(9)}`, [
    check("silent", "true"),
    check("long", `echo '${long}'; exit 1`),
  ]);
  const url = `https://example.com/${"a-very-long-path-segment-".repeat(8)}end`;
  const { version } = (await api("GET", `/api/tasks/${taskId}`)).json;
  const patched = await api("PATCH", `/api/tasks/${taskId}`, { version, description: `See ${url} for the report.` });
  expect(patched.status, JSON.stringify(patched.json)).toBe(200);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status).toBe("waiting");
  const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);

  await page.goto(`/runs/${runId}`);
  const message = page.locator('[data-check-id="long"] summary .message');
  const isCut = () => message.evaluate((el) => el.scrollWidth > el.clientWidth);
  // Visible, not only present: the page streams in, and until it is swapped in its content sits in a hidden
  // element, where nothing has a width and so nothing is cut.
  await expect(message).toBeVisible();
  await expect(message).toHaveText(long);
  expect(await isCut()).toBe(true);
  // The exit code and the time are in the row itself on a phone, before it is opened.
  await expect(page.locator('[data-check-id="long"]').getByTestId("row-exit-and-time")).toHaveText(/^exit 1 · \d+ ms$/);
  await page.locator('[data-check-id="long"] summary').click();
  await expect.poll(isCut).toBe(false);
  expect(await pageWidth()).toBeLessThanOrEqual(390);

  await page.locator('[data-check-id="silent"] summary').click();
  const tail = page.locator('[data-check-id="silent"]').getByTestId("log-tail");
  await expect(tail).toContainText("No output");
  await expect(tail.locator("pre")).toHaveCount(0);
  await tail.getByRole("link", { name: "Full log →" }).click();
  await expect(page.getByTestId("line-count")).toHaveText("No output");
  await expect(page.getByText("The command printed nothing.")).toBeVisible();

  // The top bar marks where the reader is: a task is a page of its Work.
  const main = page.getByRole("navigation", { name: "Main" });
  for (const [path, section, other] of [
    [`/tasks/${taskId}`, "Works", "Inbox"],
    ["/", "Inbox", "Works"],
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    expect(await pageWidth(), path).toBeLessThanOrEqual(390);
    await expect(main.getByRole("link", { name: section })).toHaveAttribute("aria-current", "page");
    await expect(main.getByRole("link", { name: other })).not.toHaveAttribute("aria-current");
  }
});
