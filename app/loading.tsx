export default function Loading() {
  return (
    <div className="animate-pulse space-y-4" aria-busy="true">
      <span className="sr-only">Loading…</span>
      <div className="h-4 w-48 rounded bg-zinc-200 dark:bg-zinc-800" />
      <div className="h-8 w-2/3 rounded bg-zinc-200 dark:bg-zinc-800" />
      <div className="h-40 rounded-lg bg-zinc-200 dark:bg-zinc-800" />
    </div>
  );
}
