// What an agent CLI says about its own session when it prints a machine-readable result: Claude Code's
// `--output-format json` object (or the final `{"type":"result"}` line of `stream-json`), Codex's
// `exec --json` events (`item.completed` agent messages, `turn.completed` usage), Gemini CLI's
// `--output-format json` object. Read from the end of the agent's log; null when none is recognised.
export type AgentResult = {
  cli: "claude-code" | "codex" | "gemini";
  lastMessage: string | null;
  turns: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
};

type Obj = Record<string, unknown>;
const MESSAGE_MAX = 4000;

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim().slice(0, MESSAGE_MAX) : null);
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function sum(values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function fromClaude(o: Obj): AgentResult {
  const usage = isObj(o.usage) ? o.usage : {};
  return {
    cli: "claude-code",
    lastMessage: str(o.result),
    turns: num(o.num_turns),
    // Cache reads and writes are input tokens too (billed differently, counted here as input).
    inputTokens: sum([
      num(usage.input_tokens),
      num(usage.cache_creation_input_tokens),
      num(usage.cache_read_input_tokens),
    ]),
    outputTokens: num(usage.output_tokens),
    costUsd: num(o.total_cost_usd),
  };
}

function fromGemini(o: Obj): AgentResult {
  const models = isObj(o.stats) && isObj(o.stats.models) ? Object.values(o.stats.models) : [];
  const tokens = models.map((m) => (isObj(m) && isObj(m.tokens) ? m.tokens : {}));
  return {
    cli: "gemini",
    lastMessage: str(o.response),
    turns: null,
    inputTokens: sum(tokens.map((t) => num(t.prompt))),
    outputTokens: sum(tokens.map((t) => num(t.candidates))),
    costUsd: null,
  };
}

// Codex prints one event per line; the session is the turns' usage and the last agent message.
function fromCodex(events: Obj[]): AgentResult | null {
  const turns = events.filter((e) => e.type === "turn.completed");
  if (turns.length === 0) return null;
  const usage = turns.map((t) => (isObj(t.usage) ? t.usage : {}));
  const messages = events
    .filter((e) => e.type === "item.completed" && isObj(e.item) && e.item.type === "agent_message")
    .map((e) => str((e.item as Obj).text));
  return {
    cli: "codex",
    lastMessage: messages.filter(Boolean).at(-1) ?? null,
    turns: turns.length,
    inputTokens: sum(usage.map((u) => num(u.input_tokens))),
    outputTokens: sum(usage.map((u) => num(u.output_tokens))),
    costUsd: null,
  };
}

export function parseAgentResult(log: string): AgentResult | null {
  const lines = log.split("\n").map((l) => l.trim());
  const objects: Obj[] = [];
  for (const line of lines) {
    if (!line.startsWith("{")) continue;
    const value = parseJson(line);
    if (isObj(value)) objects.push(value);
  }
  const claude = objects.findLast((o) => o.type === "result" && ("num_turns" in o || "result" in o));
  if (claude) return fromClaude(claude);
  const codex = fromCodex(objects);
  if (codex) return codex;
  // A pretty-printed object (Gemini prints its JSON over several lines): the last `{` at a line's start.
  const start = log.lastIndexOf("\n{") + 1;
  const whole = parseJson(log.slice(start).trim());
  if (isObj(whole) && "response" in whole) return fromGemini(whole);
  const first = parseJson(log.trim());
  if (isObj(first) && "response" in first) return fromGemini(first);
  return null;
}
