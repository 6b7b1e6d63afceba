// A Work whose merges cannot be pushed, said before anyone presses Merge.
export function LandingWarning({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="note"
      aria-label="Merge will fail"
      className={
        "mb-6 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm break-words " +
        "text-amber-950 dark:border-amber-700/60 dark:bg-amber-950/40 dark:text-amber-100"
      }
    >
      {message}
    </p>
  );
}
