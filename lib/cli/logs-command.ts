// `gatehouse logs <run> [--check id] [--attempt n] [--follow]`: a check's full log (every check of the
// attempt when none is named), or following one while it is written.
import type { ApiClient, RunJson } from "./api-client";
import { CliError } from "./cli-error";

type Write = (text: string) => void;

function attemptOf(run: RunJson, n?: number) {
  const attempt = n ? run.attempts.find((a) => a.n === n) : run.attempts.at(-1);
  if (!attempt)
    throw new CliError(
      `run #${run.number} has no attempt ${n ?? ""} (it has ${run.attempts.map((a) => a.n).join(", ") || "none"})`,
    );
  return attempt;
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
    opts.write(await client.log(run.id, attempt.n, opts.checkId));
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
      if (run.status !== "queued" && run.status !== "running") throw new CliError(`no log ${checkId} on attempt ${n}`);
    }
    if (!page || page.lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
