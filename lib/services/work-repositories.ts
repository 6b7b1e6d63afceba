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
export async function probeRepository(repoUrl: string): Promise<string | null> {
  const local = localPathOf(repoUrl);
  try {
    await git(["ls-remote", "--heads", "--", local ?? repoUrl], { timeoutMs: 15_000 });
    return null;
  } catch (error) {
    const message = (error as Error).message
      .replace(/^git \S+ failed: /, "")
      .split("\n")[0]
      .replace(/[\s.]+$/, "");
    return `the repository ${repoUrl} cannot be reached: ${message}`;
  }
}

// The warnings a save answers with (the Work is saved either way: a repository may be down for a while, a
// branch checked out there may be switched): the repository cannot be reached (probed only when the save
// set the repository: it may take 15 s), and Merge will fail because the base branch is checked out in it.
export async function saveWarnings(
  work: { repoUrl: string; baseBranch: string | null },
  options: { probe: boolean },
): Promise<FieldIssue[]> {
  const [unreachable, landing] = await Promise.all([
    options.probe ? probeRepository(work.repoUrl) : null,
    landingWarning(work),
  ]);
  return [
    ...(unreachable ? [{ path: "repoUrl", message: unreachable }] : []),
    ...(landing ? [{ path: "baseBranch", message: landing }] : []),
  ];
}
