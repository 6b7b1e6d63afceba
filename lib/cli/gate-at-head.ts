// "Push, run the gate, wait for the verdict" — what the stop hook and the MCP server's run_gate do: the
// clone's work goes to the task's branch, Gatehouse runs the next attempt at that commit (dispatching the
// task when it has no run in progress), and the answer is that attempt as it ended.
import { cancelledByOf } from "../gates/run-ending";
import type { ApiClient, RunJson, TaskJson, WorkJson } from "./api-client";
import { commitOfWorkingTree, pushToTaskBranch } from "./push-head";
import { watchRun, type RunEvent } from "./watch-run";

type AttemptJson = RunJson["attempts"][number];
export type GateOutcome = { run: RunJson; attempt: AttemptJson; commit: string; isSnapshot: boolean };
export type ReportEntry = { id: string; status: "pass" | "fail"; message?: string };

// The task's latest run, once it is not executing (a run in progress is waited for, never raced).
export async function settledLatestRun(client: ApiClient, taskId: string): Promise<RunJson | null> {
  const [latest] = await client.runsOf(taskId);
  if (!latest) return null;
  return latest.status === "queued" || latest.status === "running"
    ? watchRun(client, latest.id)
    : client.run(latest.id);
}

// Whether a run's verdict still stands for the commit it gated: it waits for a fix, or it ended with a
// verdict (accepted, partial, rejected by a person) at the stage the task stands at now. An inconclusive run
// (something around the work failed), a cancelled one, or one of an earlier stage decided nothing the task
// needs now: the commit is gated again.
function verdictStands(run: RunJson, task: TaskJson): boolean {
  if (run.status === "waiting") return true;
  const isVerdict =
    run.ending === "accepted" || run.ending === "partial" || (run.ending === "rejected" && !cancelledByOf(run));
  return isVerdict && (run.stage ?? null) === (task.stage ?? null);
}

type HeadState = {
  tree: { commit: string; isSnapshot: boolean };
  // The latest attempt, when it gated the working tree's commit and its run's verdict still stands: gating
  // that commit again would spend an attempt on an answer already given.
  standing: { run: RunJson; attempt: AttemptJson } | null;
};

// The clone's work against the gate: the task's latest run once settled, and the working tree's commit.
export async function readHead(
  client: ApiClient,
  opts: { task: TaskJson; cwd: string; env: NodeJS.ProcessEnv },
): Promise<HeadState> {
  const latest = await settledLatestRun(client, opts.task.id);
  const tree = await commitOfWorkingTree(opts.cwd, opts.env);
  const last = latest?.attempts.at(-1);
  const isStanding =
    !!latest && last?.status === "finished" && last.commit === tree.commit && verdictStands(latest, opts.task);
  return { tree, standing: isStanding && latest && last ? { run: latest, attempt: last } : null };
}

export async function gateAtHead(
  client: ApiClient,
  opts: {
    task: TaskJson;
    work: WorkJson;
    cwd: string;
    // The CLI's environment, for git (push-head.ts).
    env: NodeJS.ProcessEnv;
    remote?: string;
    report?: ReportEntry[];
    onEvent?: (event: RunEvent) => void;
    // Given by a caller that has already waited for the task's latest run to settle and read the working
    // tree's commit (the stop hook compares it with the last gated one): neither is done again.
    settledAt?: { commit: string; isSnapshot: boolean };
  },
): Promise<GateOutcome> {
  if (!opts.settledAt) await settledLatestRun(client, opts.task.id);
  const pushed = await pushToTaskBranch({
    cwd: opts.cwd,
    repoUrl: opts.work.repoUrl,
    branch: opts.task.branch,
    remote: opts.remote,
    env: opts.env,
    tree: opts.settledAt,
  });
  const started = await client.attemptAt(opts.task.id, {
    commit: pushed.commit,
    ...(opts.report?.length ? { report: { checks: opts.report } } : {}),
  });
  // Only this attempt's events: the earlier attempts' checks were told when they ran.
  const run = await watchRun(client, started.runId, {
    untilAttempt: started.attempt,
    onEvent: (event) => {
      if (event.kind === "end" || event.n === started.attempt) opts.onEvent?.(event);
    },
  });
  const attempt = run.attempts.find((a) => a.n === started.attempt) ?? run.attempts[run.attempts.length - 1];
  return { run, attempt, commit: pushed.commit, isSnapshot: pushed.isSnapshot };
}
