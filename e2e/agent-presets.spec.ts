import { expect, test } from "./support/test";
import { dispatch, runJson, workWithChecks } from "./support/api";

// What Claude Code prints with --output-format json, as the agent step reads it from the end of its log.
const CLAUDE_RESULT = JSON.stringify({
  type: "result",
  num_turns: 3,
  result: "Fixed sum() and committed it.",
  total_cost_usd: 0.0027,
  usage: { input_tokens: 240, output_tokens: 60 },
});

test("the agent row shows the agent CLI's last message, turns, tokens and cost", async ({ page }) => {
  const { taskId } = await workWithChecks(
    "Agent session",
    [{ id: "built", name: "It builds", kind: "build", command: "echo built", required: true }],
    { agentCommand: `echo '${CLAUDE_RESULT}'`, maxGateAttempts: 1, requireTests: "off", vacuousPolicy: "off" },
  );
  const runId = await dispatch(taskId);
  await expect.poll(async () => (await runJson(runId)).status, { timeout: 45_000 }).toBe("finished");
  await page.goto(`/runs/${runId}`);
  const agent = page.getByTestId("agent-step");
  await expect(agent.getByTestId("agent-session")).toHaveText("· 3 turns · 240 in / 60 out tokens · $0.0027");
  await expect(agent.getByText("Fixed sum() and committed it.", { exact: true })).toBeVisible();
});

test("a preset fills the Work's agent command, which stays editable", async ({ page }) => {
  const { workId } = await workWithChecks("Agent preset", [
    { id: "built", name: "It builds", kind: "build", command: "echo built", required: true },
  ]);
  // The agent command is in the settings' Agent section.
  await page.goto(`/works/${workId}/settings/agent`);
  const preset = page.getByLabel("Preset");
  const command = page.getByRole("textbox", { name: "Agent command" });
  await preset.selectOption({ label: "Codex CLI" });
  await expect(command).toHaveValue("codex exec --json --full-auto --skip-git-repo-check -");
  await expect(page.getByText(/Needs OPENAI_API_KEY in the environment it may see/)).toBeVisible();
  await preset.selectOption({ label: "Claude Code" });
  await expect(command).toHaveValue(/^claude -p --output-format json/);
  // Edited by hand, it is a custom command.
  await command.fill("claude -p --max-turns 5");
  await expect(preset).toHaveValue("custom");
});
