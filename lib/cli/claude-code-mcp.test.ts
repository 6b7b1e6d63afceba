// `gatehouse mcp` inside the real Claude Code CLI (--mcp-config), against the scripted Messages API: the
// scripted model makes a wrong fix and calls run_gate; the tool's answer (seen by the server in the next
// request) names the failing test; it fixes it, calls run_gate again, and the run is accepted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { listRunsOfTask } from "@/lib/db/run-history";
import { loadRunDetail } from "@/lib/services/run-detail";
import { grant, makePerson } from "@/lib/testing/access-fixture";
import { runClaude, startClaudeScenario, type ClaudeScenario } from "@/lib/testing/claude-code";
import { CLI_BIN, cliEnv } from "@/lib/testing/cli-process";
import { check } from "@/lib/testing/runner-harness";
import { claudeEnv, lastUserText, type MessagesRequest } from "@/lib/testing/scripted-messages-api";

const RUN_GATE = "mcp__gatehouse__run_gate";

let c: ClaudeScenario;

// Wrong fix → run_gate → (red, names the test) → right fix → run_gate → (green) → done. A run_gate call made
// while the CLI is still connecting to the MCP server fails; the model simply calls it again.
let phase: "start" | "wrong-fixed" | "right-fixed" = "start";
function script(request: MessagesRequest) {
  const said = lastUserText(request);
  if (phase === "start") {
    phase = "wrong-fixed";
    return { tool: "Bash", input: { command: "echo 'exports.sum = (a, b) => a * b;' > sum.js", description: "Fix" } };
  }
  if (phase === "wrong-fixed" && said.includes("the gate is red")) {
    phase = "right-fixed";
    return { tool: "Bash", input: { command: "echo 'exports.sum = (a, b) => a + b;' > sum.js", description: "Fix" } };
  }
  if (phase === "right-fixed" && said.includes("the gate is green")) return { text: "The gate is green." };
  return { tool: RUN_GATE, input: {} };
}

beforeAll(async () => {
  c = await startClaudeScenario(script, {
    maxGateAttempts: 3,
    checkDefaults: [check("unit", "node --test test/", { kind: "test" })],
  });
});
afterAll(async () => c?.cleanup());

describe("gatehouse mcp in Claude Code", () => {
  // The real Claude Code CLI and two gated runs: 15 s at load 10, over 60 s at load 20 beside Playwright.
  it("run_gate answers red with the failing test, then green, and the run is accepted", async () => {
    const { s, model, api, clone, home } = c;
    const engineer = await makePerson("engineer");
    await grant(s.work.id, engineer, "engineer");
    const gatehouseEnv = cliEnv(api.url, engineer.token);
    const mcpConfig = JSON.stringify({
      mcpServers: {
        gatehouse: { command: process.execPath, args: [CLI_BIN, "mcp", "--task", s.task.key], env: gatehouseEnv },
      },
    });
    const env = { ...gatehouseEnv, ...claudeEnv(model, home) };
    const res = await runClaude(
      [
        "-p",
        "Fix sum; check it with run_gate.",
        "--allowedTools",
        `Bash ${RUN_GATE}`,
        "--mcp-config",
        mcpConfig,
        "--output-format",
        "json",
      ],
      env,
      clone,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).result).toBe("The gate is green.");
    // run_gate's red answer (the tool result the CLI sent back) named the failing test.
    const red = model.requests.map(lastUserText).find((text) => text.includes("the gate is red"));
    expect(red).toContain("adds two numbers");

    const [run] = await listRunsOfTask({ taskId: s.task.id, take: 1 });
    const detail = await loadRunDetail(SYSTEM_ACTOR, run.id);
    const said = model.requests.map((r) => lastUserText(r).slice(0, 160).replace(/\s+/g, " "));
    expect([detail.run.ending, detail.attempts.map((a) => a.gate)], said.join("\n")).toEqual([
      "accepted",
      ["red", "green"],
    ]);
  }, 120_000);
});
