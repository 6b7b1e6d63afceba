// What the Work's verification profile asks of a run, said before anyone dispatches.
import { profileRequirements, type ProfileRequirementsInput } from "@/lib/gates/profile-requirements";

export function ProfileNote(props: ProfileRequirementsInput) {
  const lines = profileRequirements(props);
  return (
    <div
      role="note"
      aria-label="What the profile requires"
      data-testid="profile-note"
      className={
        "rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-950 " +
        "dark:border-sky-900 dark:bg-sky-950/50 dark:text-sky-100"
      }
    >
      {lines.map((line) => (
        <p key={line} className="break-words">
          {line}
        </p>
      ))}
    </div>
  );
}
