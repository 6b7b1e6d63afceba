// Test support: a scripted stand-in for Anthropic's Messages API, so the real Claude Code CLI runs offline
// (ANTHROPIC_BASE_URL=http://127.0.0.1:<port>). Each request with tools (the agent's turns) is answered by
// the test's script — a tool call (the CLI really runs it and sends back a tool_result) or a final text —
// streamed as the API streams: message_start, content_block_start/delta/stop (text_delta or
// input_json_delta), message_delta with the stop reason and usage, message_stop. Requests without tools
// (titles and other side requests) get a short text. Every request is kept for the test to assert on.
import http from "node:http";
import type { AddressInfo } from "node:net";

type Block = { type: string; text?: string; content?: unknown; name?: string; input?: unknown; tool_use_id?: string };
export type MessagesRequest = {
  model?: string;
  system?: unknown;
  messages: { role: "user" | "assistant"; content: string | Block[] }[];
  tools?: { name: string }[];
  stream?: boolean;
};
type ScriptedTurn = { text: string } | { tool: string; input: Record<string, unknown>; text?: string };
export type Script = (request: MessagesRequest, turn: number) => ScriptedTurn;

// Token counts per answer, fixed so a test can assert on what the CLI adds up.
export const SCRIPTED_USAGE = { input_tokens: 120, output_tokens: 30 };

// All the text a request carries (system prompt, every message, tool results), to search in.
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(textOf).join("\n");
  if (value && typeof value === "object")
    return Object.values(value as Record<string, unknown>)
      .map(textOf)
      .join("\n");
  return "";
}

// What the agent was told since the model last spoke: the text of the user messages after the last
// assistant message (a tool result, a prompt, a stop hook's reason, and any reminders the CLI adds).
export function lastUserText(request: MessagesRequest): string {
  const lastAssistant = request.messages.map((m) => m.role).lastIndexOf("assistant");
  return request.messages
    .slice(lastAssistant + 1)
    .map((m) => textOf(m.content))
    .join("\n");
}

function sse(events: [string, unknown][]): string {
  return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join("");
}

let seq = 0;

function answer(turn: ScriptedTurn, model: string): { events: [string, unknown][]; message: unknown } {
  const id = `msg_scripted_${++seq}`;
  const blocks: { start: unknown; delta: unknown; final: unknown }[] = [];
  if (turn.text)
    blocks.push({
      start: { type: "text", text: "" },
      delta: { type: "text_delta", text: turn.text },
      final: { type: "text", text: turn.text },
    });
  if ("tool" in turn) {
    const toolId = `toolu_scripted_${seq}`;
    blocks.push({
      start: { type: "tool_use", id: toolId, name: turn.tool, input: {} },
      delta: { type: "input_json_delta", partial_json: JSON.stringify(turn.input) },
      final: { type: "tool_use", id: toolId, name: turn.tool, input: turn.input },
    });
  }
  const stopReason = "tool" in turn ? "tool_use" : "end_turn";
  const events: [string, unknown][] = [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: SCRIPTED_USAGE.input_tokens, output_tokens: 1 },
        },
      },
    ],
  ];
  blocks.forEach((b, index) => {
    events.push(["content_block_start", { type: "content_block_start", index, content_block: b.start }]);
    events.push(["content_block_delta", { type: "content_block_delta", index, delta: b.delta }]);
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push([
    "message_delta",
    {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: SCRIPTED_USAGE.output_tokens },
    },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  const message = {
    id,
    type: "message",
    role: "assistant",
    model,
    content: blocks.map((b) => b.final),
    stop_reason: stopReason,
    stop_sequence: null,
    usage: SCRIPTED_USAGE,
  };
  return { events, message };
}

export type ScriptedApi = {
  url: string;
  // The agent's requests (those with tools), in order.
  requests: MessagesRequest[];
  close: () => Promise<void>;
};

export async function startScriptedMessagesApi(script: Script): Promise<ScriptedApi> {
  const requests: MessagesRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "POST" || !url.pathname.startsWith("/v1/messages")) {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end('{"type":"error","error":{"type":"not_found_error","message":"not scripted"}}');
      return;
    }
    let body: MessagesRequest;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as MessagesRequest;
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (url.pathname.endsWith("/count_tokens")) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ input_tokens: 100 }));
      return;
    }
    const model = body.model ?? "claude-scripted";
    let turn: ScriptedTurn;
    if (body.tools?.length) {
      requests.push(body);
      try {
        turn = script(body, requests.length);
      } catch (error) {
        res
          .writeHead(500, { "content-type": "application/json" })
          .end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(error) } }));
        return;
      }
    } else turn = { text: "Scripted session" };
    const { events, message } = answer(turn, model);
    if (body.stream) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(sse(events));
    } else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(message));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The environment the real Claude Code CLI needs to talk to the scripted API and nothing else.
export function claudeEnv(api: ScriptedApi, home: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "sk-ant-scripted-test-key",
    DISABLE_TELEMETRY: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    HOME: home,
  };
}
