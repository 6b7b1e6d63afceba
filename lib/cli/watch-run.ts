// Following a run until it stops moving (finished, or waiting for a fix), reporting what changed as it
// happens: each attempt as it starts, the agent step and each check as its verdict lands. Polls the run
// once a second and stops as soon as it is not live.
import type { ApiClient, RunJson } from "./api-client";

type AttemptJson = RunJson["attempts"][number];
type CheckRow = AttemptJson["checks"][number];

export type RunEvent =
  | { kind: "attempt"; n: number; of: number }
  | { kind: "agent"; n: number; agent: NonNullable<AttemptJson["agent"]> }
  | { kind: "check"; n: number; check: CheckRow }
  | { kind: "end"; run: RunJson };

const SETTLED = new Set(["passed", "failed", "timeout", "error", "hollow", "skipped"]);

export async function watchRun(
  client: ApiClient,
  runId: string,
  opts: {
    onEvent?: (event: RunEvent) => void;
    // Keep following until this attempt has finished (a run just asked for it may still read as waiting).
    untilAttempt?: number;
    intervalMs?: number;
    signal?: AbortSignal;
  } = {},
): Promise<RunJson> {
  const seen = new Set<string>();
  const emit = (key: string, event: RunEvent) => {
    if (seen.has(key)) return;
    seen.add(key);
    opts.onEvent?.(event);
  };
  for (;;) {
    const run = await client.run(runId);
    for (const attempt of run.attempts) {
      if (attempt.status === "queued") continue;
      emit(`a${attempt.n}`, { kind: "attempt", n: attempt.n, of: run.maxAttempts });
      if (attempt.agent && attempt.agent.verdict !== "running")
        emit(`a${attempt.n}:agent`, { kind: "agent", n: attempt.n, agent: attempt.agent });
      for (const check of attempt.checks)
        if (SETTLED.has(check.verdict)) emit(`a${attempt.n}:${check.checkId}`, { kind: "check", n: attempt.n, check });
    }
    const wanted = opts.untilAttempt ? run.attempts.find((a) => a.n === opts.untilAttempt) : null;
    const isWantedDone = !opts.untilAttempt || wanted?.status === "finished" || run.status === "finished";
    if (run.status !== "queued" && run.status !== "running" && isWantedDone) {
      opts.onEvent?.({ kind: "end", run });
      return run;
    }
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error("aborted");
    await new Promise((resolve) => setTimeout(resolve, opts.intervalMs ?? 1000));
  }
}

// One line per event, for a terminal.
export function formatEvent(event: RunEvent): string | null {
  switch (event.kind) {
    case "attempt":
      return `attempt ${event.n} of ${event.of}`;
    case "agent": {
      const { verdict, message, result } = event.agent;
      const session = result
        ? [
            result.turns === null ? null : `${result.turns} turns`,
            result.inputTokens === null ? null : `${result.inputTokens} in / ${result.outputTokens ?? 0} out tokens`,
            result.costUsd === null ? null : `$${result.costUsd}`,
          ].filter(Boolean)
        : [];
      return `  ${"agent".padEnd(7)} ${verdict}${[...session, message]
        .filter(Boolean)
        .map((p) => ` · ${p}`)
        .join("")}`;
    }
    case "check": {
      const c = event.check;
      const exit = c.exitCode === null ? "" : ` (exit ${c.exitCode})`;
      const message = !c.hidden && c.message ? ` · ${c.message}` : "";
      return `  ${c.verdict.padEnd(7)} ${c.name}${c.required ? "" : " (not required)"}${exit}${message}`;
    }
    case "end":
      return null;
  }
}
