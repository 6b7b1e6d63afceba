// An attempt at a pushed commit: the task's checkout is moved to exactly that commit. The commit comes from
// the Work's repository, where the agent pushed it to the task's branch: it is fetched into the Work's
// clone (when the clone's copy of that branch does not hold it yet), the clone's task branch is set to it,
// and the checkout (a repository of its own, task-repo.ts) takes the branch from the clone as it always
// does. A commit on no copy of the task's branch is refused: the checkout holds only its own branch, so
// a commit of another branch (another task's work) never reaches it.
import { ensureClone, withRepoLock, worktreeDirOf, type CheckoutTarget } from "./checkout";
import { git, GitError, gitOk } from "./git";
import { moveTaskBranch } from "./task-repo";

export async function moveCheckoutToCommit(target: CheckoutTarget, commit: string): Promise<void> {
  const { dataDir, work, task } = target;
  await withRepoLock(work.id, async () => {
    const repoDir = await ensureClone(dataDir, work);
    const has = () => gitOk(["cat-file", "-e", `${commit}^{commit}`], { cwd: repoDir });
    const isOnBranch = async () => {
      if (!(await has())) return false;
      for (const ref of [`refs/remotes/origin/${task.branch}`, `refs/heads/${task.branch}`])
        if (await gitOk(["merge-base", "--is-ancestor", commit, ref], { cwd: repoDir })) return true;
      return false;
    };
    if (!(await isOnBranch())) {
      await git(["fetch", "--quiet", "--prune", "origin"], { cwd: repoDir, timeoutMs: 600_000 });
      if (!(await has()))
        throw new GitError(
          `commit ${commit.slice(0, 12)} is not in the Work's repository: push it to the task's branch`,
        );
      if (!(await isOnBranch()))
        throw new GitError(
          `commit ${commit.slice(0, 12)} is not on the task's branch "${task.branch}" in the Work's ` +
            `repository: push it to that branch`,
        );
    }
    // Forced: with a push, the agent's clone is where the task's work is (its branch may be rewritten).
    await git(["update-ref", `refs/heads/${task.branch}`, commit], { cwd: repoDir });
    await moveTaskBranch({
      repoDir,
      checkoutPath: worktreeDirOf(dataDir, task.id),
      branch: task.branch,
      commit,
    });
  });
}
