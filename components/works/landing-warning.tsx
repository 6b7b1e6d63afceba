import Link from "next/link";

// A Work whose merges cannot be pushed, said before anyone presses Merge, with the way to change the
// Work's repository: its settings' General section for whoever may change it, who does for everyone else.
export function LandingWarning({
  message,
  workId,
  canChangeRepository,
}: {
  message: string | null;
  workId: string;
  canChangeRepository: boolean;
}) {
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
      {message}{" "}
      {canChangeRepository ? (
        <Link className="font-medium underline" href={`/works/${workId}/settings/general`}>
          Change the Work&apos;s repository
        </Link>
      ) : (
        "An admin changes a Work's repository."
      )}
    </p>
  );
}
