// The agent CLIs' own results, read from the end of an agent's log.
import { describe, expect, it } from "vitest";
import { parseAgentResult } from "./agent-result";

const claudeJson = JSON.stringify({
  type: "result",
  subtype: "success",
  is_error: false,
  num_turns: 4,
  result: "Fixed sum() and committed.",
  total_cost_usd: 0.0123,
  usage: { input_tokens: 240, cache_creation_input_tokens: 10, cache_read_input_tokens: 5, output_tokens: 60 },
});

describe("parseAgentResult", () => {
  it.each([
    [
      "Claude Code --output-format json, after other output",
      `some tool output\n${claudeJson}\n`,
      {
        cli: "claude-code",
        lastMessage: "Fixed sum() and committed.",
        turns: 4,
        inputTokens: 255,
        outputTokens: 60,
        costUsd: 0.0123,
      },
    ],
    [
      "Claude Code stream-json: the final result line wins",
      `${JSON.stringify({ type: "system", subtype: "init" })}\n` +
        `${JSON.stringify({ type: "assistant", message: {} })}\n${claudeJson}`,
      { cli: "claude-code", turns: 4 },
    ],
    [
      "Codex exec --json: turns' usage added up, the last agent message",
      [
        { type: "thread.started", thread_id: "t" },
        { type: "item.completed", item: { type: "agent_message", text: "Looking." } },
        { type: "turn.completed", usage: { input_tokens: 100, cached_input_tokens: 20, output_tokens: 7 } },
        { type: "item.completed", item: { type: "agent_message", text: "Done: tests pass." } },
        { type: "turn.completed", usage: { input_tokens: 50, output_tokens: 3 } },
      ]
        .map((e) => JSON.stringify(e))
        .join("\n"),
      { cli: "codex", lastMessage: "Done: tests pass.", turns: 2, inputTokens: 150, outputTokens: 10, costUsd: null },
    ],
    [
      "Gemini CLI --output-format json (pretty-printed)",
      `Loaded cached credentials.\n` +
        `${JSON.stringify(
          {
            response: "All green.",
            stats: { models: { "gemini-2.5-pro": { tokens: { prompt: 900, candidates: 40 } } } },
          },
          null,
          2,
        )}\n`,
      { cli: "gemini", lastMessage: "All green.", turns: null, inputTokens: 900, outputTokens: 40, costUsd: null },
    ],
  ])("%s", (_name, log, expected) => {
    expect(parseAgentResult(log)).toMatchObject(expected);
  });

  it.each([
    ["plain text", "fixed it\nall done\n"],
    ["JSON that is not a result", '{"type":"assistant"}\n{"hello":1}\n'],
    ["a broken line", '{"type":"result","num_turns": 3'],
  ])("%s: nothing recognised", (_name, log) => {
    expect(parseAgentResult(log)).toBeNull();
  });

  it("drops counts that are negative or not numbers, and an empty message", () => {
    expect(
      parseAgentResult(JSON.stringify({ type: "result", num_turns: -1, total_cost_usd: "1", result: "" })),
    ).toEqual({
      cli: "claude-code",
      lastMessage: null,
      turns: null,
      inputTokens: null,
      outputTokens: null,
      costUsd: null,
    });
  });
});
