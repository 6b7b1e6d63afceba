// Running git for the platform (clone, worktrees, fingerprints): never prompts, never runs ext:: transports.
// Git starts through the spawner (see process/spawner.ts), so the server does not fork itself.
import { dataDir } from "../../config/database-url";
import { execCaptured } from "../process/exec-captured";
import { checkHomeOf, pipeDirOf } from "../paths";
import { runAsFromEnv } from "../run-as";

export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitError";
  }
}

export type GitOptions = { cwd?: string; env?: Record<string, string>; timeoutMs?: number };

export async function git(args: string[], options: GitOptions = {}): Promise<string> {
  // With GATEHOUSE_RUN_AS, git runs as that user too (the clones and worktrees are its), with its HOME.
  const runAs = runAsFromEnv();
  const home = runAs ? { HOME: checkHomeOf(dataDir()), XDG_CONFIG_HOME: checkHomeOf(dataDir()) } : {};
  const env = Object.fromEntries(
    Object.entries({
      ...process.env,
      GIT_TERMINAL_PROMPT: "0",
      GIT_ASKPASS: "",
      SSH_ASKPASS: "",
      LC_ALL: "C",
      ...home,
      ...options.env,
    }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const result = await execCaptured(
    "git",
    ["-c", "protocol.ext.allow=never", "-c", "core.hooksPath=/dev/null", ...args],
    {
      cwd: options.cwd ?? (runAs ? dataDir() : process.cwd()),
      env,
      pipeDir: pipeDirOf(dataDir()),
      timeoutMs: options.timeoutMs ?? 120_000,
      runAs,
    },
  ).catch((error: Error) => ({ code: null, stdout: "", stderr: error.message }));
  if (result.code === 0) return result.stdout;
  const detail = (result.stderr || `exit code ${result.code ?? "none (killed)"}`)
    .trim()
    .split("\n")
    .filter(Boolean)
    .slice(-3)
    .join(" ");
  throw new GitError(`git ${args[0]} failed: ${detail}`);
}

export async function gitOk(args: string[], options: GitOptions = {}): Promise<boolean> {
  try {
    await git(args, options);
    return true;
  } catch {
    return false;
  }
}
