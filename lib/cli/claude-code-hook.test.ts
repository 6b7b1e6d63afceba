// The stop hook with the real Claude Code CLI (`@anthropic-ai/claude-code`, pinned) against a scripted
// Messages API (lib/testing/scripted-messages-api.ts): `gatehouse hook claude-code` is the session's Stop
// hook in the agent's own clone. The scripted model makes a wrong fix and tries to stop; the hook pushes,
// Gatehouse runs the gate (red), and the model's next request carries the failing test's name (asserted
// here, on the server's side); it fixes it, tries to stop again, the gate is green and the session ends.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { listRunsOfTask } from "@/lib/db/run-history";
import { loadRunDetail } from "@/lib/services/run-detail";
import { grant, makePerson } from "@/lib/testing/access-fixture";
import { runClaude, startClaudeScenario, type ClaudeScenario } from "@/lib/testing/claude-code";
import { CLI_BIN, cliEnv } from "@/lib/testing/cli-process";
import { gitIn } from "@/lib/testing/git-repo";
import { check } from "@/lib/testing/runner-harness";
import { claudeEnv, lastUserText, type MessagesRequest } from "@/lib/testing/scripted-messages-api";

let c: ClaudeScenario;

// The scripted model: a wrong fix first, the right one once a message names the failing test; after each
// fix it says it is done (and so tries to stop).
let phase: "start" | "wrong-fixed" | "right-fixed" = "start";
function script(request: MessagesRequest) {
  const said = lastUserText(request);
  if (phase === "start") {
    phase = "wrong-fixed";
    return {
      tool: "Bash",
      input: { command: "sed -i 's/a - b/a * b/' sum.js && git commit -qam 'fix sum'", description: "Fix sum" },
    };
  }
  if (phase === "wrong-fixed" && said.includes("Gatehouse: the gate is red")) {
    phase = "right-fixed";
    return {
      tool: "Bash",
      input: { command: "sed -i 's/a \\* b/a + b/' sum.js && git commit -qam 'sum adds'", description: "Fix sum" },
    };
  }
  return { text: "Done: sum is fixed and committed." };
}

beforeAll(async () => {
  c = await startClaudeScenario(script, {
    maxGateAttempts: 3,
    checkDefaults: [check("unit", "node --test test/", { kind: "test", name: "Unit tests pass" })],
  });
});
afterAll(async () => c?.cleanup());

describe("gatehouse hook claude-code, with the real Claude Code CLI", () => {
  it("blocks the stop on red with the failing test's name, and lets the agent stop on green", async () => {
    const { s, model, api, clone, home } = c;
    const engineer = await makePerson("engineer");
    await grant(s.work.id, engineer, "engineer");
    // The Stop hook as a person sets it up (here in a settings file outside the clone).
    const settings = path.join(home, "gatehouse-hook.json");
    const hook = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_BIN)} hook claude-code --task ${s.task.key}`;
    fs.writeFileSync(
      settings,
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: hook, timeout: 120 }] }] } }),
    );
    const env = { ...cliEnv(api.url, engineer.token), ...claudeEnv(model, home) };
    const res = await runClaude(
      ["-p", "Fix sum so the tests pass.", "--allowedTools", "Bash", "--settings", settings, "--output-format", "json"],
      env,
      clone,
    );
    expect(res.code, res.stderr).toBe(0);
    const result = JSON.parse(res.stdout);
    expect(result.is_error).toBe(false);

    // The model was sent back once, with the failing test's name, and not again after green.
    const sentBack = model.requests.filter((r) => lastUserText(r).includes("Gatehouse: the gate is red"));
    expect(sentBack).toHaveLength(1);
    const reason = lastUserText(sentBack[0]);
    expect(reason).toContain("attempt 1 of 3");
    expect(reason).toContain("adds two numbers");
    expect(reason).toContain("command: node --test test/");

    const [run] = await listRunsOfTask({ taskId: s.task.id, take: 1 });
    const detail = await loadRunDetail(SYSTEM_ACTOR, run.id);
    expect(detail.run.ending).toBe("accepted");
    expect(detail.attempts.map((a) => [a.n, a.gate, a.trigger])).toEqual([
      [1, "red", "push"],
      [2, "green", "push"],
    ]);
    // Each attempt ran at the commit the agent made in its clone.
    expect(detail.attempts[1].commit).toBe(gitIn(clone, "rev-parse", "HEAD"));
  });
});
