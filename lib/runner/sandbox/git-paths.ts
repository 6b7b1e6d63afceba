// What git needs, outside a directory, to work in it inside the sandbox. A task's checkout is a repository
// of its own (checkout/task-repo.ts): nothing. A scratch worktree of it (the proof rows' re-runs, review,
// red team, mutation) keeps its HEAD and index in the task checkout's `.git/worktrees/<name>`: that folder
// writable, the task's `.git` read-only (its objects and refs: a command in a scratch worktree reads the
// history, it never commits to the task branch). Only a pair git's own back-link confirms, with the run's
// own task checkout, is opened: a `.git` file the agent rewrote to point elsewhere opens nothing.
import fs from "node:fs";
import path from "node:path";
import { readPlainFile } from "../checkout/checkout-files";
import { gitPathsOf as taskRepoGitPaths } from "../checkout/task-repo";
import type { SandboxMount } from "./policy";

export function gitPathsOf(checkout: string, taskCheckout: string): SandboxMount[] {
  const [common] = taskRepoGitPaths(checkout);
  if (!common) return [];
  const taskGit = realPath(path.join(taskCheckout, ".git"));
  if (!taskGit || realPath(common) !== taskGit) return [];
  const dotGit = readPlainFile(path.join(checkout, ".git"), 64 * 1024);
  if (!dotGit) return [];
  const line = dotGit.bytes.toString("utf8").split("\n")[0] ?? "";
  const own = realPath(path.resolve(checkout, line.replace(/^gitdir: /, "").trim()));
  if (!own || path.dirname(own) !== path.join(taskGit, "worktrees")) return [];
  return [
    { path: taskGit, mode: "ro" },
    { path: own, mode: "rw" },
  ];
}

function realPath(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}
