// Review (SPEC Part 2, "Verification profiles"): after a green gate an independent review command runs the
// task's criteria itself and reports, per criterion, met · unverified · missing with the command it ran and
// what came back. Pure rules: reading its report, the score, disagreement with the checks, the brief.
import { z } from "zod";
import { PROOF_KIND, PROOF_NAMES, type ProofRow } from "./proof";
import { REVIEW } from "./proof-ids";

const REVIEW_STATUSES = ["met", "unverified", "missing"] as const;
type ReviewStatus = (typeof REVIEW_STATUSES)[number];
// The first try and three retries when a review executed nothing or its report could not be read.
export const REVIEW_TRIES = 4;
const MAX_TEXT = 64 * 1024;

const ZReport = z.object({
  criteria: z.array(
    z.object({
      id: z.string(),
      status: z.enum(REVIEW_STATUSES),
      command: z.string().max(MAX_TEXT).default(""),
      output: z
        .string()
        .max(4 * MAX_TEXT)
        .default(""),
    }),
  ),
  gaps: z.array(z.string().max(MAX_TEXT)).max(200).default([]),
});
export type ReviewReport = z.infer<typeof ZReport>;

// The report file's text → the report, or why it cannot count (the review is then not run).
export function parseReviewReport(
  text: string | null,
  criteria: readonly string[],
): { report: ReviewReport } | { problem: string } {
  if (text === null) return { problem: "it wrote no report ($GATEHOUSE_REPORT_FILE is missing)" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problem: `its report is not JSON: ${(error as Error).message}` };
  }
  const parsed = ZReport.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      problem: `its report does not have the expected shape: ${issue.path.join(".") || "(top)"}: ${issue.message}`,
    };
  }
  const known = new Set(criteria);
  const unknown = parsed.data.criteria.map((c) => c.id).filter((id) => !known.has(id));
  if (unknown.length > 0)
    return {
      problem: `its report names unknown criteria: ${unknown.join(", ")} (the criteria: ${criteria.join(", ")})`,
    };
  const seen = new Set<string>();
  for (const c of parsed.data.criteria) {
    if (seen.has(c.id)) return { problem: `its report names ${c.id} twice` };
    seen.add(c.id);
  }
  return { report: parsed.data };
}

export type CheckSeen = { verdict: string; output: string | null };
type ReviewCriterion = {
  id: string;
  status: ReviewStatus;
  command: string;
  output: string;
  // The check's own verdict and log tail on the same attempt, beside the review's.
  check: CheckSeen | null;
  disagrees: boolean;
};
export type ReviewTry = {
  n: number;
  exitCode: number | null;
  // Commands the review executed (as recorded; see the README), and why the try was discarded.
  executed: string[];
  problem: string | null;
  durationMs: number;
};
type ReviewOutcome = "met" | "short" | "not-run" | "disagreement";
export type ReviewRecord = {
  outcome: ReviewOutcome;
  score: number | null;
  criteria: ReviewCriterion[];
  gaps: string[];
  tries: ReviewTry[];
  message: string;
};

// A criterion the report does not name counts as missing; one marked met without the command it ran or
// what came back counts as unverified. The review disagrees with a check when it marks
// the criterion met and the check did not pass, or missing while the check passed (unverified is not a claim).
export function judgeReview(input: {
  report: ReviewReport;
  criteria: readonly string[];
  checks: ReadonlyMap<string, CheckSeen>;
  tries: ReviewTry[];
}): ReviewRecord {
  const byId = new Map(input.report.criteria.map((c) => [c.id, c]));
  const criteria: ReviewCriterion[] = input.criteria.map((id) => {
    const reported = byId.get(id) ?? { id, status: "missing" as const, command: "", output: "" };
    // "met" with no command or no pasted output is a claim, not a verification: it counts as unverified.
    const isBareClaim = reported.status === "met" && (!reported.command.trim() || !reported.output.trim());
    const c = isBareClaim ? { ...reported, status: "unverified" as const } : reported;
    const check = input.checks.get(id) ?? null;
    const isPassed = check?.verdict === "passed";
    const disagrees = !!check && ((c.status === "met" && !isPassed) || (c.status === "missing" && isPassed));
    return { id, status: c.status, command: c.command, output: c.output, check, disagrees };
  });
  const met = criteria.filter((c) => c.status === "met").length;
  const score = criteria.length === 0 ? 1 : met / criteria.length;
  const disagreeing = criteria.filter((c) => c.disagrees);
  const base = { score, criteria, gaps: input.report.gaps, tries: input.tries };
  if (disagreeing.length > 0)
    return {
      ...base,
      outcome: "disagreement",
      message:
        `the review disagrees with the checks on ` +
        `${disagreeing.map((c) => `${c.id} (review: ${c.status}, check: ${c.check?.verdict})`).join(", ")}`,
    };
  if (met === criteria.length)
    return { ...base, outcome: "met", message: `${met} of ${criteria.length} criteria met (score 1)` };
  const short = criteria.filter((c) => c.status !== "met").map((c) => `${c.id}: ${c.status}`);
  return {
    ...base,
    outcome: "short",
    message: `${met} of ${criteria.length} criteria met (score ${score.toFixed(2)}) — ${short.join(", ")}`,
  };
}

