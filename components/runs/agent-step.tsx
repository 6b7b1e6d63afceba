"use client";
// The agent step of an attempt: its verdict, the brief it was given, and its log tail.
import { formatDuration } from "@/lib/format";
import { formatUsd } from "@/lib/gates/usd-budget";
import type { AttemptJson } from "@/lib/api/run-json";
import { VerdictBadge } from "../checks/verdict-badge";
import { LogTail } from "../logs/log-tail";
import { onDetailsToggle } from "../ui/details-toggle";
import { ChevronRightIcon } from "../ui/icons";

// isOpen is kept by the panel (the run page's address), as a check row's is; the step says when the reader opens or
// closes it.
export function AgentStep({
  attempt,
  logHref,
  isOpen,
  onOpenChange,
}: {
  attempt: AttemptJson;
  logHref: string;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
}) {
  const agent = attempt.agent;
  if (!agent) return null;
  return (
    <div data-testid="agent-step" className="border-b border-zinc-200 dark:border-zinc-800">
      <details
        open={isOpen}
        onToggle={onDetailsToggle(isOpen, onOpenChange)}
        className="[&[open]>summary_.chevron]:rotate-90"
      >
        {/* Named by its content (Agent, exit, duration, message, verdict): all it shows, in order. */}
        <summary
          className={
            "grid cursor-pointer list-none grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-3 " +
            "bg-zinc-50/70 px-4 py-3 hover:bg-zinc-100/70 dark:bg-zinc-900/60 " +
            "dark:hover:bg-zinc-800/50 [&::-webkit-details-marker]:hidden"
          }
        >
          <ChevronRightIcon className="chevron text-zinc-400 transition-transform" />
          <span className="min-w-0">
            <span className="font-medium">Agent</span>
            <span className="ml-2 text-xs text-zinc-500 dark:text-zinc-400">
              {agent.exitCode === null ? "" : `exit ${agent.exitCode} · `}
              {formatDuration(agent.durationMs)}
            </span>
            {agent.result ? <AgentSession result={agent.result} /> : null}
            {agent.message ? (
              <span className="mt-0.5 block truncate font-mono text-xs text-zinc-600 dark:text-zinc-400">
                {agent.message}
              </span>
            ) : null}
          </span>
          <VerdictBadge verdict={agent.verdict} />
        </summary>
        <div className="space-y-3 px-4 py-3">
          {attempt.brief ? (
            <details className="rounded-md border border-zinc-200 dark:border-zinc-800">
              <summary className="cursor-pointer px-3 py-2 text-sm font-medium">Brief the agent was given</summary>
              <pre
                // It scrolls, so the keyboard must reach it (WCAG 2.1.1).
                // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls (see above)
                tabIndex={0}
                className={
                  "max-h-96 overflow-auto border-t border-zinc-200 px-3 py-2 font-mono text-xs " +
                  "whitespace-pre-wrap dark:border-zinc-800"
                }
              >
                {attempt.brief}
              </pre>
            </details>
          ) : null}
          <LogTail
            text={agent.logTail}
            totalBytes={agent.logBytes}
            note={agent.logNote}
            fullLogHref={logHref}
            isLive={agent.verdict === "running"}
          />
        </div>
      </details>
    </div>
  );
}

type AgentSessionResult = NonNullable<NonNullable<AttemptJson["agent"]>["result"]>;

// Turns, tokens and cost as the agent CLI reported them (only what it reported).
function AgentSession({ result }: { result: AgentSessionResult }) {
  const parts = [
    result.turns === null ? null : `${result.turns} turn${result.turns === 1 ? "" : "s"}`,
    result.inputTokens === null && result.outputTokens === null
      ? null
      : `${formatCount(result.inputTokens ?? 0)} in / ${formatCount(result.outputTokens ?? 0)} out tokens`,
    result.costUsd === null ? null : formatUsd(result.costUsd),
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return (
    <span data-testid="agent-session" className="ml-2 text-xs text-zinc-500 dark:text-zinc-400">
      · {parts.join(" · ")}
    </span>
  );
}

function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}
