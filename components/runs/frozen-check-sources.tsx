// The check sources a run froze: each repository, its ref, and the commit the ref had when the run started
// (the commit every attempt's checks were given).
import type { FrozenCheckSource } from "@/lib/gates/check-sources";
import { shortCommit } from "@/lib/format";

export function FrozenCheckSources({ sources, isFinished }: { sources: FrozenCheckSource[]; isFinished: boolean }) {
  if (sources.length === 0) return null;
  return (
    <div className="mt-4">
      <h3 className="mb-1 text-sm font-semibold">Check sources</h3>
      <p className="mb-2 text-xs text-zinc-600 dark:text-zinc-400">
        Cloned fresh after each agent step at these commits, read-only, outside the checkout.
      </p>
      <ul aria-label="Check sources" className="space-y-1 text-sm">
        {sources.map((s) => (
          <li key={s.name} className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
            <code className="font-mono font-semibold">{s.name}</code>
            <code className="min-w-0 break-all font-mono text-xs text-zinc-600 dark:text-zinc-400">{s.url}</code>
            <span className="text-zinc-600 dark:text-zinc-400">
              at <code className="font-mono text-xs">{s.ref}</code> →{" "}
              {s.commit ? (
                <code className="font-mono text-xs" title={s.commit}>
                  {shortCommit(s.commit)}
                </code>
              ) : (
                <span>{isFinished ? "not resolved" : "resolved when the run starts"}</span>
              )}
            </span>
            {s.secret ? <span className="text-xs text-zinc-600 dark:text-zinc-400">credential {s.secret}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
