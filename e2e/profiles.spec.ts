import { expect, test } from "./support/test";
import { api, demoWorkJson, dispatch, runJson } from "./support/api";
import { expectNoAxeViolations } from "./support/axe";

const CRITERION = {
  id: "prints-ok",
  name: "It prints ok",
  kind: "custom",
  command: "node -e \"console.log('criterion-ok')\"",
  required: true,
  timeoutSec: 60,
};
// The agent shows the criterion working in .gatehouse/evidence.md.
const AGENT =
  `mkdir -p .gatehouse && printf '## prints-ok\\n\`\`\`bash\\nnode -e ` +
  `"console.log(1)"\\n\`\`\`\\n\`\`\`\\ncriterion-ok\\n\`\`\`\\n' > .gatehouse/evidence.md`;
const reviewer = (status: string) =>
  `out=$(node -e "console.log('criterion-ok')") && node -e ` +
  `'require("fs").writeFileSync(process.env.GATEHOUSE_REPORT_FILE, JSON.stringify({criteria: [{id: ` +
  `"prints-ok", status: "${status}", command: "node -e ...", output: process.argv[1] + " (as the ` +
  `review saw it)"}], gaps: []}))' "$out"`;

async function taskOnWork(name: string, work: Record<string, unknown>): Promise<{ workId: string; taskId: string }> {
  const demo = await demoWorkJson();
  const created = await api("POST", "/api/works", {
    name: `${name} ${Date.now()}`,
    repoUrl: demo.repoUrl,
    baseBranch: "main",
    requireTests: "off",
    vacuousPolicy: "off",
    agentCommand: AGENT,
    maxGateAttempts: 1,
    ...work,
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.json));
  const task = await api("POST", `/api/works/${created.json.id}/tasks`, { title: name, acceptanceChecks: [CRITERION] });
  return { workId: created.json.id, taskId: task.json.id };
}

test("a standard run shows its profile, the evidence and a review that met every criterion with what it ran", async ({
  page,
}) => {
  const { taskId } = await taskOnWork("Reviewed", { profile: "standard", reviewCommand: reviewer("met") });
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 45_000 }).toBe("finished");
  const json = await runJson(runId);
  expect(json).toMatchObject({ profile: "standard", ending: "accepted" });
  expect(json.attempts[0].review).toMatchObject({ outcome: "met", score: 1 });
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-profile")).toHaveText("profile standard");
  const evidence = page.getByRole("region", { name: "Evidence" });
  await expect(evidence).toContainText("Evidence for every criterion: prints-ok");
  const review = page.getByRole("region", { name: "Review" });
  await expect(review).toContainText("1 of 1 criteria met (score 1)");
  await expect(review).toContainText("criterion-ok (as the review saw it)");
  // The first node runs in a subshell; the last one replaces the review's shell, so it is the review itself.
  await expect(review).toContainText("commands executed in the last: 1");
});

test("a review that disagrees with a passing check ends the run inconclusive, both outputs side by side", async ({
  page,
}) => {
  const { taskId } = await taskOnWork("Disagreeing", { profile: "full", reviewCommand: reviewer("missing") });
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 45_000 }).toBe("finished");
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("ending-reason")).toContainText("disagrees with the checks on prints-ok");
  const review = page.getByRole("region", { name: "Review" });
  await expect(review.getByText("The review's output")).toBeVisible();
  await expect(review.getByText("The check's output")).toBeVisible();
  await expect(review).toContainText("check: passed");
  await expectNoAxeViolations(page, "run with a disagreeing review (light)");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoAxeViolations(page, "run with a disagreeing review (dark)");
});

test("a lead picks the profile and the review command in the Work's settings; the API has them", async ({ page }) => {
  const { workId } = await taskOnWork("Profile settings", {});
  expect((await api("GET", `/api/works/${workId}`)).json).toMatchObject({ profile: "standard", reviewCommand: null });
  await page.goto(`/works/${workId}/settings/verification`);
  const section = page.getByRole("region", { name: "Verification profile" });
  await expect(async () => {
    await section.getByLabel("Profile").selectOption("lite");
    await expect(section.getByText("The checks and the proof rows only.")).toBeVisible({ timeout: 1000 });
  }).toPass();
  await section.getByRole("textbox", { name: "Review command" }).fill("./review.sh");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Saved: version/ })).toBeVisible();
  expect((await api("GET", `/api/works/${workId}`)).json).toMatchObject({
    profile: "lite",
    reviewCommand: "./review.sh",
  });
});

test("a full run shows the red team's kept probe and the mutation floor: the score per file and the \
mutants no test caught", async ({ page }) => {
  const report = JSON.stringify({
    thresholds: { break: 60 },
    files: {
      "src/price.js": {
        mutants: [
          {
            mutatorName: "EqualityOperator",
            replacement: "discount >= 0",
            status: "Survived",
            location: { start: { line: 2 } },
          },
          {
            mutatorName: "ArithmeticOperator",
            replacement: "amount + discount",
            status: "Killed",
            location: { start: { line: 2 } },
          },
        ],
      },
    },
  });
  const { taskId } = await taskOnWork("Mutated", {
    profile: "full",
    agentCommand: `${AGENT} && mkdir -p src && echo 'module.exports = 1;' > src/price.js`,
    mutationCommand: `mkdir -p out && printf %s '${report}' > out/m.json`,
    mutationReport: "out/m.json",
    redTeamCommand:
      "mkdir -p tests/redteam && echo 'process.exit(0)' > tests/redteam/holds.test.js && echo 'src/evil' > src/evil.js",
    redTeamTestCommand: 'node "$GATEHOUSE_PROBE"',
  });
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 45_000 }).toBe("finished");
  expect((await runJson(runId)).attempts[0].mutation).toMatchObject({ verdict: "failed", score: 50, breakAt: 60 });
  await page.goto(`/runs/${runId}`);
  const floor = page.getByRole("region", { name: "Mutation floor" });
  await expect(floor).toContainText("mutation score 50 is under the threshold 60");
  await expect(floor).toContainText("src/price.js");
  await expect(floor).toContainText("line 2: EqualityOperator → discount >= 0");
  const redTeam = page.getByRole("region", { name: "Red team" });
  await expect(redTeam).toContainText("1 red-team probe passed");
  await expect(redTeam).toContainText("tests/redteam/holds.test.js");
  await expect(redTeam).toContainText("src/evil.js: outside tests/redteam/");
  await expect(redTeam).toContainText("probes kept in");
  await expectNoAxeViolations(page, "run with a red team and a mutation floor (light)");
});
