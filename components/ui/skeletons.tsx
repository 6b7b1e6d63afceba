// Loading placeholders shaped like the pages they stand in for.
import { rowListClass } from "./page-parts";

function Bar({ className }: { className: string }) {
  return <div className={`rounded bg-zinc-200 dark:bg-zinc-800 ${className}`} />;
}

function RowsSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <div className={rowListClass}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center gap-4 px-4 py-3.5">
          <Bar className="h-3 w-3" />
          <Bar className="h-3.5 w-48" />
          <Bar className="ml-auto h-5 w-20 rounded-full" />
        </div>
      ))}
    </div>
  );
}

export function PageSkeleton({ kind }: { kind: "list" | "task" | "run" | "log" }) {
  return (
    <div className="animate-pulse" aria-busy="true">
      <span className="sr-only">Loading…</span>
      <Bar className="mb-3 h-3.5 w-56" />
      <Bar className="mb-2 h-7 w-2/3 max-w-xl" />
      <Bar className="mb-8 h-3.5 w-80 max-w-full" />
      {kind === "log" ? <div className="h-[60vh] rounded-lg bg-zinc-900" /> : null}
      {kind === "list" ? <RowsSkeleton rows={6} /> : null}
      {kind === "task" || kind === "run" ? (
        <>
          <Bar className="mb-3 h-4 w-24" />
          <div
            className={
              "mb-3 flex items-center justify-between rounded-t-lg border border-zinc-200 bg-white " +
              "px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900"
            }
          >
            <Bar className="h-7 w-28 rounded-full" />
            <Bar className="h-4 w-32" />
          </div>
          <RowsSkeleton rows={4} />
        </>
      ) : null}
    </div>
  );
}
