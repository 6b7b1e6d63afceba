// A run with its attempts and every check result, as the run page and GET /api/runs/:id show it.
// Rows of a check still running carry its live tail: from the executor's view (this process's runner
// with the local executor; with workers, the rows and tails they publish to the database).
import { findDecisionFacts } from "../db/decisions";
import type { Actor } from "../auth/actor";
import {
  findRun,
  findRunLabels,
  listAttempts,
  listResultsOfRun,
  type AttemptRecord,
  type ResultRecord,
  type RunRecord,
} from "../db/runs";
import { notFound } from "../errors";
import { getExecutor } from "../runner/runtime";
import { AGENT_LOG_NAME } from "../runner/paths";
import { withholdHidden } from "../gates/held-out";
import { requireRole, standingAllows } from "./access";

type AttemptDetail = AttemptRecord & { results: ResultRecord[] };
export type RunDetail = {
  run: RunRecord;
  attempts: AttemptDetail[];
  task: { id: string; key: string; title: string };
  work: { id: string; name: string };
  // Whether the actor may see held-out checks' commands and logs (leads and admins); others get name and verdict.
  seesHidden: boolean;
  // Who answered its decision, and the newer accepted run that made the decision moot.
  decision: { decidedBy: string | null; supersededBy: { id: string; number: number } | null };
};

export async function loadRunDetail(actor: Actor, runId: string): Promise<RunDetail> {
  const { run, seesHidden } = await readRunAccess(actor, runId);
  return buildRunDetail(run, seesHidden);
}

// The run if the actor may read it, and whether they see held-out checks: all a run's detail depends on
// of who asks (lib/api/run-json-cache.ts caches the detail by it).
export async function readRunAccess(actor: Actor, runId: string): Promise<{ run: RunRecord; seesHidden: boolean }> {
  const run = await findRun({ id: runId });
  if (!run) throw notFound("Run");
  return { run, seesHidden: await seesHiddenOf(actor, run.workId) };
}

// Whether the actor, who must be a viewer of the Work at least (readRun's check), sees its held-out checks:
// the role looked up once for both.
export async function seesHiddenOf(actor: Actor, workId: string): Promise<boolean> {
  return standingAllows(await requireRole(actor, workId, "viewer"), "lead");
}

// The detail of a run already read, as a reader who does (or does not) see held-out checks sees it.
export async function buildRunDetail(run: RunRecord, seesHidden: boolean): Promise<RunDetail> {
  const runId = run.id;
  const [attempts, results, labels, decision] = await Promise.all([
    listAttempts({ runId }),
    listResultsOfRun({ runId }),
    findRunLabels({ id: runId }),
    findDecisionFacts({ supersededById: run.supersededById, decidedById: run.decidedById }),
  ]);
  // Gone since readRun: deleted with its task or Work.
  if (!labels) throw notFound("Run");
  const byAttempt = new Map<number, ResultRecord[]>();
  const view = getExecutor().view;
  // Attempts still running are read from the runner's memory when it holds them (rows are written behind).
  const liveAttempts = new Map(
    attempts.map((a) => [a.n, view.liveResults(run.id, a.n)] as const).filter(([, l]) => l !== undefined),
  );
  const rows = [
    ...results.filter((r) => !liveAttempts.has(r.attemptN)),
    ...[...liveAttempts].flatMap(([n, l]) => l!.map((r) => ({ ...r, attemptN: n }))),
  ];
  for (const r of rows) {
    const live = r.verdict === "running" ? view.liveLog(run.id, r.attemptN, r.checkId) : undefined;
    const row: ResultRecord = live ? { ...r, logTail: live.liveTail(), logBytes: live.bytesSeen } : r;
    const list = byAttempt.get(r.attemptN);
    if (list) list.push(row);
    else byAttempt.set(r.attemptN, [row]);
  }
  // A secret written literally into a command is masked here as it is in the brief and the logs.
  const mask = await view.masker(run.workId);
  const shown: RunRecord = {
    ...run,
    agentCommand: run.agentCommand && mask(run.agentCommand),
    checks: run.checks.map((c) => (c.command === undefined ? c : { ...c, command: mask(c.command) })),
  };
  const hiddenIds = new Set(seesHidden ? [] : run.checks.filter((c) => c.hidden).map((c) => c.id));
  return {
    decision,
    run: { ...shown, checks: withholdHidden(shown.checks, seesHidden) },
    attempts: attempts.map((a) => {
      const live = a.status === "agent" ? view.liveLog(run.id, a.n, AGENT_LOG_NAME) : undefined;
      const withLive = live ? { ...a, agentLogTail: live.liveTail(), agentLogBytes: live.bytesSeen } : a;
      const rows = byAttempt.get(a.n) ?? [];
      return { ...withLive, results: rows.map((r) => (hiddenIds.has(r.checkId) ? heldOutResult(r) : r)) };
    }),
    task: labels.task,
    work: labels.work,
    seesHidden,
  };
}

// A held-out check's row as a viewer or engineer sees it: its name and verdict, nothing of what it printed.
function heldOutResult(row: ResultRecord): ResultRecord {
  return {
    ...row,
    exitCode: null,
    signal: null,
    durationMs: null,
    message: null,
    logTail: null,
    logBytes: null,
    logNote: null,
    tests: null,
    testCases: null,
    warning: null,
  };
}
