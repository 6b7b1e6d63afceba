// `gatehouse logs <run> [--check id] [--attempt n] [--follow]`: a check's full log (every check of the
// attempt when none is named), or following one while it is written.
import type { ApiClient, RunJson } from "./api-client";
import { CliError } from "./cli-error";

type Write = (text: string) => void;
type AttemptJson = RunJson["attempts"][number];

// The attempt asked for (the last when none is), or an error listing the attempts the run has.
export function attemptOf(run: RunJson, n?: number) {
  const attempt = n ? run.attempts.find((a) => a.n === n) : run.attempts.at(-1);
  if (!attempt && run.attempts.length === 0) throw new CliError(`run #${run.number} has no attempt yet`);
  if (!attempt)
    throw new CliError(`run #${run.number} has no attempt ${n} (it has ${run.attempts.map((a) => a.n).join(", ")})`);
  return attempt;
}

function hasLogName(attempt: AttemptJson, checkId: string): boolean {
  return checkId === "_agent" ? attempt.agent !== null : attempt.checks.some((c) => c.checkId === checkId);
}

// Said when the attempt has no such check: its own ids (the agent step's, the checks', the proof rows') are what
// the reader retries with. Held-out checks are left out where the agent reads it, as everywhere it reads.
function noSuchCheck(run: RunJson, attempt: AttemptJson, checkId: string, withHeldOut: boolean): CliError {
  const ids = [
    ...(attempt.agent ? ["_agent"] : []),
    ...attempt.checks.filter((c) => withHeldOut || !c.hidden).map((c) => c.checkId),
  ];
  return new CliError(
    `attempt ${attempt.n} of run #${run.number} has no check "${checkId}" (its checks: ${ids.join(", ") || "none"})`,
  );
}

// A check's log on one attempt of a run already read. The server answers an id the attempt does not have with a
// bare "not found" (or "not a check id"); the run at hand says which ids there are, without another request.
export async function readCheckLog(
  client: ApiClient,
  run: RunJson,
  attempt: AttemptJson,
  checkId: string,
  opts: { withHeldOut: boolean },
): Promise<string> {
  try {
    return await client.log(run.id, attempt.n, checkId);
  } catch (error) {
    const isRefusedId = error instanceof CliError && (error.status === 404 || error.status === 400);
    if (isRefusedId && !hasLogName(attempt, checkId)) throw noSuchCheck(run, attempt, checkId, opts.withHeldOut);
    throw error;
  }
}

export async function printLogs(
  client: ApiClient,
  opts: { runId: string; checkId?: string; attempt?: number; follow?: boolean; write: Write },
): Promise<void> {
  const run = await client.run(opts.runId);
  const attempt = attemptOf(run, opts.attempt);
  if (opts.follow) {
    const running = attempt.checks.find((c) => c.verdict === "running")?.checkId;
    const checkId =
      opts.checkId ?? (attempt.agent?.verdict === "running" ? "_agent" : running) ?? attempt.checks.at(-1)?.checkId;
    if (!checkId) throw new CliError(`attempt ${attempt.n} has no check to follow`);
    return followLog(client, run.id, attempt.n, checkId, opts.write);
  }
  if (opts.checkId) {
    opts.write(await readCheckLog(client, run, attempt, opts.checkId, { withHeldOut: true }));
    return;
  }
  const names = [...(attempt.agent ? [{ checkId: "_agent", label: `agent (${attempt.agent.verdict})` }] : [])];
  for (const c of attempt.checks) names.push({ checkId: c.checkId, label: `${c.checkId} (${c.verdict})` });
  for (const { checkId, label } of names) {
    opts.write(`==> ${label} <==\n`);
    const text = await client.log(run.id, attempt.n, checkId).catch((error: unknown) => {
      if (error instanceof CliError && (error.status === 404 || error.status === 403)) return `(${error.message})\n`;
      throw error;
    });
    opts.write(text.endsWith("\n") || !text ? text : `${text}\n`);
  }
}

async function followLog(client: ApiClient, runId: string, n: number, checkId: string, write: Write): Promise<void> {
  let next = 1;
  for (;;) {
    const page = await client.logLines(runId, n, checkId, next).catch((error: unknown) => {
      // Not written yet (the check is still queued): wait for it.
      if (error instanceof CliError && error.status === 404) return null;
      throw error;
    });
    if (page) {
      for (const line of page.lines) write(`${line.text}\n`);
      if (page.lines.length > 0) next = page.lines[page.lines.length - 1].n + 1;
      if (!page.isLive && next > page.totalLines) return;
    } else {
      const run = await client.run(runId);
      if (run.status !== "queued" && run.status !== "running") {
        const attempt = run.attempts.find((a) => a.n === n);
        if (attempt && !hasLogName(attempt, checkId)) throw noSuchCheck(run, attempt, checkId, true);
        throw new CliError(`no log ${checkId} on attempt ${n}`);
      }
    }
    if (!page || page.lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
