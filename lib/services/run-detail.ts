// A run with its attempts and every check result, as the run page and GET /api/runs/:id show it.
// Rows of a check still running carry its live tail from memory.
import type { Actor } from "../auth/actor";
import {
  findRunLabels,
  listAttempts,
  listResultsOfRun,
  type AttemptRecord,
  type ResultRecord,
  type RunRecord,
} from "../db/runs";
import { notFound } from "../errors";
import { findLiveLog, liveLogKey } from "../runner/live-logs";
import { findLiveResults } from "../runner/attempt-results";
import { readRun } from "./runs";
import { withholdHidden } from "../gates/held-out";
import { standingAllows, standingOn } from "./access";
import { loadWorkSecrets } from "../runner/work-secrets";
import { makeSecretMasker } from "../runner/output/secret-masker";

type AttemptDetail = AttemptRecord & { results: ResultRecord[] };
export type RunDetail = {
  run: RunRecord;
  attempts: AttemptDetail[];
  task: { id: string; key: string; title: string };
  work: { id: string; name: string };
  // Whether the actor may see held-out checks' commands and logs (leads and admins); others get name and verdict.
  seesHidden: boolean;
};

export async function loadRunDetail(actor: Actor, runId: string): Promise<RunDetail> {
  const run = await readRun(actor, runId);
  const [attempts, results, labels, standing] = await Promise.all([
    listAttempts({ runId }),
    listResultsOfRun({ runId }),
    findRunLabels({ id: runId }),
    standingOn(actor, run.workId),
  ]);
  const seesHidden = standingAllows(standing, "lead");
  // Gone since readRun: deleted with its task or Work.
  if (!labels) throw notFound("Run");
  const byAttempt = new Map<number, ResultRecord[]>();
  // Attempts still running are read from the runner's memory (their rows are written behind).
  const liveAttempts = new Map(
    attempts.map((a) => [a.n, findLiveResults(run.id, a.n)] as const).filter(([, l]) => l !== undefined),
  );
  const rows = [
    ...results.filter((r) => !liveAttempts.has(r.attemptN)),
    ...[...liveAttempts].flatMap(([n, l]) => l!.view().map((r) => ({ ...r, attemptN: n }))),
  ];
  for (const r of rows) {
    const live = r.verdict === "running" ? findLiveLog(liveLogKey(run.id, r.attemptN, r.checkId)) : undefined;
    const row: ResultRecord = live ? { ...r, logTail: live.liveTail(), logBytes: live.bytesSeen } : r;
    const list = byAttempt.get(r.attemptN);
    if (list) list.push(row);
    else byAttempt.set(r.attemptN, [row]);
  }
  // A secret written literally into a command is masked here as it is in the brief and the logs.
  const secrets = Object.values(await loadWorkSecrets(run.workId).catch(() => ({})));
  const masker = makeSecretMasker(secrets);
  const mask = (text: string) => masker.maskText(text);
  const shown: RunRecord = secrets.length
    ? {
        ...run,
        agentCommand: run.agentCommand && mask(run.agentCommand),
        checks: run.checks.map((c) => (c.command === undefined ? c : { ...c, command: mask(c.command) })),
      }
    : run;
  const hiddenIds = new Set(seesHidden ? [] : run.checks.filter((c) => c.hidden).map((c) => c.id));
  return {
    run: { ...shown, checks: withholdHidden(shown.checks, seesHidden) },
    attempts: attempts.map((a) => {
      const live = a.status === "agent" ? findLiveLog(liveLogKey(run.id, a.n, "_agent")) : undefined;
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
  };
}
