// The agent's report of the checks it runs (executor: agent), read from $GATEHOUSE_REPORT_FILE after the
// agent step: {"checks": [{"id": "...", "status": "pass" | "fail", "message": "..."}]}. Gatehouse never runs
// those checks; the report is their verdict. A report that cannot be read makes every agent check `error`.
import { z } from "zod";
import type { Verdict } from "./gate";

// Read at most this much of the file (a bigger one is refused before it is parsed), and at most this many entries.
export const REPORT_MAX_BYTES = 1024 * 1024;
export const REPORT_MAX_ENTRIES = 100;
const MESSAGE_MAX = 2000;

export type ReportEntry = { id: string; status: "pass" | "fail"; message?: string };
export type ParsedReport = { entries: ReportEntry[] } | { problem: string };

const ZEntry = z.strictObject(
  {
    id: z.string({ error: "must be text (a check id)" }).min(1, "must not be empty"),
    status: z.enum(["pass", "fail"], { error: 'must be "pass" or "fail"' }),
    message: z.string({ error: "must be text" }).max(MESSAGE_MAX, `at most ${MESSAGE_MAX} characters`).optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown field: ${issue.keys.join(", ")}` : "must be an object",
  },
);
// Also what an attempt at a pushed commit carries as the agent's report (lib/gates/pushed-attempt.ts).
export const ZReport = z.strictObject(
  {
    checks: z
      .array(ZEntry, { error: "must be a list" })
      .max(REPORT_MAX_ENTRIES, `at most ${REPORT_MAX_ENTRIES} entries`),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown field: ${issue.keys.join(", ")}`
        : 'must be an object {"checks": [...]}',
  },
);

// Parses the report's text. Never throws; the problem says what is wrong, without quoting the file (it may
// be anything the agent pointed it at).
export function parseAgentReport(text: string): ParsedReport {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message);
    return { problem: `not JSON${at ? ` (at character ${at[1]})` : ""}` };
  }
  // Count before validating every entry: 10,000 entries are refused at once.
  const list = (doc as { checks?: unknown } | null)?.checks;
  if (Array.isArray(list) && list.length > REPORT_MAX_ENTRIES)
    return { problem: `${list.length} entries, at most ${REPORT_MAX_ENTRIES}` };
  const parsed = ZReport.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? issue.path.join(".") : "the report";
    return { problem: `${where}: ${issue.message}` };
  }
  const seen = new Set<string>();
  for (const entry of parsed.data.checks) {
    if (seen.has(entry.id)) return { problem: `"${clip(entry.id)}" is reported twice` };
    seen.add(entry.id);
  }
  return { entries: parsed.data.checks };
}

type ReportedVerdict = { verdict: Verdict; message: string };
export type AppliedReport = { verdicts: Map<string, ReportedVerdict>; notes: string[] };

// The verdict of each declared agent check from the report (null: there was no agent step, or no file), and a
// note for every entry that is dropped. Entries naming a hidden check read as undeclared: the note must not
// tell anyone that such a check exists.
export function applyAgentReport(
  checks: readonly { id: string; executor?: string; hidden?: boolean }[],
  report: ParsedReport | null,
  noReport = "not reported",
): AppliedReport {
  const agentChecks = checks.filter((c) => c.executor === "agent");
  const verdicts = new Map<string, ReportedVerdict>();
  const notes: string[] = [];
  if (report && "problem" in report) {
    for (const c of agentChecks)
      verdicts.set(c.id, { verdict: "error", message: `report unreadable: ${report.problem}` });
    return { verdicts, notes };
  }
  const byId = new Map((report?.entries ?? []).map((e) => [e.id, e]));
  for (const c of agentChecks) {
    const entry = byId.get(c.id);
    if (!entry) verdicts.set(c.id, { verdict: "skipped", message: noReport });
    else
      verdicts.set(c.id, {
        verdict: entry.status === "pass" ? "passed" : "failed",
        message: entry.message?.trim() || (entry.status === "pass" ? "reported passing" : "reported failing"),
      });
  }
  for (const entry of report?.entries ?? []) {
    const check = checks.find((c) => c.id === entry.id);
    if (!check || check.hidden) notes.push(`"${clip(entry.id)}" is not a check of this run: dropped`);
    else if (check.executor !== "agent")
      notes.push(`"${entry.id}" is run by Gatehouse, not reported by the agent: dropped`);
  }
  return { verdicts, notes };
}

// A required agent check the agent did not report decides the gate only under strictEvaluation: otherwise it
// reads as not required for the gate (its row still says "skipped: not reported").
export function gateRequired(
  check: { required: boolean; executor?: string },
  verdict: Verdict,
  strictEvaluation: boolean,
): boolean {
  if (!check.required) return false;
  return strictEvaluation || check.executor !== "agent" || verdict !== "skipped";
}

function clip(id: string): string {
  return id.length > 60 ? `${id.slice(0, 60)}…` : id;
}
