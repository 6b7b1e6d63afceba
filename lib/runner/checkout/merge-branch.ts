// Landing a task: its branch merged into the Work's base branch and pushed to the repository. The merge is
// made in the Work's bare clone with `git merge-tree --write-tree` and `commit-tree` — no working tree at
// all, so the task's checkout (which a run may be using) is never touched and nothing is left half-merged
// on disk. The push is a plain (non-force) push of the new commit to the base branch: the remote takes it
// only if its base is still the commit the merge was made on (a fast-forward; receive-pack also checks
// the old value under its ref lock), so a race with another server is a refusal, never a lost commit.
// Callers serialise merges of one Work with withRepoLock (checkout.ts).
import fs from "node:fs";
import { ensureClone, remoteHeadBranch, type CheckoutTarget } from "./checkout";
import { git, GitError, gitCaptured, gitOk } from "./git";
import { saveTaskBranch } from "./task-repo";
import { runAsFromEnv } from "../run-as";
import { mergeMessage, type MergeMethod } from "../../gates/merge-policy";

type MergeRefusal =
  | "branch-missing"
  | "base-missing"
  | "not-allowed"
  | "up-to-date"
  | "not-fast-forward"
  | "conflict"
  | "base-moved"
  | "push-refused"
  | "git-failed";

export type MergeOutcome =
  // head: the task branch's commit the merge took in.
  | { kind: "merged"; commit: string; head: string; base: string; baseBefore: string }
  | { kind: "refused"; refusal: MergeRefusal; reason: string; conflicts?: string[] };

export type MergeRequest = {
  dataDir: string;
  work: CheckoutTarget["work"];
  branch: string;
  method: MergeMethod;
  task: { key: string; title: string };
  author: { name: string; email: string };
  // The task's checkout, whose branch is carried into the clone first (commits since its last attempt).
  checkoutPath?: string;
  // Asked with the branch's head once it is known: a reason to refuse (requireGreenGate), or null.
  judge: (branchHead: string) => Promise<string | null> | string | null;
};

const refused = (refusal: MergeRefusal, reason: string, conflicts?: string[]): MergeOutcome => ({
  kind: "refused",
  refusal,
  reason,
  ...(conflicts ? { conflicts } : {}),
});

async function resolveCommit(repoDir: string, ref: string): Promise<string | null> {
  const out = await gitCaptured(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd: repoDir });
  return out.code === 0 ? out.stdout.trim() : null;
}

// The task branch's head: the clone's own branch (saved from the task's checkout), else the remote's.
async function branchHeadOf(repoDir: string, branch: string): Promise<string | null> {
  return (
    (await resolveCommit(repoDir, `refs/heads/${branch}`)) ??
    (await resolveCommit(repoDir, `refs/remotes/origin/${branch}`))
  );
}

export async function mergeBranch(req: MergeRequest): Promise<MergeOutcome> {
  const repoDir = await ensureClone(req.dataDir, req.work);
  await git(["fetch", "--quiet", "--prune", "origin"], { cwd: repoDir, timeoutMs: 600_000 });
  if (req.checkoutPath && fs.existsSync(req.checkoutPath))
    await saveTaskBranch({ repoDir, checkoutPath: req.checkoutPath, branch: req.branch });
  const head = await branchHeadOf(repoDir, req.branch);
  if (!head) return refused("branch-missing", `the branch "${req.branch}" does not exist in the repository`);
  const judged = await req.judge(head);
  if (judged) return refused("not-allowed", judged);
  const base = req.work.baseBranch ?? (await remoteHeadBranch(repoDir));
  const baseBefore = await resolveCommit(repoDir, `refs/remotes/origin/${base}`);
  if (!baseBefore) return refused("base-missing", `the base branch "${base}" does not exist in ${req.work.repoUrl}`);
  const isAncestor = (a: string, b: string) => gitOk(["merge-base", "--is-ancestor", a, b], { cwd: repoDir });
  if (await isAncestor(head, baseBefore))
    return refused("up-to-date", `nothing to merge: "${base}" already contains ${req.branch} at ${head.slice(0, 12)}`);

  let commit: string;
  if (req.method === "fast-forward") {
    if (!(await isAncestor(baseBefore, head)))
      return refused(
        "not-fast-forward",
        `cannot fast-forward: "${base}" has commits that ${req.branch} does not; rebase the ` +
          `branch, or use merge or squash`,
      );
    commit = head;
  } else {
    const tree = await gitCaptured(["merge-tree", "--write-tree", "--name-only", "--no-messages", baseBefore, head], {
      cwd: repoDir,
    });
    const lines = tree.stdout.split("\n").filter(Boolean);
    if (tree.code === 1) {
      const files = [...new Set(lines.slice(1))];
      return refused(
        "conflict",
        `merging ${req.branch} into "${base}" conflicts in ${files.length} file` +
          `${files.length === 1 ? "" : "s"}: ${files.join(", ")}; nothing was pushed`,
        files,
      );
    }
    if (tree.code !== 0 || !lines[0]) throw new GitError(`git merge-tree failed: ${tree.stderr.trim()}`);
    const parents = req.method === "merge" ? ["-p", baseBefore, "-p", head] : ["-p", baseBefore];
    const message = mergeMessage({
      method: req.method,
      key: req.task.key,
      title: req.task.title,
      branch: req.branch,
      head,
    });
    commit = (
      await git(["commit-tree", lines[0], ...parents, "-m", message], {
        cwd: repoDir,
        env: {
          GIT_AUTHOR_NAME: req.author.name,
          GIT_AUTHOR_EMAIL: req.author.email,
          GIT_COMMITTER_NAME: "Gatehouse",
          GIT_COMMITTER_EMAIL: "gatehouse@gatehouse.invalid",
        },
      })
    ).trim();
  }
  return push(repoDir, { commit, head, base, baseBefore });
}

