// Which of the Work repository's refs a task's checkout may carry beyond its own branch: none, unless the
// Work's `visibleRefs` (globs over the repository's ref names) opens some. The globs are matched against the
// refs the Work's repository has (its branches as refs/heads/…, its tags as refs/tags/…), never against the
// platform's clone, which also holds every task's branch: no glob, however wide, reaches another task.
import picomatch from "picomatch";

// Where a ref of the Work's repository lives in the platform's clone, and where it goes in a checkout.
export type VisibleRef = { name: string; clone: string; checkout: string };

const ORIGIN = "refs/remotes/origin/";

// The Work's `visibleRefs` as the run or Work record holds it (a frozen run's copy first); [] when absent.
export function visibleRefsOf(...records: ReadonlyArray<unknown>): string[] {
  for (const record of records) {
    const value = (record as { visibleRefs?: unknown } | null | undefined)?.visibleRefs;
    if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  }
  return [];
}

// A ref of the clone, named as the Work's repository names it (null for the clone's own refs: task branches).
function repositoryName(cloneRef: string): VisibleRef | null {
  if (cloneRef.startsWith(ORIGIN)) {
    const branch = cloneRef.slice(ORIGIN.length);
    // origin/HEAD is a pointer, not a branch of the repository.
    if (!branch || branch === "HEAD") return null;
    return { name: `refs/heads/${branch}`, clone: cloneRef, checkout: cloneRef };
  }
  if (cloneRef.startsWith("refs/tags/")) return { name: cloneRef, clone: cloneRef, checkout: cloneRef };
  return null;
}

// The clone's refs (as `git for-each-ref --format=%(refname)` lists them) that the globs open, sorted. A
// branch lands in the checkout as refs/remotes/origin/<branch>, as in any clone; a tag as itself.
export function selectVisibleRefs(globs: readonly string[], cloneRefs: readonly string[]): VisibleRef[] {
  if (globs.length === 0) return [];
  const isOpen = picomatch([...globs], { dot: true });
  return cloneRefs
    .map(repositoryName)
    .filter((ref): ref is VisibleRef => ref !== null && isOpen(ref.name))
    .sort((a, b) => a.checkout.localeCompare(b.checkout));
}

// Refs in a checkout that are the platform's to keep in line with visibleRefs (deleted when not open).
export function isManagedCheckoutRef(ref: string): boolean {
  return ref.startsWith("refs/tags/") || ref.startsWith("refs/remotes/");
}
