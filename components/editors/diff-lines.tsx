// A readable settings diff: added in green, removed in red, changes as before → after.
import type { DiffLine } from "@/lib/gates/settings-diff";

export function DiffLines({ lines }: { lines: DiffLine[] }) {
  if (lines.length === 0) return <p className="text-sm text-zinc-500 dark:text-zinc-400">No difference.</p>;
  return (
    <ul className="space-y-1 font-mono text-xs" aria-label="Changes">
      {lines.map((line, i) => (
        <li key={i} className="rounded bg-white/70 px-2 py-1 [overflow-wrap:anywhere] dark:bg-zinc-950/60">
          <span className="font-semibold">{line.path}</span>{" "}
          {line.change === "added" ? (
            <span className="text-emerald-700 dark:text-emerald-400">added {line.after}</span>
          ) : null}
          {line.change === "removed" ? (
            <span className="text-rose-700 line-through dark:text-rose-400">{line.before}</span>
          ) : null}
          {line.change === "changed" || line.change === "moved" ? (
            <>
              <span className="text-rose-700 line-through dark:text-rose-400">{line.before}</span> →{" "}
              <span className="text-emerald-700 dark:text-emerald-400">{line.after}</span>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
