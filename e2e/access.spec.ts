import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { api, BASE_URL, demoWork, demoWorkJson, personWithRole } from "./support/api";
import { callServerAction } from "./support/server-actions";
import { signedInContext } from "./support/sign-in";

test.use({ storageState: { cookies: [], origins: [] } });

async function runCount(taskId: string): Promise<number> {
  const runs = await api("GET", `/api/tasks/${taskId}/runs`);
  return runs.json.runs.length;
}

test("a wrong password is refused with a clear message, and sign-out ends the session", async ({ page }) => {
  const work = await demoWork();
  const person = await personWithRole(work.id, "viewer");
  await page.goto("/works");
  await expect(page).toHaveURL(/\/signin/);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "wrong email or password" })).toBeVisible();
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel(/^Account: /)).toBeVisible();
  await page.getByLabel(/^Account: /).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto("/works");
  await expect(page).toHaveURL(/\/signin/);
});

test("a viewer sees no Dispatch button, and a Dispatch Server Action sent anyway is refused", async ({ browser }) => {
  const work = await demoWork();
  const viewer = await personWithRole(work.id, "viewer");
  const { context, page } = await signedInContext(browser, viewer);
  await page.goto(`/tasks/${work.taskId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Dispatch" })).toHaveCount(0);

  const before = await runCount(work.taskId);
  const answer = await callServerAction(context.request, {
    baseURL: BASE_URL,
    page: `/tasks/${work.taskId}`,
    filename: "app/tasks/[taskId]/actions.ts",
    exportedName: "dispatchTaskAction",
    args: [work.taskId],
  });
  expect(answer.text).toContain('"code":"forbidden"');
  expect(answer.text).toContain("needs the engineer role");
  expect(await runCount(work.taskId)).toBe(before);
  await context.close();
});

test("an engineer may dispatch but not answer a decision; a lead may", async ({ browser }) => {
  const demo = await demoWorkJson();
  // A Work whose only check fails and which has one attempt: its run ends partial, raising a decision.
  const work = await api("POST", "/api/works", {
    name: `Decisions ${Date.now()}`,
    repoUrl: demo.repoUrl,
    baseBranch: "main",
    maxGateAttempts: 1,
    checkDefaults: [{ id: "red", name: "Always red", kind: "custom", command: "false", required: true }],
  });
  const task = await api("POST", `/api/works/${work.json.id}/tasks`, { title: "needs a decision" });
  const engineer = await personWithRole(work.json.id, "engineer");
  const lead = await personWithRole(work.json.id, "lead");

  const asEngineer = await signedInContext(browser, engineer);
  const dispatched = await callServerAction(asEngineer.context.request, {
    baseURL: BASE_URL,
    page: `/tasks/${task.json.id}`,
    filename: "app/tasks/[taskId]/actions.ts",
    exportedName: "dispatchTaskAction",
    args: [task.json.id],
  });
  const runId = /"runId":"([^"]+)"/.exec(dispatched.text)?.[1];
  expect(runId, dispatched.text).toBeTruthy();
  await expect
    .poll(async () => (await api("GET", `/api/runs/${runId}`)).json.ending, { timeout: 30_000 })
    .toBe("partial");

  await asEngineer.page.goto(`/runs/${runId}`);
  await expect(asEngineer.page.getByText("waits for a decision by a lead")).toBeVisible();
  await expect(asEngineer.page.getByRole("button", { name: "Accept as it stands" })).toHaveCount(0);
  const refused = await callServerAction(asEngineer.context.request, {
    baseURL: BASE_URL,
    page: `/runs/${runId}`,
    filename: "app/runs/[runId]/actions.ts",
    exportedName: "decideRunAction",
    args: [runId, { choice: "accept" }],
  });
  expect(refused.text).toContain('"code":"forbidden"');
  expect((await api("GET", `/api/runs/${runId}`)).json.needsDecision).toBe(true);

  const asLead = await signedInContext(browser, lead);
  await asLead.page.goto(`/runs/${runId}`);
  await asLead.page.getByRole("button", { name: "Reject" }).click();
  await asLead.page.getByRole("button", { name: "Confirm: reject" }).click();
  await expect(asLead.page.locator('h1 [data-ending="rejected"]')).toBeVisible();
  expect((await api("GET", `/api/runs/${runId}`)).json.ending).toBe("rejected");
  await asEngineer.context.close();
  await asLead.context.close();
});

test("a Server Action called from another origin is refused and changes nothing", async ({ browser }) => {
  const work = await demoWork();
  const engineer = await personWithRole(work.id, "engineer");
  const { context } = await signedInContext(browser, engineer);
  const before = await runCount(work.taskId);
  const answer = await callServerAction(context.request, {
    baseURL: BASE_URL,
    page: `/tasks/${work.taskId}`,
    filename: "app/tasks/[taskId]/actions.ts",
    exportedName: "dispatchTaskAction",
    args: [work.taskId],
    origin: "http://evil.example",
  });
  expect(answer.status).not.toBe(200);
  expect(answer.text).not.toContain('"runId"');
  expect(await runCount(work.taskId)).toBe(before);
  await context.close();
});

// A page that is not the reader's is a real 404, for a browser and for a script, and its page says why. The whole
// audit trail is an admin's and a Work's trail its leads' (/audit crashed with a 200 for anyone else; a Work's
// trail did for its viewers and engineers); the admins' pages said "Not found" with a 200.
test("the admins' pages and an audit trail not the reader's answer 404 and say who may read them", async ({
  browser,
}) => {
  const demo = await demoWorkJson();
  const elsewhere = await api("POST", "/api/works", {
    name: `Elsewhere ${Date.now()}`,
    repoUrl: demo.repoUrl,
    baseBranch: "main",
  });
  const engineer = await signedInContext(browser, await personWithRole(demo.id, "engineer"));
  const lead = await signedInContext(browser, await personWithRole(demo.id, "lead"));
  const expectRefused = async (page: Page, path: string, heading: string, text: string) => {
    const res = await page.goto(path);
    expect([path, res?.status()]).toEqual([path, 404]);
    await expect(page.getByRole("heading", { level: 1, name: heading }), path).toBeVisible();
    await expect(page.getByText(text), path).toBeVisible();
    await expect(page.getByText("This page could not be shown"), path).toHaveCount(0);
    expect([path, (await page.request.get(path)).status()]).toEqual([path, 404]);
  };

  for (const { page } of [engineer, lead]) {
    await expectRefused(
      page,
      "/audit",
      "Only an admin may read the whole audit trail",
      "A lead may read their Work's at /audit?workId=…",
    );
    await expectRefused(page, `/audit?workId=${elsewhere.json.id}`, "No such Work", "you have no role on it");
    for (const path of ["/admin/users", "/admin/workers"])
      await expectRefused(page, path, "Not found", "There is nothing here, or you do not have access to it.");
  }
  await expectRefused(
    engineer.page,
    `/audit?workId=${demo.id}`,
    "Only a lead may read this Work's audit trail",
    `You are an engineer of ${demo.name}.`,
  );
  await engineer.page.getByRole("link", { name: `Back to ${demo.name}` }).click();
  await expect(engineer.page).toHaveURL(new RegExp(`/works/${demo.id}$`));

  // The lead reads their Work's trail, reached from the Work's page.
  await lead.page.goto(`/works/${demo.id}`);
  await lead.page.getByRole("link", { name: "Audit", exact: true }).click();
  await expect(lead.page.getByRole("heading", { level: 1, name: `Audit of ${demo.name}` })).toBeVisible();
  expect((await lead.page.request.get(`/audit?workId=${demo.id}`)).status()).toBe(200);
  await engineer.context.close();
  await lead.context.close();
});
