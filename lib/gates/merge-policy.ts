// Landing the work (SPEC Part 2): how a task's branch goes into the base branch, and when a merge is
// refused before any git runs. Pure rules; the git side is lib/runner/checkout/merge-branch.ts.
import { z } from "zod";
import type { Gate } from "./gate";
import type { Ending, RunStatus } from "./run-ending";

export const MERGE_METHODS = ["merge", "squash", "fast-forward"] as const;
export type MergeMethod = (typeof MERGE_METHODS)[number];

const ZFlag = z.boolean({ error: "must be true or false" });
export const ZMergePolicy = z.strictObject(
  {
    requireGreenGate: ZFlag.default(true),
    autoMerge: ZFlag.default(false),
    method: z.enum(MERGE_METHODS, { error: "must be one of merge, squash, fast-forward" }).default("merge"),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown field: ${(issue.keys ?? []).join(", ")}` : "must be an object",
  },
);
export type MergePolicy = z.output<typeof ZMergePolicy>;
export const DEFAULT_MERGE_POLICY: MergePolicy = { requireGreenGate: true, autoMerge: false, method: "merge" };

// The task's latest run as the rule needs it; `head` and `isDirty` are its last attempt's (the commit its
// checks ran on, and whether the worktree had uncommitted changes then).
export type LatestRun = {
  number: number;
  status: RunStatus;
  ending: Ending | null;
  gate: Gate;
  head: string | null;
  isDirty: boolean;
};

// The setting a refusal comes from, named as the Work's Merge settings show it (and the gates file spells it),
// after the plain reason.
const ASKS_GREEN = "; the Work's merge settings ask for an accepted run with a green gate (require_green_gate)";

// Why a merge is refused before git is asked anything but the branch's head; null: go ahead.
// `branchHead` null: the branch does not exist (undefined: not known yet, as on a page).
export function refuseMerge(opts: {
  policy: MergePolicy;
  latest: LatestRun | null;
  branch: string;
  branchHead?: string | null;
}): string | null {
  const { policy, latest, branch, branchHead } = opts;
  if (branchHead === null) return `the branch "${branch}" does not exist (nothing has been committed on it)`;
  if (!policy.requireGreenGate) return null;
  if (!latest) return `the task has not been run yet${ASKS_GREEN}`;
  if (latest.status !== "finished") return `run #${latest.number} is still ${latest.status}; merge once it is accepted`;
  if (latest.ending !== "accepted") return `the latest run #${latest.number} ended ${latest.ending}${ASKS_GREEN}`;
  if (latest.gate !== "green")
    return (
      `the gate of run #${latest.number} is ${latest.gate}, not green (it was accepted without a green ` +
      `gate)${ASKS_GREEN}`
    );
  if (!latest.head) return `run #${latest.number} recorded no commit to merge`;
  if (latest.isDirty)
    return `run #${latest.number} was accepted on uncommitted changes; commit them and run the task again`;
  if (branchHead !== undefined && branchHead !== latest.head)
    return (
      `the branch moved since run #${latest.number}: it is at ${branchHead.slice(0, 12)}, the run was ` +
      `accepted at ${latest.head.slice(0, 12)}; run the task again`
    );
  return null;
}

// Whether the task's branch is still where its last merge took it, so a Merge would find nothing to merge
// (the page then shows "Merged as" alone, and offers Merge again once the branch moves past the merge).
// `branchHead`: the branch's head as far as the page knows it without git (the task's checkout, else its
// latest run's commit); undefined: not known, and the merge is taken to stand. A merge recorded before
// its head was (`head` null) stands until a run starts after it.
export function isMergedAtHead(opts: {
  merged: { head: string | null; at: Date } | null;
  branchHead?: string | null;
  latestRunAt: Date | null;
}): boolean {
  const { merged, branchHead, latestRunAt } = opts;
  if (!merged) return false;
  if (merged.head === null) return !latestRunAt || latestRunAt <= merged.at;
  return branchHead === undefined || branchHead === merged.head;
}

export function mergeMessage(opts: { method: MergeMethod; key: string; title: string; branch: string; head: string }) {
  return opts.method === "squash"
    ? `${opts.key}: ${opts.title}\n\nSquashed from branch ${opts.branch} at ${opts.head}.\n`
    : `Merge branch '${opts.branch}' (${opts.key}: ${opts.title})\n`;
}
