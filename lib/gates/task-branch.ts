// Where a task's branch may not be, against the Work's base branch (pure): the base branch itself (the task's
// runs would move the branch changes land on), nor in its place as a folder ("main/x" beside "main",
// "release" beside "release/1"): git cannot hold both, a branch being a file where the other needs a folder.
export function branchBesideBaseProblem(branch: string, base: string): string | null {
  if (branch === base) return `"${branch}" is the Work's base branch; a task works on a branch of its own`;
  const [inner, outer] = branch.startsWith(`${base}/`)
    ? [branch, base]
    : base.startsWith(`${branch}/`)
      ? [base, branch]
      : [];
  if (!inner) return null;
  return (
    `"${branch}" cannot be beside the Work's base branch "${base}": git cannot hold both "${outer}" and ` +
    `"${inner}" (a branch is a file where the other needs a folder)`
  );
}