export function notRunReview(tries: ReviewTry[]): ReviewRecord {
  const last = tries.at(-1)?.problem ?? "it did not run";
  return {
    outcome: "not-run",
    score: null,
    criteria: [],
    gaps: [],
    tries,
    message: `the review did not run after ${tries.length} ${tries.length === 1 ? "try" : "tries"}: ${last}`,
  };
}

// Row `_review`: green at score 1; red below (the gaps go into the next brief); error when it never ran or
// disagrees with the checks (the run then ends inconclusive).
export function reviewRow(record: ReviewRecord): ProofRow {
  const verdict = record.outcome === "met" ? "passed" : record.outcome === "short" ? "failed" : "error";
  const lines = [record.message, ""];
  for (const c of record.criteria) {
    lines.push(`${c.id}: ${c.status}${c.command ? ` — ran: ${c.command}` : ""}`);
    if (c.disagrees) lines.push(`  its check: ${c.check?.verdict}`);
  }
  if (record.gaps.length) lines.push("", "Gaps the review found:", ...record.gaps.map((g) => `  - ${g}`));
  const discarded = record.tries.filter((t) => t.problem);
  if (discarded.length) lines.push("", "Discarded tries:", ...discarded.map((t) => `  try ${t.n}: ${t.problem}`));
  return {
    checkId: REVIEW,
    name: PROOF_NAMES[REVIEW],
    kind: PROOF_KIND,
    required: true,
    verdict,
    message: record.message,
    details: `${lines.join("\n")}\n`,
  };
}

export type ReviewBriefInput = {
  task: { key: string; title: string; description: string };
  criteria: readonly { id: string; name: string; command: string; cwd?: string }[];
  diff: string;
  isDiffCut: boolean;
};

function fenceFor(text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  return "`".repeat(longest + 1);
}

export function composeReviewBrief(input: ReviewBriefInput): string {
  const lines = [
    `# Review of ${input.task.key}: ${input.task.title}`,
    "",
    "You are an independent reviewer. Check each acceptance criterion yourself: run its command (or one that",
    "shows it) in this directory and paste what came back. Do not change files. A review that runs nothing",
    "is thrown away.",
    "",
    "## The task",
    "",
    input.task.description.trim() || "(no description)",
    "",
    "## Acceptance criteria",
    "",
  ];
  for (const c of input.criteria) {
    const fence = fenceFor(c.command);
    lines.push(`- ${c.id} — ${c.name}${c.cwd ? ` (in ${c.cwd})` : ""}`, `  ${fence}bash`);
    lines.push(...c.command.split("\n").map((l) => `  ${l}`), `  ${fence}`);
  }
  lines.push(
    "",
    "## The report",
    "",
    "Write JSON to the file named by $GATEHOUSE_REPORT_FILE:",
    "",
    "```json",
    `{"criteria": [{"id": "<criterion id>", "status": "met" | "unverified" | "missing", "command": ` +
      `"<what you ran>", "output": "<what it printed>"}], "gaps": ["<what the change misses>"]}`,
    "```",
    "",
    "met: you ran it and it shows the criterion holds; missing: it does not hold; unverified: you could not tell.",
    "",
    "## The diff",
    "",
  );
  const fence = fenceFor(input.diff);
  lines.push(`${fence}diff`, input.diff.replace(/\n$/, ""), fence);
  if (input.isDiffCut) lines.push("", "(the diff was cut; read the files in this directory for the rest)");
  return `${lines.join("\n")}\n`;
}
