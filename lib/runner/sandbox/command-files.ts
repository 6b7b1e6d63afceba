// The files a command gets of its own, made before it starts: its HOME by role (the agent's kept per Work,
// the checks' fresh per attempt, a reviewer's fresh per command) and an empty report file to write in place
// (the sandbox binds that one file, never the folder the platform keeps it in).
import fs from "node:fs";
import path from "node:path";
import { giveTo, type RunAsUser } from "../run-as";
import { agentHomeOf, attemptFilesDirOf, attemptHomeOf, reviewerHomeOf } from "../paths";
import type { CommandRole } from "./policy";

type CommandOwner = { dataDir: string; workId: string; runId: string; n: number; runAs: RunAsUser | null };

export function homeFor(owner: CommandOwner, role: CommandRole): string {
  const { dataDir, runId, n, runAs } = owner;
  if (role === "agent") return ensureAgentHome(dataDir, owner.workId, runAs);
  ensureAttemptFilesDir(owner);
  const home = role === "check" ? attemptHomeOf(dataDir, runId, n) : reviewerHomeOf(dataDir, runId, n);
  if (role === "reviewer") fs.rmSync(home, { recursive: true, force: true });
  if (!fs.existsSync(home)) {
    fs.mkdirSync(home, { mode: 0o700 });
    giveTo(home, runAs);
  }
  return home;
}

// A HOME of its own for one command (`k`-th of the attempt), empty; removed with the attempt's files.
export function freshHomeFor(owner: CommandOwner, k: number): string {
  ensureAttemptFilesDir(owner);
  const home = path.join(attemptFilesDirOf(owner.dataDir, owner.runId, owner.n), `home-${k}`);
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { mode: 0o700 });
  giveTo(home, owner.runAs);
  return home;
}

// Inside the attempt's files (data/run-files/<run>/<n>): removed with them when the attempt ends.
function ensureAttemptFilesDir({ dataDir, runId, n }: CommandOwner): void {
  const base = attemptFilesDirOf(dataDir, runId, n);
  for (const dir of [path.dirname(path.dirname(base)), path.dirname(base), base])
    if (!fs.existsSync(dir)) fs.mkdirSync(dir, { mode: 0o711 });
}

// The Work's agent HOME, made (the command's user's) when missing.
export function ensureAgentHome(dataDir: string, workId: string, runAs: RunAsUser | null): string {
  const home = agentHomeOf(dataDir, workId);
  if (!fs.existsSync(home)) {
    fs.mkdirSync(path.dirname(home), { recursive: true, mode: 0o700 });
    giveTo(path.dirname(home), runAs);
    fs.mkdirSync(home, { mode: 0o700 });
    giveTo(home, runAs);
  }
  return home;
}

// Before the command: its report file exists, empty, the command's to write.
export function prepareReportFile(env: Record<string, string>, runAs: RunAsUser | null): void {
  const file = env.GATEHOUSE_REPORT_FILE;
  if (!file || fs.lstatSync(file, { throwIfNoEntry: false })) return;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, "", { mode: 0o600, flag: "wx" });
  giveTo(file, runAs);
}

// After it: a report file still empty is no report (as if the command had written none).
export function dropEmptyReportFile(env: Record<string, string>): void {
  const file = env.GATEHOUSE_REPORT_FILE;
  const stat = file ? fs.lstatSync(file, { throwIfNoEntry: false }) : undefined;
  if (file && stat?.isFile() && stat.size === 0) fs.rmSync(file, { force: true });
}
