// The brief of one stage of a lane (issue 26), in the seed's shape: the stage and its output file, the
// check that must pass (held-out checks by name only), feedback on this stage (the last failure's checks,
// exit codes and tails), the stage's skill, and the rules every stage brief ends with.
import type { BriefCheck, BriefFailure } from "./brief";

export type StageBriefInput = {
  task: { key: string; title: string; description: string; branch: string };
  lane: { id: string; name: string };
  stage: { id: string; name: string; output?: string; skill?: string };
  // 1-based place of the stage in its lane, and the lane's length.
  position: { n: number; of: number };
  attemptN: number;
  maxAttempts: number;
  checks: readonly BriefCheck[];
  // Held-out checks: their names only (the agent never sees what they run).
  heldOutNames: readonly string[];
  failures: readonly BriefFailure[];
  previousAttemptN: number | null;
};

function fenceFor(text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  return "`".repeat(longest + 1);
}

export function composeStageBrief(input: StageBriefInput): string {
  const { task, stage } = input;
  const output = stage.output ?? null;
  const lines = [
    `# Stage brief: ${task.key} ${stage.id}`,
    "",
    `Stage ${input.position.n} of ${input.position.of} of lane ${input.lane.name}: **${stage.name}** (${stage.id}) · ` +
      `branch ${task.branch} · attempt ${input.attemptN} of ${input.maxAttempts}`,
    `Output: ${output ? `\`${output}\`` : "the changes in the checkout (no one output file)"}`,
    "",
    "## The task",
    "",
    `${task.title}`,
    "",
    task.description.trim() || "(no description)",
    "",
    "## The check that must pass",
    "",
  ];
  for (const check of input.checks) {
    lines.push(`- ${check.id} — ${check.name}${check.required ? " (required)" : " (reports only)"}`);
    if (check.isBuiltin) lines.push(`  built-in, run by Gatehouse: ${check.command}`);
    else {
      const fence = fenceFor(check.command);
      lines.push(`  ${fence}bash`, ...check.command.split("\n").map((l) => `  ${l}`), `  ${fence}`);
    }
  }
  for (const name of input.heldOutNames) lines.push(`- ${name} (held out: you see its name and verdict only)`);
  if (input.failures.length > 0) {
    lines.push("", `## Feedback on this stage (attempt ${input.previousAttemptN ?? input.attemptN - 1})`);
    for (const f of input.failures) {
      lines.push(
        "",
        `### ${f.checkId} — ${f.name}: ${f.verdict}${f.exitCode === null ? "" : ` (exit code ${f.exitCode})`}`,
      );
      if (f.message) lines.push("", f.message);
      const tail = (f.logTail ?? "").replace(/\n$/, "");
      if (tail.trim()) {
        const fence = fenceFor(tail);
        lines.push("", "Last lines of its log:", "", `${fence}text`, tail, fence);
      }
    }
  }
  if (stage.skill?.trim()) lines.push("", "## Skill", "", stage.skill.trim());
  lines.push(
    "",
    "## Rules",
    "",
    `- Do only the ${stage.id} stage of ${task.key}.`,
    output ? `- Write the output to ${output}.` : "- Leave your work in the checkout.",
    "- Do not edit .gatehouse/.",
    output ? "- Stop when the output is written." : "- Stop when the stage's check would pass.",
  );
  return `${lines.join("\n")}\n`;
}
