// The red team (SPEC Part 2, "Verification profiles", profile full): after the review, a command tries to
// make the change fail against the task and writes tests ("probes") under tests/redteam/. Pure rules: which
// files it wrote count as probes, the brief, the `_redteam` row.
import { globMatcher } from "./globs";
import { PROOF_KIND, PROOF_NAMES, type FileChange, type ProofRow } from "./proof";
import { RED_TEAM } from "./proof-ids";

const PROBE_DIR = "tests/redteam/";

type Refused = { path: string; reason: string };
type Probe = {
  path: string;
  verdict: "passed" | "failed" | "error" | "skipped";
  exitCode: number | null;
  output: string;
};

export type RedTeamRecord = {
  // skipped: a stop cut it short (no fault of the red team's or the change's).
  verdict: "passed" | "failed" | "error" | "skipped";
  message: string;
  probes: Probe[];
  refused: Refused[];
  // The commit that added the passing probes to the task branch, when there was one.
  committed: string | null;
  // What the red team wrote to $GATEHOUSE_REPORT_FILE (cut at 64 KB), and its exit code.
  report: string | null;
  exitCode: number | null;
};

// The red team's changes → the probes (new files under tests/redteam/ matching testPatterns) and the rest,
// refused with the reason. `existing`: files of the task branch (a probe never overwrites one).
export function sortProbes(
  changes: readonly FileChange[],
  testPatterns: readonly string[],
  existing: ReadonlySet<string> = new Set(),
): { probes: string[]; refused: Refused[] } {
  const isTest = globMatcher(testPatterns);
  const probes: string[] = [];
  const refused: Refused[] = [];
  for (const c of changes) {
    if (c.status === "D") refused.push({ path: c.path, reason: "deletes a file of the change" });
    else if (c.status === "M" || existing.has(c.path))
      refused.push({ path: c.path, reason: "would overwrite an existing file" });
    else if (!c.path.startsWith(PROBE_DIR)) refused.push({ path: c.path, reason: `outside ${PROBE_DIR}` });
    else if (!isTest(c.path)) refused.push({ path: c.path, reason: "not a test file (testPatterns)" });
    else probes.push(c.path);
  }
  return { probes, refused };
}

export function composeRedTeamBrief(input: {
  task: { key: string; title: string; description: string };
  changed: readonly string[];
  checks: readonly { id: string; name: string; command: string }[];
}): string {
  const lines = [
    `# Red team: ${input.task.key} — ${input.task.title}`,
    "",
    "Objective: make this change fail against its task. Write tests that should pass if the task is really",
    `done and that you expect to fail: new files under ${PROBE_DIR} only (one probe a file; files elsewhere, or`,
    "over an existing file, are refused). Do not change anything else. Gatehouse runs each probe; a failing",
    "probe goes back to the agent, passing probes are kept in the repository. Write what you tried to",
    "$GATEHOUSE_REPORT_FILE.",
    "",
    "## The task",
    "",
    input.task.description.trim() || "(no description)",
    "",
    "## What the change touched",
    "",
    ...(input.changed.length ? input.changed.map((f) => `- ${f}`) : ["(nothing)"]),
    "",
    "## What the checks already cover",
    "",
    ...input.checks.map((c) => `- ${c.id} — ${c.name}: ${c.command.split("\n")[0]}`),
    "",
  ];
  return lines.join("\n");
}

export function judgeRedTeam(input: Omit<RedTeamRecord, "verdict" | "message" | "committed">): RedTeamRecord {
  const failing = input.probes.filter((p) => p.verdict !== "passed");
  const base = { ...input, committed: null };
  if (failing.length > 0)
    return {
      ...base,
      verdict: "failed",
      message:
        `${failing.length} of ${input.probes.length} red-team ` +
        `${input.probes.length === 1 ? "probe" : "probes"} failed: ` +
        `${failing.map((p) => p.path).join(", ")}`,
    };
  return {
    ...base,
    verdict: "passed",
    message:
      input.probes.length === 0
        ? "the red team wrote no probe"
        : `${input.probes.length} red-team ${input.probes.length === 1 ? "probe" : "probes"} passed`,
  };
}

export function redTeamRow(record: RedTeamRecord): ProofRow {
  const lines = [record.message];
  for (const p of record.probes) {
    lines.push("", `${p.path}: ${p.verdict}${p.exitCode === null ? "" : ` (exit code ${p.exitCode})`}`);
    if (p.verdict !== "passed" && p.output.trim()) lines.push(p.output.replace(/\n$/, ""));
  }
  if (record.refused.length)
    lines.push("", "Refused (not probes):", ...record.refused.map((r) => `  ${r.path}: ${r.reason}`));
  if (record.committed) lines.push("", `Committed on the task branch as ${record.committed}.`);
  if (record.verdict === "failed")
    lines.push("", "What to do: make the change pass these probes (they test the task), without editing them.");
  return {
    checkId: RED_TEAM,
    name: PROOF_NAMES[RED_TEAM],
    kind: PROOF_KIND,
    required: true,
    verdict: record.verdict,
    message: record.message,
    details: `${lines.join("\n")}\n`,
  };
}
