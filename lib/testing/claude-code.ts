// Test helper: the real Claude Code CLI (`@anthropic-ai/claude-code`, pinned) against a scripted Messages
// API, and the scenario the CLI tests share: an API server, the scripted model, a Work whose small project
// has a real node:test suite and a bug in sum(), the agent's own clone of it and a HOME for the CLI.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startApiServer, type ApiServer } from "./api-server";
import { runNodeScript, type CliResult } from "./cli-process";
import { gitIn } from "./git-repo";
import { createHarness, makeScenario, type Harness, type Scenario } from "./runner-harness";
import { startScriptedMessagesApi, type Script, type ScriptedApi } from "./scripted-messages-api";

export const CLAUDE_CLI = path.resolve(
  __dirname,
  "..",
  "..",
  "node_modules",
  "@anthropic-ai",
  "claude-code",
  "cli-wrapper.cjs",
);

// A small project with a real node:test suite and a bug in sum(): the test "adds two numbers" fails.
const SUM_PROJECT = {
  "sum.js": "exports.sum = (a, b) => a - b;\n",
  "test/sum.test.js":
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { sum } = require('../sum.js');\n" +
    "test('adds two numbers', () => assert.strictEqual(sum(2, 3), 5));\n",
};

export function runClaude(args: string[], env: Record<string, string>, cwd: string): Promise<CliResult> {
  return runNodeScript(CLAUDE_CLI, args, { env, cwd });
}

export type ClaudeScenario = {
  h: Harness;
  api: ApiServer;
  model: ScriptedApi;
  s: Scenario;
  // The agent's clone of the Work's repository (committing as "Scripted agent"), and the CLI's HOME.
  clone: string;
  home: string;
  cleanup: () => Promise<void>;
};

// Everything a Claude Code CLI test starts with; `work` are the Work's settings (its checks).
export async function startClaudeScenario(script: Script, work: Record<string, unknown>): Promise<ClaudeScenario> {
  const h = await createHarness();
  const started: Partial<ClaudeScenario> = { h };
  const cleanup = async () => {
    await started.model?.close();
    await started.api?.close();
    for (const dir of [started.clone, started.home]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    await h.cleanup();
  };
  try {
    started.api = await startApiServer();
    started.model = await startScriptedMessagesApi(script);
    started.s = await makeScenario(h, work, { files: SUM_PROJECT });
    started.clone = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-claude-clone-"));
    gitIn(started.clone, "clone", "--quiet", started.s.repo.dir, ".");
    gitIn(started.clone, "config", "user.email", "agent@example.test");
    gitIn(started.clone, "config", "user.name", "Scripted agent");
    started.home = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-claude-home-"));
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { ...(started as Omit<ClaudeScenario, "cleanup">), cleanup };
}
