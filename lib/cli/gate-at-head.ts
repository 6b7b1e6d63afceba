// "Push, run the gate, wait for the verdict" — what the stop hook, the MCP server's run_gate and `gatehouse
// gate` do: the clone's work goes to the task's branch, Gatehouse runs the next attempt at that commit
// (dispatching the task when it has no run in progress), and the answer is that attempt as it ended — or,
// with nothing changed since the last gated commit, that commit's verdict, no attempt spent.
import { cancelledByOf } from "../gates/run-ending";
import type { ApiClient, RunJson, TaskJson, WorkJson } from "./api-client";
import { commitOfWorkingTree, pushToTaskBranch } from "./push-head";
import { watchRun, type RunEvent } from "./watch-run";

type AttemptJson = RunJson["attempts"][number];
// isStanding: the working tree is the commit the latest attempt gated, whose verdict still stands; that attempt
// is the answer and no new one was run.
export type GateOutcome = {
  run: RunJson;
  attempt: AttemptJson;
  commit: string;
  isSnapshot: boolean;
  isStanding: boolean;
};
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
  },
): Promise<GateOutcome> {
  const latest = await settledLatestRun(client, opts.task.id);
  const tree = await commitOfWorkingTree(opts.cwd, opts.env);
  // Nothing changed since the last gated commit, its verdict still stands and no report is to be sent:
  // that attempt is the answer, and none is spent on asking again (an agent's turn that only answered a
  // question ends in a stop too).
  const last = latest?.attempts.at(-1);
  if (
    latest &&
    last?.status === "finished" &&
    last.commit === tree.commit &&
    verdictStands(latest, opts.task) &&
    !opts.report?.length
  )
    return { run: latest, attempt: last, ...tree, isStanding: true };
  await pushToTaskBranch({
    cwd: opts.cwd,
    repoUrl: opts.work.repoUrl,
    branch: opts.task.branch,
    remote: opts.remote,
    env: opts.env,
    commit: tree.commit,
  });
  const started = await client.attemptAt(opts.task.id, {
    commit: tree.commit,
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
  return { run, attempt, ...tree, isStanding: false };
}
