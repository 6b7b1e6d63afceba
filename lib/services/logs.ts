// Finding a stored log: only through a run the actor may read, an attempt number and a check id that
// pass the same rules as when they were stored, so a log route can never be made to read another file.
import fs from "node:fs";
import type { Actor } from "../auth/actor";
import { AppError, notFound } from "../errors";
import { attemptNumberOf } from "../gates/attempt-number";
import { CHECK_ID_PATTERN } from "../gates/check-schema";
import { PROOF_NAMES } from "../gates/proof-ids";
import { findAttempt, findResult } from "../db/runs";
import { AGENT_LOG_NAME } from "../runner/paths";
import { getExecutor } from "../runner/runtime";
import type { LiveLog } from "../runner/run-view";
import { readRun } from "./runs";
import { standingAllows, standingOn } from "./access";
import { lineIndexFor } from "../logs/line-index";

export type LogLocation = {
  path: string;
  live: LiveLog | null;
  isFinished: boolean;
  name: string;
  attemptN: number;
  runId: string;
};

export async function locateLog(actor: Actor, runId: string, n: string, name: string): Promise<LogLocation> {
  const attemptN = attemptNumberOf(n);
  if (attemptN === null)
    throw new AppError("validation", "attempt: must be an attempt number", [
      { path: "attempt", message: "must be an attempt number" },
    ]);
  const isAgent = name === AGENT_LOG_NAME;
  // A proof row's id starts with "_", which no check's may: only the known ones are let through.
  if (!isAgent && !CHECK_ID_PATTERN.test(name) && !Object.hasOwn(PROOF_NAMES, name))
    throw new AppError("validation", "checkId: not a check id", [{ path: "checkId", message: "not a check id" }]);
  const run = await readRun(actor, runId);
  // The log as the executor's view finds it: this process's runner, or what a worker shipped to the database.
  const view = getExecutor().view;
  if (isAgent) {
    const attempt = await findAttempt({ runId, n: attemptN });
    if (!attempt || (!attempt.agentVerdict && attempt.status !== "agent")) throw notFound("Agent log");
    const live = view.liveLog(run.id, attemptN, AGENT_LOG_NAME) ?? null;
    return {
      path: await view.logFile(run.id, attemptN, AGENT_LOG_NAME),
      live,
      isFinished: !live && attempt.status !== "agent",
      name,
      attemptN,
      runId: run.id,
    };
  }
  const result =
    view.liveResults(run.id, attemptN)?.find((r) => r.checkId === name) ??
    (await findResult({ runId, n: attemptN, checkId: name }));
  if (!result) {
    // Said as the CLI and the MCP server say it: which attempt, and which check it does not have.
    const attempt = await findAttempt({ runId, n: attemptN });
    throw new AppError(
      "not_found",
      attempt
        ? `attempt ${attemptN} of run #${run.number} has no check "${name}"`
        : `run #${run.number} has no attempt ${attemptN}`,
    );
  }
  if (run.checks.find((c) => c.id === name)?.hidden && !standingAllows(await standingOn(actor, run.workId), "lead"))
    throw new AppError("forbidden", `"${name}" is a held-out check: its log is shown to leads only`);
  const path = result.verdict === "queued" ? null : await view.logFile(run.id, result.logAttempt, name);
  const live = view.liveLog(run.id, result.logAttempt, name) ?? null;
  // Skipped checks and agent-reported checks (the agent's report is their whole output) write no log file.
  if (!path || (!live && !fs.existsSync(path))) {
    const why = run.checks.find((c) => c.id === name)?.executor === "agent" ? "reported by the agent, " : "";
    throw new AppError("not_found", `"${name}" has no log in attempt ${attemptN} (${why}${result.verdict})`);
  }
  return {
    path,
    live,
    isFinished: result.verdict !== "running",
    name,
    attemptN: result.logAttempt,
    runId: run.id,
  };
}

export type LogLinesPage = {
  totalLines: number;
  totalBytes: number;
  isLive: boolean;
  lines: { n: number; text: string; cut: number }[];
};

// Lines [from, from+count) of a stored log (1-based); `from` ≤ 0 means the last `count` lines.
export async function readLogLines(
  actor: Actor,
  runId: string,
  n: string,
  name: string,
  from: number,
  count: number,
): Promise<LogLinesPage> {
  const log = await locateLog(actor, runId, n, name);
  log.live?.flush();
  const index = lineIndexFor(log.path);
  const take = Math.max(1, Math.min(2000, count));
  const start = from > 0 ? from : Math.max(1, index.lines - take + 1);
  return { totalLines: index.lines, totalBytes: index.bytes, isLive: !log.isFinished, lines: index.read(start, take) };
}

export async function searchLog(
  actor: Actor,
  runId: string,
  n: string,
  name: string,
  query: string,
): Promise<{ lines: number[]; total: number }> {
  const log = await locateLog(actor, runId, n, name);
  if (query.length > 200)
    throw new AppError("validation", "q: at most 200 characters", [{ path: "q", message: "at most 200 characters" }]);
  log.live?.flush();
  return lineIndexFor(log.path).search(query, 5000);
}
