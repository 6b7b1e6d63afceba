// Merge will fail when the user Gatehouse's git runs as may not write to a local repository: said on the
// Work's page beforehand, judged from the permission bits of the repository's objects and branches folders.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeBareRepo, makeGitRepo } from "../../testing/git-repo";
import { unwritableRepositoryWarning } from "./push-access";

const me = { uid: process.getuid!(), gid: process.getgid!(), name: "me" };
const someoneElse = { uid: me.uid + 4242, gid: me.gid + 4242, name: "gatehouse-run" };
const inMyGroup = { ...someoneElse, gid: me.gid };

function setModes(gitDir: string, mode: number): void {
  for (const sub of ["objects", "refs/heads"]) fs.chmodSync(path.join(gitDir, sub), mode);
}

describe("unwritableRepositoryWarning", () => {
  it("warns, naming the user and the way out, when the repository is another user's and not theirs to write", () => {
    const repo = makeGitRepo();
    setModes(path.join(repo.dir, ".git"), 0o755);
    const warning = unwritableRepositoryWarning({ repoUrl: repo.dir }, someoneElse);
    expect(warning).toContain(`The repository at ${repo.dir} is not writable by gatehouse-run`);
    expect(warning).toContain(`chown -R gatehouse-run ${repo.dir}`);
    expect(warning).toContain("Merge will fail");
  });

  it("says nothing when the user owns it, its group may write, or everyone may", () => {
    const repo = makeBareRepo();
    setModes(repo.dir, 0o755);
    expect(unwritableRepositoryWarning({ repoUrl: repo.dir }, me)).toBeNull();
    setModes(repo.dir, 0o775);
    expect(unwritableRepositoryWarning({ repoUrl: repo.dir }, inMyGroup)).toBeNull();
    expect(unwritableRepositoryWarning({ repoUrl: repo.dir }, someoneElse)).not.toBeNull();
    setModes(repo.dir, 0o777);
    expect(unwritableRepositoryWarning({ repoUrl: repo.dir }, someoneElse)).toBeNull();
  });

  it("says nothing without a run-as user (git runs as the server), or for a remote URL", () => {
    const repo = makeGitRepo();
    setModes(path.join(repo.dir, ".git"), 0o755);
    expect(unwritableRepositoryWarning({ repoUrl: repo.dir }, null)).toBeNull();
    expect(unwritableRepositoryWarning({ repoUrl: "https://example.com/x.git" }, someoneElse)).toBeNull();
  });
});
