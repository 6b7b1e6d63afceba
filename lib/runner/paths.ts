// Where a run's files live in the data dir. Check ids are validated (^[a-z0-9][a-z0-9-_]{0,40}$), so they
// are safe path segments; the agent's files use names no check id can take.
import path from "node:path";

export const AGENT_LOG_NAME = "_agent";

export function attemptDirOf(dataDir: string, runId: string, n: number): string {
  return path.join(dataDir, "logs", runId, String(n));
}

export function checkLogPathOf(dataDir: string, runId: string, n: number, checkId: string): string {
  return path.join(attemptDirOf(dataDir, runId, n), `${checkId}.log`);
}

export function agentLogPathOf(dataDir: string, runId: string, n: number): string {
  return path.join(attemptDirOf(dataDir, runId, n), `${AGENT_LOG_NAME}.log`);
}

// Briefs sit apart from the logs: the agent (perhaps another user) reads them, the logs stay the platform's.
export function briefPathOf(dataDir: string, runId: string, n: number): string {
  return path.join(dataDir, "briefs", runId, `${n}.md`);
}

// The agent's report of its checks: beside the brief (a directory the agent may write), one per attempt.
export function reportPathOf(dataDir: string, runId: string, n: number): string {
  return path.join(dataDir, "briefs", runId, `${n}.report.json`);
}

export function pipeDirOf(dataDir: string): string {
  return path.join(dataDir, "tmp", "pipes");
}

// HOME for checks and agents: Gatehouse's own, so the operator's dotfiles and credentials stay out.
export function checkHomeOf(dataDir: string): string {
  return path.join(dataDir, "home");
}

// Files handed to an attempt's checks ({{assets_dir}}): readable by a GATEHOUSE_RUN_AS user, owned by the server.
export function attemptFilesDirOf(dataDir: string, runId: string, n: number): string {
  return path.join(dataDir, "run-files", runId, String(n));
}
