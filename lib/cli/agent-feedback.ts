// What an agent is told about a gate (the stop hook's reason, run_gate's answer): the verdict, and for each
// blocking check its name, verdict, exit code, message and the end of its log. A held-out check is its
// name and verdict only, whoever's token asked (a lead's token sees more through the API; the agent never).
import { stripAnsi } from "../gates/strip-ansi";
import type { RunJson } from "./api-client";

type AttemptJson = RunJson["attempts"][number];

const BLOCKING = new Set(["failed", "timeout", "error", "hollow"]);
const TAIL_LINES = 40;

function blockingChecks(attempt: AttemptJson): AttemptJson["checks"] {
  return attempt.checks.filter((c) => BLOCKING.has(c.verdict) && (c.required || c.checkId.startsWith("_")));
}

function tailOf(text: string | null, lines = TAIL_LINES): string {
  if (!text) return "";
  const all = stripAnsi(text).replace(/\s+$/, "").split("\n");
  return all.slice(-lines).join("\n");
}

export function describeFailures(run: RunJson, attempt: AttemptJson): string {
  const out: string[] = [];
  const failing = blockingChecks(attempt);
  const commit = attempt.commit ? ` at commit ${attempt.commit.slice(0, 12)}` : "";
  out.push(
    `Gatehouse: the gate is ${attempt.gate} on attempt ${attempt.n} of ${run.maxAttempts}` +
      `${commit} (run #${run.number}).`,
  );
  if (failing.length > 0) out.push("", "Failing checks:");
  for (const c of failing) {
    if (c.hidden) {
      out.push(`- held-out check "${c.name}": ${c.verdict} (held out: what it runs and prints is not shown)`);
      continue;
    }
    const exit = c.exitCode === null ? "" : `, exit code ${c.exitCode}`;
    out.push(`- ${c.checkId} "${c.name}": ${c.verdict}${exit}${c.message ? ` — ${c.message}` : ""}`);
    const command = run.checks.find((d) => d.id === c.checkId)?.command;
    if (command) out.push(`  command: ${command}`);
    const tail = tailOf(c.logTail);
    if (tail) out.push("  end of its log:", ...tail.split("\n").map((line) => `    ${line}`));
  }
  return out.join("\n");
}
