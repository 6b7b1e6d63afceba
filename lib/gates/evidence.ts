// Evidence (SPEC Part 2, "Verification profiles"): for each acceptance criterion (a check the task added) the
// agent writes, in `.gatehouse/evidence.md`, a `## <check id>` heading, the command it ran in a fence and what
// that command printed in the next fence. Pure rules: the runner reads the file; these parse and judge it.
import { EVIDENCE } from "./proof-ids";
import { PROOF_KIND, PROOF_NAMES, type ProofRow } from "./proof";

export const EVIDENCE_FILE = ".gatehouse/evidence.md";

export type EvidenceEntry = { command: string | null; output: string | null };
export type EvidenceProblem = { id: string; problem: "no heading" | "no command" | "empty output" };

const HEADING = /^##\s+(.+?)\s*#*\s*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

// Every `## heading` section with its first two fenced blocks (command, then output). A later duplicate
// heading does not replace the first.
export function parseEvidence(text: string): Map<string, EvidenceEntry> {
  const sections = new Map<string, EvidenceEntry>();
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let current: { id: string; blocks: string[] } | null = null;
  const close = () => {
    if (current && !sections.has(current.id))
      sections.set(current.id, { command: current.blocks[0] ?? null, output: current.blocks[1] ?? null });
  };
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_OPEN.exec(lines[i]);
    if (open) {
      const marker = open[1];
      const body: string[] = [];
      let j = i + 1;
      const closing = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
      while (j < lines.length && !closing.test(lines[j])) body.push(lines[j++]);
      current?.blocks.push(body.join("\n"));
      i = j;
      continue;
    }
    const heading = HEADING.exec(lines[i]);
    if (heading && !lines[i].startsWith("###")) {
      close();
      current = { id: heading[1].replace(/^`(.*)`$/, "$1").trim(), blocks: [] };
    }
  }
  close();
  return sections;
}

// What is wrong with the evidence for each criterion (empty: every criterion has its evidence).
export function findEvidenceProblems(text: string, criteria: readonly string[]): EvidenceProblem[] {
  const sections = parseEvidence(text);
  const problems: EvidenceProblem[] = [];
  for (const id of criteria) {
    const entry = sections.get(id);
    if (!entry) problems.push({ id, problem: "no heading" });
    else if (!entry.command?.trim()) problems.push({ id, problem: "no command" });
    else if (!entry.output?.trim()) problems.push({ id, problem: "empty output" });
  }
  return problems;
}

const HOW =
  "For each criterion write a `## <check id>` heading, then the command you ran in a ``` fence, " +
  "then what it printed in the next ``` fence.";

// Row `_evidence`: null when the task adds no criterion (there is nothing to show working).
export function evidenceRow(input: { criteria: readonly string[]; text: string | null }): ProofRow | null {
  if (input.criteria.length === 0) return null;
  const base = { checkId: EVIDENCE, name: PROOF_NAMES[EVIDENCE], kind: PROOF_KIND, required: true } as const;
  if (input.text === null)
    return {
      ...base,
      verdict: "failed",
      message: `${EVIDENCE_FILE} is missing: no evidence for ${input.criteria.join(", ")}`,
      details:
        `${EVIDENCE_FILE} was not found in the checkout.\nCriteria without evidence: ` +
        `${input.criteria.join(", ")}\n${HOW}\n`,
    };
  const problems = findEvidenceProblems(input.text, input.criteria);
  if (problems.length === 0)
    return {
      ...base,
      verdict: "passed",
      message: `Evidence for every criterion: ${input.criteria.join(", ")}`,
      details: `${EVIDENCE_FILE} shows a command and its output for ${input.criteria.join(", ")}.\n`,
    };
  const named = problems.map((p) => `${p.id}: ${p.problem}`);
  return {
    ...base,
    verdict: "failed",
    message: `Evidence missing — ${named.join("; ")}`,
    details: `${EVIDENCE_FILE} lacks evidence:\n${named.map((n) => `  ${n}`).join("\n")}\n${HOW}\n`,
  };
}

// The acceptance criteria of a run: the checks its task added (not the Work's defaults, nor overrides of them).
export function criteriaOf(checks: readonly { id: string; source: string; hidden?: boolean }[]): string[] {
  // A held-out check is never a criterion: the agent must not learn it exists.
  return checks.filter((c) => c.source === "added" && !c.hidden).map((c) => c.id);
}
