// Running git for the platform (clone, worktrees, fingerprints): never prompts, never runs ext:: transports.
import { execFile } from "node:child_process";

export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitError";
  }
}

export type GitOptions = { cwd?: string; env?: Record<string, string>; timeoutMs?: number };

export function git(args: string[], options: GitOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["-c", "protocol.ext.allow=never", "-c", "core.hooksPath=/dev/null", ...args],
      {
        cwd: options.cwd,
        env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", SSH_ASKPASS: "", LC_ALL: "C", ...options.env },
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const detail = (stderr || error.message).trim().split("\n").filter(Boolean).slice(-3).join(" ");
        reject(new GitError(`git ${args[0]} failed: ${detail}`));
      },
    );
  });
}

export async function gitOk(args: string[], options: GitOptions = {}): Promise<boolean> {
  try {
    await git(args, options);
    return true;
  } catch {
    return false;
  }
}
