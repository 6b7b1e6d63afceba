// An attempt at a pushed commit: the task's worktree is moved to exactly that commit (its branch reset to
// it, files the commit does not have removed; ignored files such as node_modules stay). The commit comes
// from the Work's repository, fetched into the Work's clone when the clone does not have it yet.
import { ensureClone, withRepoLock, type CheckoutTarget } from "./checkout";
import { git, GitError, gitOk } from "./git";

export async function moveCheckoutToCommit(opts: {
  dataDir: string;
  work: CheckoutTarget["work"];
  checkoutPath: string;
  commit: string;
}): Promise<void> {
  const { dataDir, work, checkoutPath, commit } = opts;
  await withRepoLock(work.id, async () => {
    const repoDir = await ensureClone(dataDir, work);
    const has = () => gitOk(["cat-file", "-e", `${commit}^{commit}`], { cwd: repoDir });
    if (!(await has())) await git(["fetch", "--quiet", "--prune", "origin"], { cwd: repoDir, timeoutMs: 600_000 });
    if (!(await has()))
      throw new GitError(`commit ${commit.slice(0, 12)} is not in the Work's repository: push it to the task's branch`);
  });
  await git(["reset", "--hard", "--quiet", commit], { cwd: checkoutPath });
  await git(["clean", "-d", "--force", "--quiet"], { cwd: checkoutPath });
}
