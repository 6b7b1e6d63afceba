// The agent's Stop hook (`gatehouse hook claude-code|codex --task …`). Claude Code and Codex run it with a
// JSON payload on stdin when the agent wants to end its turn; an answer of {"decision":"block","reason"}
// on stdout sends the agent back to work with the reason as its next message. On a red gate the reason is
// the failing checks; on green, or when going on would be pointless, the agent may stop, and the hook
// says why. A stop with nothing changed since the last gated commit spends no attempt: that verdict stands
// (sent back once with it; after a block, stop_hook_active, let stop), and the run's attempt budget ends
// the loop in any case.
import type { ApiClient, RunJson, TaskJson, WorkJson } from "./api-client";
import { describeFailures } from "./agent-feedback";
import { describeEnd } from "./endings";
import { gateAtHead } from "./gate-at-head";
import { formatEvent } from "./watch-run";

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

type AttemptJson = RunJson["attempts"][number];

const sendBack = (reason: string, note: string): HookAnswer => ({ stdout: { decision: "block", reason }, note });

function attemptsLeft(run: RunJson, attempt: AttemptJson): string {
  const left = run.maxAttempts - attempt.n;
  return `${left} attempt${left === 1 ? "" : "s"} left`;
}

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
  const outcome = await gateAtHead(client, {
    task,
    work: opts.work,
    cwd,
    env: opts.env,
    remote: opts.remote,
    onEvent: (event) => {
      const line = formatEvent(event);
      if (line) opts.log?.(`gatehouse: ${line}`);
    },
  });
  const { run, attempt } = outcome;
  // Nothing changed since the last gated commit: no attempt was spent, and that commit's verdict stands.
  if (outcome.isStanding) {
    const unchanged = `nothing changed since attempt ${attempt.n} of run #${run.number} (gate ${attempt.gate})`;
    // Sent back once already (stop_hook_active), it may stop: the loop ends here.
    if (run.status !== "waiting" || payload.stop_hook_active)
      return allowStop(`gatehouse: ${unchanged}; letting the agent stop`);
    return sendBack(
      `${describeFailures(run, attempt)}\n\nNothing has changed since attempt ${attempt.n} (commit ` +
        `${outcome.commit.slice(0, 12)}), so no attempt was spent on this stop. Fix what fails, then stop again: ` +
        `Gatehouse runs the gate on your next stop (${attemptsLeft(run, attempt)}).`,
      `gatehouse: ${unchanged}; sent back to the agent with attempt ${attempt.n}'s failures`,
    );
  }
  if (attempt.gate === "green" || attempt.gate === "off" || run.ending === "accepted")
    return allowStop(
      `gatehouse: gate ${attempt.gate} on attempt ${attempt.n} of ${run.maxAttempts} — ${describeEnd(run)}`,
    );
  if (run.status === "waiting")
    return sendBack(
      `${describeFailures(run, attempt)}\n\nFix what fails, then stop again: Gatehouse runs the gate on your ` +
        `next stop (${attemptsLeft(run, attempt)}).`,
      `gatehouse: gate ${attempt.gate} on attempt ${attempt.n} of ${run.maxAttempts}; sent back to the agent`,
    );
  // The run has ended without green (attempts or budget spent: partial; or inconclusive, cancelled).
  return allowStop(`gatehouse: ${describeEnd(run)}; not sending the agent back (the run has ended)`);
}
