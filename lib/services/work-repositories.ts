// What a Work's repository and check sources may point at, checked when the Work is saved (the runner checks
// the local paths again when it clones): a local path or file:// URL must not lead into Gatehouse's data dir
// or install, and a check source must not be the local repository of a Work the person has no role on (the
// server would clone it for them and a check print it).
import type { Actor } from "../auth/actor";
import { dataDir } from "../config/database-url";
import { listWorks } from "../db/works";
import type { FieldIssue } from "../gates/field-issues";
import { isSameLocalRepository, localPathOf, localRepositoryProblem } from "../runner/checkout/local-repository";
import { git } from "../runner/checkout/git";
import { landingWarning } from "./merge";
import { refuseIssues } from "./validate";

type Saved = { repoUrl?: string; checkSources?: readonly { url: string }[] };

export async function refuseOutOfReachRepositories(actor: Actor, saved: Saved, workId: string | null): Promise<void> {
  const roots = { dataDir: dataDir(), installDir: process.cwd() };
  const issues: FieldIssue[] = [];
  if (saved.repoUrl !== undefined) {
    const problem = localRepositoryProblem(saved.repoUrl, roots);
    if (problem) issues.push({ path: "repoUrl", message: problem });
  }
  const sources = saved.checkSources ?? [];
  const locals = sources.map((s, i) => ({ url: s.url, i })).filter((s) => localPathOf(s.url) !== null);
  if (locals.length > 0) {
    const [all, mine] = await Promise.all([
      listWorks({ memberUserId: null }),
      actor.isAdmin ? null : listWorks({ memberUserId: actor.userId }),
    ]);
    const readable = new Set(mine === null ? all.map((w) => w.id) : mine.map((w) => w.id));
    if (workId) readable.add(workId);
    const closed = all.filter((w) => !readable.has(w.id));
    for (const { url, i } of locals) {
      const problem =
        localRepositoryProblem(url, roots) ??
        (closed.some((w) => isSameLocalRepository(w.repoUrl, url))
          ? "is the repository of a Work you have no role on: a check source must be a repository you may read"
          : null);
      if (problem) issues.push({ path: `checkSources.${i}.url`, message: problem });
    }
  }
  refuseIssues(issues);
}

// Whether the server can reach the repository now (`git ls-remote`, 15 s at most): the reason when it
// cannot, shown at once when a Work is saved rather than discovered at its first run. A clause without its
// full stop (git's own ends "…and the repository exists."), as pages put it inside a sentence of theirs.
const NO_BRANCH = "the repository has no branch ";
// A save's warning that the repository has no such base branch (probeRepository's).
export const isMissingBranchWarning = (issue: FieldIssue) =>
  issue.path === "baseBranch" && issue.message.startsWith(NO_BRANCH);

// Whether the repository answers, and (given one) whether it has the base branch: the one `ls-remote` both
// need. A problem as the field it is about and what is wrong, or null.
export async function probeRepository(repoUrl: string, baseBranch: string | null = null): Promise<FieldIssue | null> {
  const local = localPathOf(repoUrl);
  let heads: string[];
  try {
    const listed = await git(["ls-remote", "--heads", "--", local ?? repoUrl], { timeoutMs: 15_000 });
    heads = listed
      .split("\n")
      .map((line) => /\trefs\/heads\/(.+)$/.exec(line)?.[1])
      .filter((h): h is string => !!h);
  } catch (error) {
    const message = (error as Error).message
      .replace(/^git \S+ failed: /, "")
      .split("\n")[0]
      .replace(/[\s.]+$/, "");
    return { path: "repoUrl", message: `the repository ${repoUrl} cannot be reached: ${message}` };
  }
  if (!baseBranch || heads.includes(baseBranch)) return null;
  const has =
    heads.length === 0
      ? "it has no branch yet"
      : `it has ${heads.slice(0, 5).join(", ")}${heads.length > 5 ? ` and ${heads.length - 5} more` : ""}`;
  return {
    path: "baseBranch",
    message: `${NO_BRANCH}"${baseBranch}" (${has}): runs end inconclusive until it is pushed`,
  };
}

// The warnings a save answers with (the Work is saved either way: a repository may be down for a while, a
// branch checked out there may be switched): the repository cannot be reached (probed only when the save
// set the repository or the base branch: it may take 15 s) or has no such base branch, and Merge will fail
// because the base branch is checked out in it.
export async function saveWarnings(
  work: { repoUrl: string; baseBranch: string | null },
  options: { probe: boolean },
): Promise<FieldIssue[]> {
  const [probed, landing] = await Promise.all([
    options.probe ? probeRepository(work.repoUrl, work.baseBranch) : null,
    landingWarning(work),
  ]);
  return [...(probed ? [probed] : []), ...(landing ? [{ path: "baseBranch", message: landing }] : [])];
}