// What git says when the pushing user may not write into the remote's objects or refs.
const CANNOT_WRITE = new RegExp(
  [
    "unable to create temporary object directory",
    "insufficient permission for adding an object",
    "\\.lock'?: Permission denied",
  ].join("|"),
);

type Landed = Omit<Extract<MergeOutcome, { kind: "merged" }>, "kind">;

// Non-force: the remote's base must still be baseBefore (or an ancestor of commit), else it refuses.
async function push(repoDir: string, p: Landed): Promise<MergeOutcome> {
  const out = await gitCaptured(["push", "--porcelain", "origin", `${p.commit}:refs/heads/${p.base}`], {
    cwd: repoDir,
    timeoutMs: 600_000,
  });
  if (out.code === 0) return { kind: "merged", ...p };
  // A push that failed after the remote took it (a dropped connection) still landed: say so truthfully.
  const remote = await gitCaptured(["ls-remote", "origin", `refs/heads/${p.base}`], { cwd: repoDir });
  if (remote.code === 0 && remote.stdout.split(/\s/)[0] === p.commit) return { kind: "merged", ...p };
  const text = `${out.stdout}\n${out.stderr}`;
  // Refused as not a fast-forward, or lost the race at the remote's ref lock ("is at X but expected Y").
  if (/\[rejected\]|non-fast-forward|fetch first|stale info|cannot lock ref .* but expected/.test(text))
    return refused("base-moved", `the base branch "${p.base}" moved while merging; retry (nothing was pushed)`);
  // A non-bare repository refuses a push to the branch it has checked out; git's own hint about it
  // starts mid-sentence once cut to a line, so the reason and the way out are said first, in full.
  if (/refusing to update checked out branch|branch is currently checked out/.test(text))
    return refused(
      "push-refused",
      `the repository refused the push to "${p.base}" because "${p.base}" is checked out there (git ` +
        `refuses to update a checked-out branch of a non-bare repository). Point the Work's repository ` +
        `at a bare clone (git clone --bare), or check out another branch in that ` +
        `repository; nothing was merged`,
    );
  // A local repository the user git runs as may not write to (lib/runner/checkout/push-access.ts warns first).
  if (CANNOT_WRITE.test(text))
    return refused(
      "push-refused",
      `the repository refused the push to "${p.base}": ${runAsFromEnv()?.name ?? "the server's user"}, the user ` +
        `Gatehouse's git runs as, may not write to it. Give that user the repository (chown -R), or let a ` +
        `group it is in write to it; nothing was merged`,
    );
  const said = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^remote:/.test(l) || /^!/.test(l) || /^error:/.test(l) || /remote rejected/.test(l))
    .map((l) => l.replace(/^remote:\s*/, ""))
    .filter(Boolean)
    .slice(-6)
    .join(" · ");
  return refused(
    "push-refused",
    `the repository refused the push to "${p.base}": ` +
      `${said || `git push exited ${out.code ?? "without a code"}`}; nothing was merged`,
  );
}
