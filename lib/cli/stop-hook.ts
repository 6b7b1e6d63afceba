// The agent's Stop hook (`gatehouse hook claude-code|codex --task …`). Claude Code and Codex run it with a
// JSON payload on stdin when the agent wants to end its turn; an answer of {"decision":"block","reason"}
// on stdout sends the agent back to work with the reason as its next message. On a red gate the reason is
// the failing checks; on green, or when going on would be pointless, the agent may stop, and the hook
// says why. It never loops forever: after a block (stop_hook_active) it stops when nothing changed since
// the gated commit, and the run's attempt budget ends the loop in any case.
import type { ApiClient, TaskJson, WorkJson } from "./api-client";
import { describeFailures } from "./agent-feedback";
import { describeEnd } from "./endings";
import { gateAtHead, settledLatestRun } from "./gate-at-head";
import { commitOfWorkingTree } from "./push-head";

export type HookPayload = { stop_hook_active?: boolean; cwd?: string };
// What the hook prints on stdout (JSON) and the line it leaves on stderr for the person watching.
export type HookAnswer = { stdout: { decision?: "block"; reason?: string; systemMessage?: string }; note: string };

export function parseHookPayload(text: string): HookPayload {
  try {
    const parsed = JSON.parse(text || "{}") as HookPayload;
    return parsed && typeof parsed === "object" ? parsed : {};
  } catch {
    return {};
  }
}

const allowStop = (message: string): HookAnswer => ({ stdout: { systemMessage: message }, note: message });

export async function answerStop(
  client: ApiClient,
  opts: {
    task: TaskJson;
    work: WorkJson;
    payload: HookPayload;
    cwd: string;
    env: NodeJS.ProcessEnv;
    remote?: string;
    log?: (line: string) => void;
  },
): Promise<HookAnswer> {
  const { task, payload } = opts;
  const cwd = payload.cwd || opts.cwd;
  if (payload.stop_hook_active) {
    // Sent back once already: gate again only if the agent changed something since the gated commit.
    const latest = await settledLatestRun(client, task.id);
    const last = latest?.attempts.at(-1);
    const { commit } = await commitOfWorkingTree(cwd, opts.env);
    if (latest && last?.commit === commit)
      return allowStop(
        `gatehouse: nothing changed since attempt ${last.n} of run #${latest.number} (gate ` +
          `${last.gate}); letting the agent stop`,
      );
  }
  const outcome = await gateAtHead(client, {
    task,
    work: opts.work,
    cwd,
    env: opts.env,
    remote: opts.remote,
    onEvent: (event) => {
      if (event.kind === "check") opts.log?.(`gatehouse: ${event.check.verdict} ${event.check.name}`);
    },
  });
  const { run, attempt } = outcome;
  if (attempt.gate === "green" || attempt.gate === "off" || run.ending === "accepted")
    return allowStop(
      `gatehouse: gate ${attempt.gate} on attempt ${attempt.n} of ${run.maxAttempts} — ${describeEnd(run)}`,
    );
  if (run.status === "waiting") {
    const reason =
      `${describeFailures(run, attempt)}\n\nFix what fails, then stop again: Gatehouse runs the gate ` +
      `on your next stop (${run.maxAttempts - attempt.n} attempt` +
      `${run.maxAttempts - attempt.n === 1 ? "" : "s"} left).`;
    return {
      stdout: { decision: "block", reason },
      note: `gatehouse: gate ${attempt.gate} on attempt ${attempt.n} of ${run.maxAttempts}; sent back to the agent`,
    };
  }
  // The run has ended without green (attempts or budget spent: partial; or inconclusive, cancelled).
  return allowStop(`gatehouse: ${describeEnd(run)}; not sending the agent back (the run has ended)`);
}
