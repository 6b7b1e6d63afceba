import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { api, dispatch, runJson, workWithChecks } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";

// The delivery owner's first hour (issue 24, points 10–15): a run made moot by a newer accepted one is
// superseded, a decision has a reason, a confirm step and a record of who and when, granting attempts
// says what it re-runs, the Inbox filter's words agree, a live run's facts are the finished one's, and
// evidence rows stay in their card on a phone.

const check = (id: string, command: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Check ${id}`,
  kind: "test",
  command,
  required: true,
  ...extra,
});

async function partialRun(name: string, extra: Record<string, unknown> = {}) {
  const { workId, taskId } = await workWithChecks(name, [check("red", "echo 'expected 2 got 3'; false")], {
    maxGateAttempts: 1,
    profile: "lite",
    requireTests: "off",
    vacuousPolicy: "off",
    ...extra,
  });
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).ending, { timeout: 30_000 }).toBe("partial");
  return { workId, taskId, runId };
}

async function overrideRed(taskId: string, command: string) {
  const { version } = (await api("GET", `/api/tasks/${taskId}`)).json;
  const patched = await api("PATCH", `/api/tasks/${taskId}`, {
    version,
    acceptanceChecks: [check("red", command)],
  });
  expect(patched.status, JSON.stringify(patched.json)).toBe(200);
}

test("an older partial run is superseded once a newer run of the task is accepted, with a link to it", async ({
  page,
}) => {
  const { taskId, runId: older } = await partialRun("Superseded");
  await page.goto("/");
  await expect(page.getByRole("link", { name: /^Decide .* run #1: Superseded/ })).toBeVisible();
  await overrideRed(taskId, "true");
  const newer = await dispatch(taskId);
  await expect.poll(async () => (await runJson(newer)).ending, { timeout: 30_000 }).toBe("accepted");

  const json = await runJson(older);
  expect(json.needsDecision).toBe(false);
  expect(json.supersededBy).toEqual({ id: newer, number: 2 });
  const decide = await api("POST", `/api/runs/${older}/decision`, { choice: "accept" });
  expect(decide.status).toBe(409);

  await page.goto("/");
  await expect(page.getByRole("link", { name: /^Decide .* run #1: Superseded/ })).toHaveCount(0);
  await page.goto(`/runs/${older}`);
  await expect(page.getByText("Superseded", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Decision needed" })).toHaveCount(0);
  const note = page.getByRole("note").filter({ hasText: "Superseded by" });
  await expect(note).toContainText("no decision is needed any more");
  await expectNoAxeViolations(page, "a superseded run");
  await note.getByRole("link", { name: "run #2" }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${newer}$`));
});

test("reject asks for a reason and a confirmation, and the run records who and when", async ({ page }) => {
  const { runId } = await partialRun("Reject with a reason");
  await page.goto(`/runs/${runId}`);
  const panel = page.getByRole("region", { name: "Decision needed" });
  await expect(panel).toContainText("Red: Check red (failed)");
  await expect(panel).toContainText("More attempts re-run the same 1 check.");
  // Why the run stopped is said once, under its title, not again in the panel.
  const reason = (await page.getByTestId("ending-reason").textContent())?.trim() ?? "";
  expect(reason.length).toBeGreaterThan(0);
  expect(await panel.textContent()).not.toContain(reason.replace(/\.$/, ""));
  await expect(panel).toContainText("Best attempt: 1");
  await panel.getByRole("button", { name: "Reject", exact: true }).click();
  // Nothing is decided yet: a confirmation with an optional reason.
  const confirm = panel.getByRole("group", { name: "Reject run #1" });
  await expect(confirm).toBeVisible();
  expect((await runJson(runId)).needsDecision).toBe(true);
  await expectNoAxeViolations(page, "the decision's confirmation");
  await confirm.getByLabel("Reason (optional)").fill("The approach is wrong: start over with the parser");
  await confirm.getByRole("button", { name: "Confirm: reject" }).click();
  await expect(page.locator('h1 [data-ending="rejected"]')).toBeVisible();
  const record = page.getByTestId("decision-record");
  await expect(record).toContainText("Rejected by");
  await expect(record).toContainText("The approach is wrong: start over with the parser");
  await expect(record.locator("time")).toBeVisible();
  const json = await runJson(runId);
  expect(json).toMatchObject({
    ending: "rejected",
    decision: "reject",
    decisionReason: "The approach is wrong: start over with the parser",
  });
  expect(json.decidedBy).toBeTruthy();
  expect(json.decidedAt).toBeTruthy();
  await expectNoAxeViolations(page, "a rejected run with its reason");
});

test("accept as it stands confirms too; cancelling the confirmation decides nothing", async ({ page }) => {
  const { runId } = await partialRun("Accept confirmed");
  await page.goto(`/runs/${runId}`);
  const panel = page.getByRole("region", { name: "Decision needed" });
  await panel.getByRole("button", { name: "Accept as it stands" }).click();
  const confirm = panel.getByRole("group", { name: "Accept run #1 as it stands" });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  expect((await runJson(runId)).needsDecision).toBe(true);
  await panel.getByRole("button", { name: "Accept as it stands" }).click();
  await panel.getByRole("button", { name: "Confirm: accept as it stands" }).click();
  await expect(page.getByTestId("decision-record")).toContainText("Accepted as it stands by");
  expect((await runJson(runId)).decisionReason).toBeNull();
});

