// A Work whose repository is a local, non-bare git repository with the base branch checked out can run
// tasks but never land them: git refuses a push to a checked-out branch. Said when the Work is shown,
// before anyone presses Merge.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { gitCaptured } from "./git";
import { resolveRepoUrl } from "./checkout";

function localPathOf(repoUrl: string): string | null {
  if (/^file:\/\//i.test(repoUrl)) {
    try {
      return fileURLToPath(repoUrl);
    } catch {
      return null;
    }
  }
  const resolved = resolveRepoUrl(repoUrl);
  return resolved.startsWith("/") ? resolved : null;
}

// The warning, or null when merges can push (a bare repository, a remote URL, another branch checked out,
// or a repository set to accept such pushes with receive.denyCurrentBranch).
export async function checkedOutBaseWarning(work: {
  repoUrl: string;
  baseBranch: string | null;
}): Promise<string | null> {
  const dir = localPathOf(work.repoUrl);
  if (!dir || !fs.existsSync(/* turbopackIgnore: true */ dir)) return null;
  const options = { cwd: dir, asServer: true, timeoutMs: 10_000 };
  const bare = await gitCaptured(["rev-parse", "--is-bare-repository"], options);
  if (bare.code !== 0 || bare.stdout.trim() !== "false") return null;
  const head = await gitCaptured(["symbolic-ref", "--quiet", "--short", "HEAD"], options);
  const checkedOut = head.code === 0 ? head.stdout.trim() : null;
  if (!checkedOut || (work.baseBranch && work.baseBranch !== checkedOut)) return null;
  const deny = await gitCaptured(["config", "--get", "receive.denyCurrentBranch"], options);
  if (/^(ignore|warn|updateInstead)$/.test(deny.stdout.trim())) return null;
  return (
    `The repository at ${dir} has "${checkedOut}" checked out, and git refuses to push to a ` +
    `checked-out branch: Merge will fail. Point the Work at a bare clone (git clone --bare ${dir} ` +
    `${dir}.git), or check out another branch in that repository.`
  );
}
