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

// HOME for platform commands that are not a run's (none today) and the parent of the agents' homes.
export function checkHomeOf(dataDir: string): string {
  return path.join(dataDir, "home");
}

// The agent's HOME: one per Work, kept between runs (an agent CLI keeps its configuration there), never
// seen by a check.
export function agentHomeOf(dataDir: string, workId: string): string {
  return path.join(dataDir, "home", "agents", workId);
}

// The checks' HOME: fresh for each attempt and removed with the attempt's files, so nothing a check (or the
// code it ran) leaves there reaches the agent or a later attempt.
export function attemptHomeOf(dataDir: string, runId: string, n: number): string {
  return path.join(attemptFilesDirOf(dataDir, runId, n), "home");
}

// A review or red-team command's HOME: fresh for each command (the code under review runs inside it).
export function reviewerHomeOf(dataDir: string, runId: string, n: number): string {
  return path.join(attemptFilesDirOf(dataDir, runId, n), "reviewer-home");
}

// Files handed to an attempt's checks ({{assets_dir}}): readable by a GATEHOUSE_RUN_AS user, owned by the server.
export function attemptFilesDirOf(dataDir: string, runId: string, n: number): string {
  return path.join(dataDir, "run-files", runId, String(n));
}

// The folder of one of an attempt's sandboxes (lib/runner/sandbox/attempt-sandbox.ts): its output pipes and
// bwrap's own messages.
export function attemptSandboxDirOf(dataDir: string, runId: string, n: number, k: number): string {
  return path.join(attemptFilesDirOf(dataDir, runId, n), `sandbox-${k}`);
}

// The copy of the native spawner that runs inside sandboxes: in the data dir (which the sandbox's user can
// pass through), since the install folder may not be reachable by that user.
export function sandboxSpawnerPathOf(dataDir: string): string {
  return path.join(dataDir, "bin", "gatehouse-spawner");
}
