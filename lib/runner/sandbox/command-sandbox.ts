// The sandbox of one command Gatehouse runs for a run: what it sees (SPEC Part 3, "The sandbox"). Built
// from what the command is given — its working directory's checkout, its HOME and the files its
// environment names (GATEHOUSE_BRIEF_FILE, _REPORT_FILE, _EXEC_LOG, _CHECKS_DIR, _ASSETS_DIR, and a PATH
// folder of the platform's own) — so a step cannot hand a command a file without it being bound, and
// the sandbox binds nothing else of the data dir.
import fs from "node:fs";
import path from "node:path";
import { bwrapArgs, type SandboxPlan } from "./bwrap-args";
import { gitPathsOf } from "./git-paths";
import type { SandboxMode } from "./mode";
import type { SandboxMount, SandboxPolicy } from "./policy";
import { mountPlatformProblem, placeWritableBy, realPathOf } from "./real-path";

// What run-command needs: the bwrap binary and its arguments up to the command, or why it cannot run.
export type CommandSandbox = { bwrap: string; args: string[] } | { error: string };

export type SandboxRequest = {
  mode: SandboxMode;
  policy: SandboxPolicy;
  dataDir: string;
  installDir: string;
  // The task's checkout: bound read-only when the command runs in a scratch worktree (whose dependency
  // folders link into it).
  taskCheckout: string;
  cwd: string;
  env: Record<string, string>;
  // The user the sandboxed commands run as (null: the server's own), whose writable places a mount may not
  // pass through.
  runAs?: { uid: number; gid: number } | null;
};

const READ_ONLY_FILES = ["GATEHOUSE_BRIEF_FILE", "GATEHOUSE_CHECKS_DIR", "GATEHOUSE_ASSETS_DIR"];
// Files the command writes in place (they exist before it starts; a file bound alone cannot be replaced
// by a rename, so the command cannot swap it for a link the platform would later follow).
const WRITABLE_FILES = ["GATEHOUSE_REPORT_FILE", "GATEHOUSE_EXEC_LOG"];

export function sandboxFor(req: SandboxRequest): CommandSandbox | null {
  if (req.mode.kind === "off") return null;
  if (req.mode.kind === "unavailable") return { error: req.mode.reason };
  const plan = sandboxPlanOf(req);
  if ("error" in plan) return plan;
  return { bwrap: req.mode.bwrap, args: bwrapArgs(plan) };
}

// What a command would see, as a plan (attempt-sandbox.ts starts one sandbox for the commands sharing it).
export function sandboxPlanOf(req: Omit<SandboxRequest, "mode">): SandboxPlan | { error: string } {
  const dataDir = realDir(req.dataDir);
  const checkout = checkoutRootOf(req.cwd, dataDir);
  if (!checkout) return { error: `the sandbox has no checkout to bind: ${req.cwd} is not inside one` };
  const task = realDir(req.taskCheckout);
  const binds: SandboxMount[] = [{ path: checkout, mode: "rw" }, ...gitPathsOf(checkout, task)];
  if (task !== checkout && fs.existsSync(/* turbopackIgnore: true */ task)) binds.unshift({ path: task, mode: "ro" });
  // A folder of the platform's on the PATH (the review's recording shims, which link to a script beside
  // them): its parent, read-only, before the files that may lie in it.
  for (const dir of (req.env.PATH ?? "").split(":"))
    if (dir.startsWith(`${dataDir}/`) && fs.existsSync(dir)) binds.push({ path: path.dirname(dir), mode: "ro" });
  for (const name of READ_ONLY_FILES) {
    const p = req.env[name];
    if (p && fs.existsSync(p)) binds.push({ path: p, mode: "ro" });
  }
  for (const name of WRITABLE_FILES) {
    const p = req.env[name];
    if (p && fs.statSync(p, { throwIfNoEntry: false })?.isFile()) binds.push({ path: p, mode: "rw" });
  }
  if (req.env.HOME) binds.push({ path: req.env.HOME, mode: "rw" });
  const platform = { dataDir, installDir: realDir(req.installDir) };
  // Checked again where the command starts: a link made on the way since the Work was saved would have bwrap
  // bind the data dir itself, beside the mask that hides it at its own path.
  for (const m of req.policy.mounts) {
    const real = realPathOf(m.path);
    const problem = mountPlatformProblem(m.path, platform, real);
    if (problem) return { error: `the Work's sandbox mount ${m.path} ${problem}: nothing was run` };
    // Where the sandbox's user can write on the way, it could swap the path for a link after this check.
    const writable = req.runAs ? placeWritableBy(m.path, real, req.runAs) : null;
    if (writable)
      return {
        error:
          `the Work's sandbox mount ${m.path} passes through ${writable}, which the sandbox's user can write ` +
          "(it could put a link there before the mount is bound): nothing was run",
      };
  }
  return {
    mounts: req.policy.mounts,
    masks: [platform.dataDir, platform.installDir],
    binds,
    network: req.policy.network,
    cwd: req.cwd,
  };
}

// The worktree the working directory lies in: the nearest folder up from it with a `.git`, inside the
// data dir (task worktrees and scratch worktrees are there).
function checkoutRootOf(cwd: string, dataDir: string): string | null {
  for (let dir = realDir(cwd); dir.startsWith(`${dataDir}/`); dir = path.dirname(dir))
    if (fs.lstatSync(path.join(dir, ".git"), { throwIfNoEntry: false })) return dir;
  return null;
}

function realDir(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
