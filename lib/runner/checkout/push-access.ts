// A Work whose repository is a local folder the user Gatehouse's git runs as (GATEHOUSE_RUN_AS; as root, the
// sandbox's user) may not write to can run tasks but never land them: Merge's push fails with git's "unable
// to create temporary object directory". Said when the Work is shown, before anyone presses Merge, from the
// permission bits of the repository's objects and branches folders (owner, group, others; the user's own
// group, not its other groups). Without a run-as user git runs as the server, which made or chose the folder.
import fs from "node:fs";
import path from "node:path";
import { runAsFromEnv, type RunAsUser } from "../run-as";
import { localPathOf } from "./local-repository";

function mayWrite(stat: fs.Stats, user: RunAsUser): boolean {
  if (stat.uid === user.uid) return (stat.mode & 0o200) !== 0;
  if (stat.gid === user.gid) return (stat.mode & 0o020) !== 0;
  return (stat.mode & 0o002) !== 0;
}

// The folder git writes a push into: the repository's git dir (a non-bare repository's .git), or null when
// it is not a plain one (a worktree's .git file, say: git decides there).
function gitDirOf(dir: string): string | null {
  const dotGit = path.join(dir, ".git");
  if (!fs.existsSync(dotGit)) return fs.existsSync(path.join(dir, "objects")) ? dir : null;
  return fs.statSync(dotGit).isDirectory() ? dotGit : null;
}

export function unwritableRepositoryWarning(work: { repoUrl: string }, user = runAsFromEnv()): string | null {
  if (!user || user.uid === 0) return null;
  const dir = localPathOf(work.repoUrl);
  const gitDir = dir && fs.existsSync(/* turbopackIgnore: true */ dir) ? gitDirOf(dir) : null;
  if (!dir || !gitDir) return null;
  const blocked = ["objects", path.join("refs", "heads")]
    .map((sub) => path.join(gitDir, sub))
    .find((p) => fs.existsSync(/* turbopackIgnore: true */ p) && !mayWrite(fs.statSync(p), user));
  if (!blocked) return null;
  return (
    `The repository at ${dir} is not writable by ${user.name}, the user Gatehouse's git runs as: Merge will ` +
    `fail. Give that user the repository (chown -R ${user.name} ${dir}), or let a group it is in write to it.`
  );
}
