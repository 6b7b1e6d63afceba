// The runbook's fenced blocks (SPEC Part 2, Runbook import): what the first fence under a `###` heading
// makes of a check. Its info string is a language and optional words: `executor=platform|agent` (any
// case) says who runs it; other words are ignored, a misspelt executor is not. Languages: a shell
// (bash, sh, …) is a command, `agent` an instruction the agent carries out and reports, `yaml` a
// built-in (`use:` and `with:`). Frontmatter `code_checks.timeout_sec` is the file's default timeout.
import YAML from "yaml";
import { BUILTIN_NAMES } from "./builtins";

const SHELL_FENCES = new Set(["bash", "sh", "shell", "zsh", "console", "shell-session"]);
const EXECUTORS = new Set(["platform", "agent"]);

export type FenceReading = { fields: Record<string, unknown>; problems: string[] };

// Edit distance, for "exector=agent" (a misspelt key is a mistake, not an ignored word).
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j];
      row[j] = next;
    }
  }
  return row[b.length];
}

function readInfo(info: string): { lang: string; executor: string | null; problems: string[] } {
  const words = info.trim().split(/\s+/).filter(Boolean);
  const isExecutorWord = (w: string) =>
    /^executor\b/i.test(w) || (/^[a-z]+[=:]/i.test(w) && distance(w.split(/[=:]/)[0].toLowerCase(), "executor") <= 2);
  const lang = words[0] && !isExecutorWord(words[0]) ? words[0].toLowerCase() : "";
  const problems: string[] = [];
  let executor: string | null = null;
  for (const word of lang ? words.slice(1) : words) {
    if (!isExecutorWord(word)) continue;
    const set = /^executor=(.*)$/i.exec(word);
    if (!set) {
      problems.push(`“${word}” on the fence: write executor=agent or executor=platform`);
      continue;
    }
    const value = set[1].toLowerCase();
    if (!EXECUTORS.has(value))
      problems.push(`executor=${set[1]}: not an executor (write executor=platform or executor=agent)`);
    else if (executor !== null && executor !== value) problems.push("the fence names two executors: keep one");
    else executor = value;
  }
  return { lang, executor, problems };
}

export function readFence(info: string, code: readonly string[]): FenceReading {
  const { lang, executor, problems } = readInfo(info);
  const text = code.join("\n");
  const fields: Record<string, unknown> = {};
  if (executor) fields.executor = executor;
  if (SHELL_FENCES.has(lang)) {
    fields.run = text;
    return { fields, problems };
  }
  if (lang === "agent") {
    if (executor === "platform")
      problems.push("an agent fence is run by the agent: executor=platform contradicts it (use a bash fence)");
    fields.executor = "agent";
    fields.run = text;
    return { fields, problems };
  }
  if (lang === "yaml" || lang === "yml") return { fields: { ...fields, ...readBuiltin(text, problems) }, problems };
  if (!lang && executor)
    problems.push(
      `a fence with executor=${executor} and no language: mark it bash (a command) or agent (an ` +
        `instruction), e.g. \`\`\`bash executor=${executor}`,
    );
  else
    problems.push(
      `the fenced block is marked “${lang || "nothing"}”: mark it bash or sh for a command, agent ` +
        `for an instruction the agent carries out, or yaml with use: for a built-in`,
    );
  fields.run = text;
  return { fields, problems };
}

function readBuiltin(text: string, problems: string[]): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (error) {
    problems.push(`the yaml block is not valid YAML: ${(error as Error).message.split("\n")[0]}`);
    return { run: "" };
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc) || !("use" in doc)) {
    problems.push(
      `a yaml block names a built-in with use: (one of ${BUILTIN_NAMES.join(", ")}) and its parameters under with:`,
    );
    return { run: "" };
  }
  const { use, with: params, ...rest } = doc as Record<string, unknown>;
  for (const key of Object.keys(rest))
    problems.push(`yaml block: unknown field ${key} (a built-in has use: and with:)`);
  return { use, with: params ?? {} };
}

// `---` YAML frontmatter at the top: `code_checks: { timeout_sec: 300 }` is the default timeout of the
// checks that set none. Returns the lines after it.
export function readFrontmatter(lines: readonly string[]): {
  defaultTimeoutSec: number | null;
  problems: string[];
  rest: string[];
} {
  if (lines[0]?.trim() !== "---") return { defaultTimeoutSec: null, problems: [], rest: [...lines] };
  const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
  if (end < 0) return { defaultTimeoutSec: null, problems: ["the frontmatter (---) is not closed"], rest: [...lines] };
  const rest = lines.slice(end + 1);
  let doc: unknown;
  try {
    doc = YAML.parse(lines.slice(1, end).join("\n"));
  } catch (error) {
    return {
      defaultTimeoutSec: null,
      problems: [`frontmatter: not valid YAML: ${(error as Error).message.split("\n")[0]}`],
      rest,
    };
  }
  const value = (doc as { code_checks?: { timeout_sec?: unknown } } | null)?.code_checks?.timeout_sec;
  if (value === undefined) return { defaultTimeoutSec: null, problems: [], rest };
  const sec = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof sec !== "number" || !Number.isInteger(sec) || sec < 1 || sec > 3600)
    return {
      defaultTimeoutSec: null,
      problems: [
        `frontmatter code_checks.timeout_sec: must be a whole number of seconds from 1 to 3600 (got ` +
          `${JSON.stringify(value)})`,
      ],
      rest,
    };
  return { defaultTimeoutSec: sec, problems: [], rest };
}
