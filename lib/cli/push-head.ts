// Pushing what the agent has to the task's branch on the Work's repository. The commit is HEAD, or — when
// the working tree has changes not committed yet — a commit of the working tree on top of HEAD made with
// a scratch index, so what is gated is what is on disk while the clone's branch, index and files stay as
// they are. The push is forced: with a stop hook, the agent's clone is where the task's work is.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { CliError } from "./cli-error";

const run = promisify(execFile);

// git's whole complaint as one line: its first line says what is wrong and its last often only how to check
// ("…and the repository exists."), so none is dropped. A new message (fatal:, error:, remote:, hint:) is set
// off with "; ", the lines of one sentence joined with a space; a remote hook's page of output is cut.
function oneLineOf(stderr: string): string {
  const lines = stderr
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter(Boolean);
  const text = lines.reduce(
    (all, line) => (!all ? line : /^[a-z]+:\s/i.test(line) ? `${all}; ${line}` : `${all} ${line}`),
    "",
  );
  return text.length > 1000 ? `${text.slice(0, 999)}…` : text;
}

// `env`: the CLI's environment (git finds the user's identity, credentials and SSH agent through it).
async function git(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await run("git", args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    return stdout.trim();
  } catch (error) {
    const reason = oneLineOf(String((error as { stderr?: string }).stderr ?? "")) || (error as Error).message;
    throw new CliError(`git ${args[0]} failed: ${reason}`);
  }
}

// The commit that stands for the clone as it is now (HEAD, or a snapshot of uncommitted changes).
export async function commitOfWorkingTree(
  cwd: string,
  cliEnv: NodeJS.ProcessEnv,
): Promise<{ commit: string; isSnapshot: boolean }> {
  const root = await git(cwd, ["rev-parse", "--show-toplevel"], cliEnv).catch(() => {
    throw new CliError(`${cwd} is not inside a git repository: run this in a clone of the Work's repository`);
  });
  const head = await git(root, ["rev-parse", "HEAD"], cliEnv);
  if (!(await git(root, ["status", "--porcelain", "--untracked-files=normal"], cliEnv)))
    return { commit: head, isSnapshot: false };
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-index-"));
  try {
    const env = { ...cliEnv, GIT_INDEX_FILE: path.join(scratch, "index") };
    await git(root, ["read-tree", "HEAD"], env);
    await git(root, ["add", "-A", "."], env);
    const tree = await git(root, ["write-tree"], env);
    const hasIdentity = !!(await git(root, ["config", "user.email"], cliEnv).catch(() => ""));
    const identity = hasIdentity
      ? {}
      : {
          GIT_AUTHOR_NAME: "Gatehouse",
          GIT_AUTHOR_EMAIL: "gatehouse@localhost",
          GIT_COMMITTER_NAME: "Gatehouse",
          GIT_COMMITTER_EMAIL: "gatehouse@localhost",
        };
    // Dated as HEAD is: the same changes on the same HEAD are the same commit, so an agent that changed
    // nothing since the last gate is seen to have changed nothing.
    const date = await git(root, ["show", "-s", "--format=%cI", "HEAD"], cliEnv);
    const commit = await git(
      root,
      ["commit-tree", tree, "-p", head, "-m", "gatehouse: the working tree as the agent left it"],
      {
        ...env,
        ...identity,
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
    );
    return { commit, isSnapshot: true };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

// The clone's remote that points at the Work's repository (its name), else the repository's URL itself.
async function remoteFor(cwd: string, repoUrl: string, env: NodeJS.ProcessEnv): Promise<string> {
  const remotes = await git(cwd, ["remote", "-v"], env).catch(() => "");
  const same = (url: string) => url === repoUrl || path.resolve(cwd, url) === path.resolve(repoUrl);
  for (const line of remotes.split("\n")) {
    const [name, url] = line.split(/\s+/);
    if (name && url && same(url)) return name;
  }
  return repoUrl;
}

// The commit (commitOfWorkingTree's) to the task's branch on the Work's repository.
export async function pushToTaskBranch(opts: {
  cwd: string;
  repoUrl: string;
  branch: string;
  remote?: string;
  env: NodeJS.ProcessEnv;
  commit: string;
}): Promise<void> {
  const remote = opts.remote ?? (await remoteFor(opts.cwd, opts.repoUrl, opts.env));
  await git(opts.cwd, ["push", "--quiet", "--force", remote, `${opts.commit}:refs/heads/${opts.branch}`], opts.env);
}
