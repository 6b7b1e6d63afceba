// A check that passed after failing on the same commit: its verdict cannot be trusted either way.
export function FlakyLabel() {
  return (
    <span
      title="flaky: this check failed earlier on the same commit, then passed"
      className={
        "rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 " +
        "dark:bg-amber-900/40 dark:text-amber-200"
      }
    >
      flaky
    </span>
  );
}
