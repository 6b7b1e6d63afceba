// The real Claude Code CLI as a Work's agent command (the Claude Code preset), against the scripted
// Messages API (lib/testing/scripted-messages-api.ts): attempt 1 the scripted model makes a wrong fix and
// the gate is red; attempt 2's prompt — the brief Gatehouse wrote — holds the failing test's name
// (asserted on the API's side), the model fixes it, the run is accepted; the agent row carries the
// session as the CLI reported it (turns, tokens, cost, its last message).
// Unsandboxed (vitest.config.mts sets GATEHOUSE_SANDBOX=off): what is under test is Claude Code's side of
// the agent step (the brief on stdin, its JSON result); the sandbox's own suites test what an agent reaches.
// Sandboxed, the `claude` shim in a private temp dir and the test's repositories would be out of its reach.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPresetCommand } from "../gates/agent-presets";
import { CLAUDE_CLI } from "../testing/claude-code";
import { dispatchAndSettle, check, createHarness, makeScenario, type Harness } from "../testing/runner-harness";
import {
  lastUserText,
  SCRIPTED_USAGE,
  startScriptedMessagesApi,
  type MessagesRequest,
  type ScriptedApi,
} from "../testing/scripted-messages-api";

const FAILING_TEST = "adds two numbers";

// A fresh session each attempt: its first request decides (the brief names the failing test, or not yet).
function script(request: MessagesRequest) {
  if (request.messages.some((m) => m.role === "assistant")) return { text: "Fixed sum and committed it." };
  const right = lastUserText(request).includes(FAILING_TEST);
  const body = right ? "a + b" : "a * b";
  return {
    tool: "Bash",
    input: {
      command: `echo 'exports.sum = (a, b) => ${body};' > sum.js && git commit -qam 'fix sum'`,
      description: "Fix sum",
    },
  };
}

let model: ScriptedApi;
let h: Harness;
let binDir: string;

beforeAll(async () => {
  model = await startScriptedMessagesApi(script);
  // `claude` on PATH as an installed CLI would be; through the package's wrapper, which finds the native
  // binary whether or not the package's postinstall ran (npm may skip install scripts).
  binDir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-claude-bin-"));
  fs.writeFileSync(
    path.join(binDir, "claude"),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLAUDE_CLI)} "$@"\n`,
    {
      mode: 0o755,
    },
  );
  h = await createHarness({
    serverEnv: {
      ...process.env,
      PATH: `${binDir}:${process.env.PATH}`,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-ant-scripted-test-key",
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
  });
});
afterAll(async () => {
  await model?.close();
  await h?.cleanup();
  if (binDir) fs.rmSync(binDir, { recursive: true, force: true });
});

describe("Claude Code as the agent command", () => {
  it("red, then green once the brief names the failing test; the agent row shows turns, tokens and cost", async () => {
    const s = await makeScenario(
      h,
      {
        maxGateAttempts: 3,
        agentCommand: agentPresetCommand("claude-code"),
        agentEnvPassthrough: [
          "ANTHROPIC_BASE_URL",
          "ANTHROPIC_API_KEY",
          "DISABLE_TELEMETRY",
          "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
        ],
        checkDefaults: [check("unit", "node --test test/", { kind: "test", name: "Unit tests pass" })],
      },
      {
        files: {
          "sum.js": "exports.sum = (a, b) => a - b;\n",
          "test/sum.test.js":
            "const test = require('node:test');\nconst assert = require('node:assert');\n" +
            `test('${FAILING_TEST}', () => assert.strictEqual(require('../sum.js').sum(2, 3), 5));\n`,
        },
      },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.run.ending, detail.run.endingReason ?? "").toBe("accepted");
    expect(detail.attempts.map((a) => [a.n, a.agentVerdict, a.gate])).toEqual([
      [1, "passed", "red"],
      [2, "passed", "green"],
    ]);

    // Each attempt's session began with Gatehouse's brief: only attempt 2's named the failing test.
    const firstTurns = model.requests.filter((r) => !r.messages.some((m) => m.role === "assistant"));
    expect(firstTurns).toHaveLength(2);
    expect(lastUserText(firstTurns[0])).not.toContain(FAILING_TEST);
    expect(lastUserText(firstTurns[0])).toContain(s.task.key);
    expect(lastUserText(firstTurns[1])).toContain(FAILING_TEST);

    // Two model turns per session (the fix, then the final message), as the CLI counted and billed them.
    for (const attempt of detail.attempts) {
      expect(attempt.agentResult).toMatchObject({
        cli: "claude-code",
        lastMessage: "Fixed sum and committed it.",
        turns: 2,
        inputTokens: 2 * SCRIPTED_USAGE.input_tokens,
        outputTokens: 2 * SCRIPTED_USAGE.output_tokens,
      });
      expect(attempt.agentResult?.costUsd).toBeGreaterThan(0);
      expect(attempt.agentMessage).toBe("Fixed sum and committed it.");
    }
  });
});