test("granting more attempts says it re-runs the frozen checks, and offers a new run when the checks changed", async ({
  page,
}) => {
  const { taskId, runId } = await partialRun("Frozen checks");
  await page.goto(`/runs/${runId}`);
  const panel = page.getByRole("region", { name: "Decision needed" });
  // While the task's checks are the run's, nothing suggests they changed.
  await expect(panel).toContainText("More attempts re-run the same 1 check.");
  await expect(panel).not.toContainText("frozen");
  await expect(panel.getByRole("button", { name: "Dispatch a new run on the current checks" })).toHaveCount(0);
  await overrideRed(taskId, "true");
  await page.reload();
  await expect(panel).toContainText(
    "The task's checks changed since this run was dispatched: more attempts re-run this run's 1 frozen check, " +
      "not the task's current ones.",
  );
  await panel.getByRole("button", { name: "Dispatch a new run on the current checks" }).click();
  await expect(page).toHaveURL(/\/runs\/(?!.*\?)/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Run #2");
});

test("the Inbox's ending filter and its words agree: partial runs waiting for a decision are said to be above", async ({
  page,
}) => {
  const { workId } = await partialRun("Inbox words");
  await page.goto(`/?work=${workId}&ending=partial`);
  await expect(page.getByRole("heading", { name: "Needs a decision (1)" })).toBeVisible();
  const endings = page.getByRole("region", { name: "Recent endings" });
  await expect(endings).not.toContainText("No runs match these filters");
  await expect(endings).toContainText("The 1 partial run matching these filters waits for a decision, above.");
  await page.goto(`/?work=${workId}&ending=accepted`);
  await expect(page.getByRole("heading", { name: /Needs a decision/ })).toHaveCount(0);
  await expect(endings).toContainText("No runs match these filters");
  await expectNoAxeViolations(page, "the Inbox filtered");
});

async function liveFacts(page: Page) {
  return {
    from: await page.getByTestId("run-from").textContent(),
    spent: await page.getByTestId("run-spent").textContent(),
  };
}

test("a live run's header, counter and evidence say what the finished run says", async ({ page }) => {
  // Attempt 1's agent leaves the check red; attempt 2's makes it green after a pause, so attempt 2 is seen live.
  const { taskId } = await workWithChecks("Live facts", [check("fixed", "test -f fixed.txt")], {
    maxGateAttempts: 3,
    requireTests: "off",
    vacuousPolicy: "off",
    // Attempt 2 also shows the criterion working, so the run is accepted.
    agentCommand:
      "if [ -f tried.txt ]; then sleep 8; touch fixed.txt; mkdir -p .gatehouse; " +
      ("printf '## smoke\\n```\\necho smoke\\n```\\n```\\nsmoke\\n```\\n' > " +
        ".gatehouse/evidence.md; fi; date > tried.txt"),
  });
  const { version } = (await api("GET", `/api/tasks/${taskId}`)).json;
  const patched = await api("PATCH", `/api/tasks/${taskId}`, {
    version,
    acceptanceChecks: [check("smoke", "echo smoke")],
  });
  expect(patched.status, JSON.stringify(patched.json)).toBe(200);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).attempts.length, { timeout: 30_000 }).toBe(2);
  await page.goto(`/runs/${runId}`);
  expect((await runJson(runId)).status).not.toBe("finished");
  await expect(page.getByTestId("run-from")).not.toHaveText("from —");
  await expect(page.getByTestId("run-spent")).not.toHaveText(/spent 0 ms/);
  await expect(page.getByTestId("attempts-used")).toHaveText("2 of 3 attempts");
  await expect(page.getByTestId("attempt-counter")).toHaveText("Attempt 2 of 3");
  const evidence = page.getByRole("region", { name: "Evidence" });
  await expect(evidence).not.toContainText("The task adds no acceptance check");
  await expect(evidence).toContainText("smoke");
  const live = await liveFacts(page);
  await expect(page.locator('h1 [data-ending="accepted"]')).toBeVisible({ timeout: 45_000 });
  await expect(page.getByTestId("attempts-used")).toHaveText("2 of 3 attempts");
  await expect(page.getByTestId("run-from")).toHaveText(live.from!);
});

test("at 390 px the evidence rows stay inside their card", async ({ page }) => {
  // As long as an id may be (41 characters), and without a space to wrap at.
  const longId = "acceptance-criterion-with-a-long-name-x12";
  const { taskId } = await workWithChecks("Evidence on a phone", [check("unit", "echo ok")], {
    maxGateAttempts: 1,
    requireTests: "off",
    vacuousPolicy: "off",
  });
  const { version } = (await api("GET", `/api/tasks/${taskId}`)).json;
  const patched = await api("PATCH", `/api/tasks/${taskId}`, {
    version,
    acceptanceChecks: [check(longId, "echo fine")],
  });
  expect(patched.status, JSON.stringify(patched.json)).toBe(200);
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 30_000 }).toBe("finished");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/runs/${runId}#evidence`);
  const evidence = page.getByRole("region", { name: "Evidence" });
  await expect(evidence).toContainText(longId);
  // Text spills even when its box does not: measure every line of text against the row's content box.
  const spill = await evidence.locator("li").evaluateAll((items) =>
    items.flatMap((li) => {
      const right = li.getBoundingClientRect().right - Number.parseFloat(getComputedStyle(li).paddingRight);
      const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
      const out: string[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        if ([...range.getClientRects()].some((r) => r.right > right + 1)) out.push(node.textContent ?? "");
      }
      return out;
    }),
  );
  expect(spill).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page, "evidence rows at 390 px");
});
