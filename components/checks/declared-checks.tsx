// The checks a dispatch would freeze right now, with where each came from and what is suppressed.
import { whatCheckRuns } from "@/lib/gates/builtins";
import type { EffectiveCheck } from "@/lib/gates/merge-checks";
import { DEFAULT_TIMEOUT_SEC } from "@/lib/gates/check-schema";
import { KindLabel, RequiredLabel, SourceLabel } from "./kind-label";
import { EmptyState, rowListClass } from "../ui/page-parts";
import { showControls } from "@/lib/format";

export function DeclaredChecks({
  checks,
  suppressed,
  warnings,
  showSource = true,
}: {
  checks: (EffectiveCheck | (Omit<EffectiveCheck, "source"> & { source?: undefined }))[];
  suppressed: string[];
  warnings: string[];
  showSource?: boolean;
}) {
  return (
    <div className="space-y-3">
      {checks.length === 0 ? (
        <EmptyState title="No checks declared">
          A run of this task would verify nothing: its gate would be green by default only.
        </EmptyState>
      ) : (
        <ol className={rowListClass} aria-label="Declared checks">
          {checks.map((check) => (
            <li key={check.id} className="grid gap-2 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start">
              <div className="min-w-0">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium [overflow-wrap:anywhere]">{check.name}</span>
                  <code className="text-xs text-zinc-500 dark:text-zinc-400">{check.id}</code>
                  <KindLabel kind={check.kind} />
                  {showSource && check.source ? <SourceLabel source={check.source} /> : null}
                  <span className="text-xs text-zinc-500 dark:text-zinc-400">
                    {check.executor === "agent" ? "reported by the agent" : "run by Gatehouse"}
                    {check.hidden ? " · held out from the agent" : ""}
                  </span>
                </div>
                {check.hidden && whatCheckRuns(check) === "" ? (
                  <p className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">Its command is shown to leads.</p>
                ) : (
                  <pre
                    className={
                      "mt-1.5 overflow-x-auto rounded bg-zinc-50 px-2 py-1 font-mono text-xs " +
                      "text-zinc-700 dark:bg-zinc-950 dark:text-zinc-300"
                    }
                  >
                    <span className="select-none text-zinc-500 dark:text-zinc-400">
                      {check.executor === "agent" ? "" : check.use ? "built-in " : "$ "}
                    </span>
                    {showControls(whatCheckRuns(check))}
                  </pre>
                )}
                <div className="mt-1 flex flex-wrap gap-x-3 text-xs text-zinc-500 dark:text-zinc-400">
                  {check.cwd ? <span>in {check.cwd}</span> : null}
                  {check.executor === "agent" ? null : <span>timeout {check.timeoutSec ?? DEFAULT_TIMEOUT_SEC}s</span>}
                  {check.expectExit !== undefined ? <span>passes on exit {check.expectExit}</span> : null}
                  {check.expectStdout !== undefined ? <span>output must contain “{check.expectStdout}”</span> : null}
                  {check.envPassthrough?.length ? <span>sees {check.envPassthrough.join(", ")}</span> : null}
                </div>
              </div>
              <RequiredLabel required={check.required} />
            </li>
          ))}
        </ol>
      )}
      {suppressed.length > 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Suppressed for this task:{" "}
          {suppressed.map((id) => (
            <code key={id} className="mr-1.5 rounded bg-zinc-100 px-1 line-through dark:bg-zinc-800">
              {id}
            </code>
          ))}
        </p>
      ) : null}
      {warnings.map((w) => (
        <p
          key={w}
          role="note"
          className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          {w}
        </p>
      ))}
    </div>
  );
}
