// What an agent is told about a gate (the stop hook's reason, run_gate's answer): the verdict, and for each
// blocking check its name, verdict, exit code, message and the end of its log. A held-out check is its
// name and verdict only, whoever's token asked (a lead's token sees more through the API; the agent never).
import { stripAnsi } from "../gates/strip-ansi";
import type { RunJson } from "./api-client";
import { passingRulesOf } from "../gates/passing-rules";

type AttemptJson = RunJson["attempts"][number];
type RowJson = AttemptJson["checks"][number];

const BLOCKING = new Set(["failed", "timeout", "error", "hollow"]);
const TAIL_LINES = 40;

// Required checks that failed, and the proof rows that failed whether or not they are required (they say
// what the change lacks, which is worth telling even when it does not decide the gate).
function failingRows(attempt: AttemptJson): AttemptJson["checks"] {
  return attempt.checks.filter((c) => BLOCKING.has(c.verdict) && (c.required || c.checkId.startsWith("_")));
}

function tailOf(text: string | null, lines = TAIL_LINES): string {
  if (!text) return "";
  const all = stripAnsi(text).replace(/\s+$/, "").split("\n");
  return all.slice(-lines).join("\n");
}

function describeRow(run: RunJson, c: RowJson): string[] {
  if (c.hidden) return [`- held-out check "${c.name}": ${c.verdict} (held out: what it runs and prints is not shown)`];
  const check = run.checks.find((d) => d.id === c.checkId);
  const rules = check ? passingRulesOf(check) : [];
  const exit = c.exitCode === null ? "" : `, exit code ${c.exitCode}`;
  const out = [
    `- ${c.checkId} "${c.name}": ${c.verdict}${exit}${rules.length ? ` (${rules.join("; ")})` : ""}` +
      `${c.message ? ` — ${c.message}` : ""}`,
  ];
  if (check?.command) out.push(`  command: ${check.command}`);
  const tail = tailOf(c.logTail);
  if (tail) out.push("  end of its log:", ...tail.split("\n").map((line) => `    ${line}`));
  return out;
}

export function describeFailures(run: RunJson, attempt: AttemptJson): string {
  const out: string[] = [];
  const failing = failingRows(attempt);
  const blocking = failing.filter((c) => c.required);
  const optional = failing.filter((c) => !c.required);
  const commit = attempt.commit ? ` at commit ${attempt.commit.slice(0, 12)}` : "";
  out.push(
    `Gatehouse: the gate is ${attempt.gate} on attempt ${attempt.n} of ${run.maxAttempts}` +
      `${commit} (run #${run.number}).`,
  );
  if (blocking.length > 0) out.push("", "Failing checks:");
  for (const c of blocking) out.push(...describeRow(run, c));
  // Listed apart, so the agent can tell what holds the gate back from what is only reported.
  if (optional.length > 0) out.push("", "Failing, but not required (these do not decide the gate):");
  for (const c of optional) out.push(...describeRow(run, c));
  return out.join("\n");
}
