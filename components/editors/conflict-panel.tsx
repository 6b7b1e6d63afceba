"use client";
// A save refused because someone else saved first: what they changed, and the two ways on.
import { diffSettings } from "@/lib/gates/settings-diff";
import { Button } from "../ui/button";
import { DiffLines } from "./diff-lines";

type Props = {
  what: string;
  theirVersion: number;
  before: Record<string, unknown>;
  theirs: Record<string, unknown>;
  onLoadTheirs: () => void;
  onKeepMine: () => void;
};

export function ConflictPanel({ what, theirVersion, before, theirs, onLoadTheirs, onKeepMine }: Props) {
  const lines = diffSettings(before, theirs);
  return (
    <section
      role="alert"
      aria-labelledby="conflict-title"
      className="rounded-lg border border-rose-300 bg-rose-50 p-4 dark:border-rose-800 dark:bg-rose-950/40"
    >
      <h3 id="conflict-title" className="font-semibold text-rose-900 dark:text-rose-100">
        Not saved: someone else saved this {what} first (version {theirVersion})
      </h3>
      <p className="mt-1 text-sm text-rose-900 dark:text-rose-200">
        Nothing of yours was written. Here is what they changed since you opened it:
      </p>
      <div className="mt-3">
        <DiffLines lines={lines} />
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="secondary" onClick={onLoadTheirs}>
          Load their version (drop my edits)
        </Button>
        <Button variant="primary" onClick={onKeepMine}>
          Keep my edits on top of theirs
        </Button>
      </div>
      <p className="mt-2 text-xs text-rose-800 dark:text-rose-300">
        Keeping yours and saving again replaces the fields you edited with your values.
      </p>
    </section>
  );
}
