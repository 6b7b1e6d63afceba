// The platform's git against a checkout an agent has armed: config keys, hooks, attributes and includes
// that make git run a program. Real repositories, real git through the platform's own wrapper. Each
// planted program would leave a marker file (with the environment it saw); none may appear. Separately,
// a program git is explicitly told to run (as a repository could, were a key ever missed) sees only the
// fixed environment: none of the server's secrets.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { commitFiles, gitIn, makeGitRepo, type TestRepo } from "../../testing/git-repo";
import {
  checkoutFingerprint,
  headCommit,
  isDirtyCheckout,
  prepareCheckout,
  repoDirOf,
  saveCheckoutBranch,
  type CheckoutTarget,
} from "./checkout";
import { type Scratch, withScratchWorktree } from "./scratch";
import { NEW_CHECKOUT_CONFIG } from "./task-repo";
import { VerifiedStore } from "./verified-store";
import { git, gitEnvironment, gitHomeOf, namedOverrides } from "./git";
import { watchLaunches } from "../process/spawner";
import { findSkipMarkers } from "../../gates/proof";

const SECRETS: Record<string, string> = {
  GATEHOUSE_SECRET_KEY: "sentinel-secret-key-4f1c9a",
  DATABASE_URL: "file:/tmp/sentinel-database-url-77ab.db",
  GATEHOUSE_BOOTSTRAP_TOKEN: "sentinel-bootstrap-token-0123456789",
  GATEHOUSE_ADMIN_PASSWORD: "sentinel-admin-password-9z",
  SOME_OPERATOR_TOKEN: "sentinel-operator-token-5e5e",
};
const saved: Record<string, string | undefined> = {};

let dataDir: string;
let marks: string;
let repo: TestRepo;
let wt: string;
let repoDir: string;
const work = () => ({ id: "work-h", repoUrl: repo.dir, baseBranch: "main" });
const target = (taskId: string, branch: string): CheckoutTarget => ({
  dataDir,
  work: work(),
  task: { id: taskId, branch },
});

// A program that records that it ran and what environment it saw, then exits (it reads no input, so
// git waiting on it cannot hang the test).
function evil(name: string): string {
  const file = path.join(dataDir, "evil", name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\nenv > '${path.join(marks, `${name}.env`)}'\nexit 0\n`, { mode: 0o755 });
  return file;
}
const ran = () => fs.readdirSync(marks).sort();
// The attacker's own git in the checkout: config writes only (they run nothing themselves).
const agentGit = (...args: string[]) => gitIn(wt, ...args);

beforeAll(async () => {
  for (const [k, v] of Object.entries(SECRETS)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  saved.GATEHOUSE_DATA_DIR = process.env.GATEHOUSE_DATA_DIR;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-githard-"));
  process.env.GATEHOUSE_DATA_DIR = dataDir;
  marks = path.join(dataDir, "marks");
  fs.mkdirSync(marks);
  repo = makeGitRepo({ "README.md": "base\n", "src/app.txt": "v1\n" });
  gitIn(repo.dir, "branch", "other");
  gitIn(repo.dir, "checkout", "--quiet", "other");
  commitFiles(repo.dir, { "src/app.txt": "v1 on other\n", "src/more.txt": "more\n" }, "other branch");
  gitIn(repo.dir, "checkout", "--quiet", "main");
  wt = (await prepareCheckout(target("task-a", "gate-1"))).path;
  repoDir = repoDirOf(dataDir, "work-h");
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  repo.cleanup();
});

describe("git run by the platform in an armed checkout", () => {
  it("runs none of the programs the checkout's config, hooks, attributes or includes name", async () => {
    // core.fsmonitor, hooks in both places, every program key, and filters/diff drivers bound by attributes.
    agentGit("config", "core.fsmonitor", evil("fsmonitor"));
    const hooks = path.join(dataDir, "evil-hooks");
    fs.mkdirSync(hooks);
    // The checkout's own .git/hooks (the agent owns its whole .git) and, as if it could reach them, the clone's.
    fs.mkdirSync(path.join(wt, ".git", "hooks"), { recursive: true });
    fs.mkdirSync(path.join(repoDir, "hooks"), { recursive: true });
    for (const hook of [
      "post-checkout",
      "reference-transaction",
      "post-index-change",
      "pre-auto-gc",
      "post-commit",
      "pre-push",
      "post-rewrite",
    ]) {
      for (const [dir, name] of [
        [hooks, `hook-${hook}`],
        [path.join(repoDir, "hooks"), `githooks-${hook}`],
        [path.join(wt, ".git", "hooks"), `own-hooks-${hook}`],
      ]) {
        fs.copyFileSync(evil(name), path.join(dir, hook));
        fs.chmodSync(path.join(dir, hook), 0o755);
      }
    }
    agentGit("config", "core.hooksPath", hooks);
    agentGit("config", "filter.evil.clean", evil("filter-clean"));
    agentGit("config", "filter.evil.smudge", evil("filter-smudge"));
    agentGit("config", "filter.evil.required", "true");
    agentGit("config", "filter.proc.process", evil("filter-process"));
    agentGit("config", "diff.external", evil("diff-external"));
    agentGit("config", "diff.evil.textconv", evil("diff-textconv"));
    agentGit("config", "core.pager", evil("pager"));
    agentGit("config", "core.editor", evil("editor"));
    agentGit("config", "credential.helper", evil("credential"));
    agentGit("config", "core.askPass", evil("askpass"));
    agentGit("config", "gpg.program", evil("gpg"));
    agentGit("config", "commit.gpgSign", "true");
    agentGit("config", "core.alternateRefsCommand", evil("alternate-refs"));
    agentGit("config", "remote.origin.uploadpack", evil("uploadpack"));
    // What upload-pack in the checkout's repository would honour, were the branch fetched from it directly:
    // a pack-objects hook. (A promisor remote: "a partial clone's config" below.)
    agentGit("config", "uploadpack.packObjectsHook", evil("pack-objects-hook"));
    agentGit("config", "protocol.allow", "always");
    // Attributes in the shared info/ (every worktree of the clone) and in the checkout itself.
    fs.mkdirSync(path.join(repoDir, "info"), { recursive: true });
    fs.writeFileSync(path.join(repoDir, "info", "attributes"), "* filter=evil diff=evil\n*.md filter=proc\n");
    // (and the README's diff through the textconv driver: diff-tree runs without a listing of the config)
    fs.writeFileSync(path.join(wt, ".gitattributes"), "*.txt filter=inc\n*.inc2 filter=inc2\n*.md diff=evil\n");
    // include.path and includeIf pull another config that sets fsmonitor and more filters.
    const inc = path.join(dataDir, "evil", "included.config");
    fs.writeFileSync(
      inc,
      `[core]\n\tfsmonitor = ${evil("included-fsmonitor")}\n[filter "inc"]\n\tclean = ` +
        `${evil("included-clean")}\n\tsmudge = ${evil("included-smudge")}\n`,
    );
    const inc2 = path.join(dataDir, "evil", "included2.config");
    fs.writeFileSync(inc2, `[filter "inc2"]\n\tclean = ${evil("includeif-clean")}\n`);
    agentGit("config", "include.path", inc);
    agentGit("config", "includeIf.gitdir:/.path", inc2);

    // The checkout changes: a modified tracked file, new files (the clean filters' food).
    fs.writeFileSync(path.join(wt, "src", "app.txt"), "v2 by the agent\n");
    fs.writeFileSync(path.join(wt, "notes.inc2"), "new\n");
    fs.writeFileSync(path.join(wt, "README.md"), "changed\n");

    // Everything the platform does with a checkout: status, fingerprint, HEAD, switching branch
    // (checkout), a new task's worktree (prune, fetch, worktree add).
    expect(await isDirtyCheckout(wt)).toBe(true);
    const tree = await checkoutFingerprint(wt);
    expect(tree).toMatch(/^[0-9a-f]{40}$/);
    expect(await headCommit(wt)).toBe(repo.head);
    // Plumbing on the armed checkout runs nothing either: a tree of the index (write-tree ran the included
    // clean filter when it was tried without listing the config first) and a patch between two trees.
    expect((await git(["write-tree"], { cwd: wt })).trim()).toMatch(/^[0-9a-f]{40}$/);
    const changed = await git(["diff-tree", "-r", "-p", repo.head, tree], { cwd: wt });
    expect(changed).toContain("README.md");
    fs.rmSync(path.join(wt, "src", "app.txt"));
    fs.rmSync(path.join(wt, "notes.inc2"));
    fs.rmSync(path.join(wt, ".gitattributes"));
    fs.writeFileSync(path.join(wt, "README.md"), "base\n");
    const switched = await prepareCheckout(target("task-a", "other"));
    expect(fs.readFileSync(path.join(switched.path, "src", "app.txt"), "utf8")).toBe("v1 on other\n");
    // A commit of the agent's (made without its own hooks, which would be its own doing) carried back to the
    // clone, and a scratch worktree of the checkout (the proof rows').
    const quiet = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "commit.gpgSign=false"];
    gitIn(wt, ...quiet, "commit", "-qm", "the agent's commit", "--allow-empty");
    const committed = gitIn(wt, "rev-parse", "HEAD");
    expect(await saveCheckoutBranch(target("task-a", "other"))).toBe(committed);
    expect(gitIn(repoDir, "rev-parse", "refs/heads/other")).toBe(committed);
    await withScratchWorktree({
      checkoutPath: wt,
      dir: path.join(dataDir, "scratch", "s1"),
      commit: committed,
      tree: committed,
      store: VerifiedStore.open({ dir: path.join(dataDir, "store-s1"), repoDir, runAs: null }),
      fn: async ({ dir }) => expect(fs.readFileSync(path.join(dir, "src", "app.txt"), "utf8")).toBe("v1 on other\n"),
    });
    const fresh = await prepareCheckout(target("task-b", "gate-2"));
    // The new worktree has the files as committed: no smudge filter rewrote them.
    expect(fs.readFileSync(path.join(fresh.path, "src", "app.txt"), "utf8")).toBe("v1\n");
    expect(await isDirtyCheckout(fresh.path)).toBe(false);
    await checkoutFingerprint(fresh.path);

    expect(ran()).toEqual([]);
  });

  it("refuses transports that run a program (ext::) and uses plain ssh, whatever a config rewrites \
the URL to", async () => {
    // The checkout's config is its own repository's: rewriting URLs there no longer reaches the clone's fetch.
    agentGit("config", "core.sshCommand", evil("ssh-command"));
    agentGit("config", `url.ssh://127.0.0.1:1/nothing.git.insteadOf`, repo.dir);
    await prepareCheckout(target("task-c", "gate-3"));
    // Written into the clone itself (a clone armed before checkouts were repositories of their own).
    const cloneGit = (...args: string[]) => gitIn(repoDir, ...args);
    cloneGit("config", "core.sshCommand", evil("ssh-command"));
    cloneGit("config", `url.ssh://127.0.0.1:1/nothing.git.insteadOf`, repo.dir);
    await expect(prepareCheckout(target("task-c2", "gate-3b"))).rejects.toThrow(/fetch failed/);
    cloneGit("config", "--unset-all", `url.ssh://127.0.0.1:1/nothing.git.insteadOf`);
    const ext = `ext::sh -c ${evil("ext-transport")}`;
    cloneGit("config", `url.${ext}.insteadOf`, repo.dir);
    await expect(prepareCheckout(target("task-d", "gate-4"))).rejects.toThrow(/fetch failed/);
    cloneGit("config", "--unset-all", `url.${ext}.insteadOf`);
    expect(ran()).toEqual([]);
  });

  it("command-scope overrides win over the checkout's config for every key that names a program", async () => {
    const get = async (key: string) => (await git(["config", "--get", key], { cwd: wt }).catch(() => "")).trim();
    expect(await get("core.fsmonitor")).toBe("false");
    expect(await get("core.hooksPath")).toBe("/dev/null");
    expect(await get("core.sshCommand")).toBe("ssh");
    expect(await get("core.pager")).toBe("cat");
    expect(await get("gpg.program")).toBe("gpg");
    expect(await get("commit.gpgSign")).toBe("false");
    // credential.helper is a list: the empty value, last, empties the list git uses.
    expect(await get("credential.helper")).toBe("");
  });
});

describe("the environment git gets", () => {
  it("a program git does run sees none of the server's variables, only the fixed set", async () => {
    // Told explicitly to run a program (as a key the overrides missed would): it records its environment.
    const dump = evil("explicit-fsmonitor");
    fs.writeFileSync(path.join(wt, "touched.txt"), "x\n");
    await git(["-c", `core.fsmonitor=${dump}`, "status", "--porcelain"], { cwd: wt });
    const seen = fs.readFileSync(path.join(marks, "explicit-fsmonitor.env"), "utf8");
    fs.rmSync(path.join(marks, "explicit-fsmonitor.env"));
    fs.rmSync(path.join(wt, "touched.txt"));
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(seen, name).not.toContain(value);
      expect(seen, name).not.toMatch(new RegExp(`^${name}=`, "m"));
    }
    expect(seen).toMatch(new RegExp(`^HOME=${gitHomeOf(dataDir)}$`, "m"));
    expect(seen).toMatch(/^GIT_CONFIG_NOSYSTEM=1$/m);
    const globalConfig = path.join(gitHomeOf(dataDir), "gitconfig");
    expect(seen).toMatch(new RegExp(`^GIT_CONFIG_GLOBAL=${globalConfig}$`, "m"));
    // The only global config: the platform's own, which names no program.
    expect(fs.readFileSync(globalConfig, "utf8")).toBe("[safe]\n\tdirectory = *\n");
    expect(seen).toMatch(/^GIT_TERMINAL_PROMPT=0$/m);
    expect(seen).toMatch(/^PATH=.*\/usr\/bin/m);
  });

  it("is a fixed set of names, whatever the server's environment holds", () => {
    const env = gitEnvironment("/h", { network: true });
    const allowed =
      /^(PATH|HOME|XDG_CONFIG_HOME|LANG|LC_ALL|GIT_[A-Z_0-9]+|SSH_ASKPASS|PAGER|SSH_AUTH_SOCK|(http|https|no|all|HTTP|HTTPS|NO|ALL)_(proxy|PROXY)|SSL_CERT_(FILE|DIR))$/;
    for (const name of Object.keys(env)) expect(name).toMatch(allowed);
    for (const value of Object.values(SECRETS)) expect(Object.values(env)).not.toContain(value);
    expect(env.GIT_CONFIG_GLOBAL).toBe("/h/gitconfig");
    expect(env.GIT_CONFIG_NOSYSTEM).toBe("1");
  });

  it("neutralises every filter, diff and merge driver the config lists, by name as written", () => {
    const listed = [
      "filter.lfs.clean",
      "filter.My.Odd=name.smudge",
      "diff.evil.textconv",
      "remote.origin.url",
      "core.fsmonitor",
      "",
    ].join("\0");
    const overrides = Object.fromEntries(namedOverrides(listed));
    expect(overrides).toMatchObject({
      "filter.lfs.clean": "",
      "filter.lfs.smudge": "",
      "filter.lfs.process": "",
      "filter.lfs.required": "false",
      "filter.My.Odd=name.clean": "",
      "diff.evil.textconv": "",
      "diff.evil.command": "",
    });
    expect(overrides).not.toHaveProperty("core.fsmonitor");
  });
});

describe("the index of a checkout is the agent's to forge", () => {
  // The agent's index forged: a test file staged with `it.skip`, then overwritten in place with the same
  // size and the same times (staged with an old mtime, so the entry is not racy; ctime not trusted): the
  // index says the file on disk holds the staged blob.
  const forge = async (taskId: string) => {
    const co = (await prepareCheckout(target(taskId, `gate-${taskId}`))).path;
    const file = path.join(co, "forged.test.js");
    const stamp = path.join(dataDir, `stamp-${taskId}`);
    fs.writeFileSync(file, 'it.skip("a");\n');
    gitIn(co, "config", "core.trustctime", "false");
    fs.writeFileSync(stamp, "");
    fs.utimesSync(stamp, new Date("2020-01-01"), new Date("2020-01-01"));
    execTouch(["-r", stamp, file]);
    gitIn(co, "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "add", "forged.test.js");
    fs.writeFileSync(file, 'it("b");     \n');
    execTouch(["-r", stamp, file]);
    return co;
  };

  it("the checkout's fingerprint holds the files on disk, whatever the index says of them", async () => {
    const co = await forge("task-e");
    // The agent's own `git add` is fooled: it keeps the staged blob.
    gitIn(co, "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "add", "-A", ".");
    expect(gitIn(co, "cat-file", "blob", `${gitIn(co, "write-tree")}:forged.test.js`)).toBe('it.skip("a");');
    const tree = await checkoutFingerprint(co);
    expect(gitIn(co, "cat-file", "blob", `${tree}:forged.test.js`)).toBe('it("b");');
  });

  it("a checkout whose index makes a changed file look unchanged is still seen to have changes", async () => {
    const co = (await prepareCheckout(target("task-s", "gate-s"))).path;
    const file = path.join(co, "README.md");
    const stamp = path.join(dataDir, "stamp-s");
    fs.writeFileSync(stamp, "");
    fs.utimesSync(stamp, new Date("2020-01-01"), new Date("2020-01-01"));
    gitIn(co, "config", "core.trustctime", "false");
    execTouch(["-r", stamp, file]);
    gitIn(co, "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "add", "README.md");
    // The same size, the same times: the agent's own status sees nothing.
    fs.writeFileSync(file, "evil\n");
    execTouch(["-r", stamp, file]);
    expect(gitIn(co, "status", "--porcelain")).toBe("");
    expect(await isDirtyCheckout(co)).toBe(true);
  });

  it("a patch between two trees shows the trees' files, whatever the index says of the worktree's", async () => {
    const co = await forge("task-f");
    // A tree whose blob the forged entry names: git would take that side from the file on disk.
    const forgedTree = gitIn(co, "write-tree");
    const patch = await git(["diff-tree", "-r", "-p", "-U0", "--no-renames", repo.head, forgedTree], { cwd: co });
    expect(patch).toContain('+it.skip("a");');
    expect(patch).not.toContain('it("b")');
  });

  it("the fingerprint's own index follows no link the agent planted, and a linked index is not read", async () => {
    const co = (await prepareCheckout(target("task-g", "gate-g"))).path;
    const victim = path.join(dataDir, "server-file");
    fs.writeFileSync(victim, "the server's own\n");
    // A link where the fingerprint's index goes: a copy there would overwrite (and give away) its target.
    for (let i = 1; i <= 300; i++) fs.symlinkSync(victim, path.join(co, ".git", `index.gatehouse-${process.pid}-${i}`));
    expect(await checkoutFingerprint(co)).toMatch(/^[0-9a-f]{40}$/);
    expect(fs.readFileSync(victim, "utf8")).toBe("the server's own\n");
    // The index itself a link to a file of the server's: not read into the agent's .git (left out).
    fs.rmSync(path.join(co, ".git", "index"));
    fs.symlinkSync(victim, path.join(co, ".git", "index"));
    expect(await checkoutFingerprint(co)).toMatch(/^[0-9a-f]{40}$/);
    expect(await isDirtyCheckout(co)).toBe(false);
    expect(fs.readFileSync(victim, "utf8")).toBe("the server's own\n");
  });
});

function execTouch(args: string[]): void {
  execFileSync("touch", args);
}

describe("a checkout's git settings are the agent's to forge (review of session 20's mends)", () => {
  const fresh = async (taskId: string) => (await prepareCheckout(target(taskId, `gate-${taskId}`))).path;
  // The agent's own git in its checkout (its own commits, config, replace refs): it runs nothing itself.
  const agent = (co: string, ...args: string[]) =>
    gitIn(co, "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", ...args);
  // What an object really holds (the test reads past any replace ref the agent made).
  const blobAt = (co: string, tree: string, file: string) =>
    gitIn(co, "--no-replace-objects", "cat-file", "blob", `${tree}:${file}`);
  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };
  // The agent commits broken code, then puts HEAD's files (the broken ones) where `core.worktree` or a
  // replace ref will show them to git, while the checks run on the good files in the checkout's root.
  const commitBroken = (co: string) => {
    write(path.join(co, "app.js"), "BROKEN\n");
    agent(co, "add", "-A");
    agent(co, "commit", "-qm", "X");
    return gitIn(co, "rev-parse", "HEAD");
  };

  it("a submodule's own config names a filter: checking the checkout runs none of its programs", async () => {
    const co = await fresh("task-sm");
    const sub = path.join(co, "sub");
    fs.mkdirSync(sub);
    gitIn(sub, "init", "-q");
    commitFiles(sub, { "a.txt": "x\n" }, "the submodule's commit");
    write(path.join(sub, ".gitattributes"), "* filter=x\n");
    gitIn(sub, "config", "filter.x.clean", evil("submodule-clean"));
    agent(co, "add", "sub");
    agent(co, "commit", "-qm", "a gitlink");
    const marker = path.join(marks, "submodule-clean.env");
    fs.rmSync(marker, { force: true });
    // Stat-dirty in the submodule's index: a git asked about it would read the file through the filter.
    fs.utimesSync(path.join(sub, "a.txt"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    await isDirtyCheckout(co);
    fs.utimesSync(path.join(sub, "a.txt"), new Date(2002, 1, 1), new Date(2002, 1, 1));
    expect(await checkoutFingerprint(co)).toMatch(/^[0-9a-f]{40}$/);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it.each(["inside", "outside"])(
    "core.worktree pointed at a shadow copy of HEAD (%s the checkout): the checkout's own files are read",
    async (where) => {
      const co = await fresh(`task-cw-${where}`);
      commitBroken(co);
      const shadow = where === "inside" ? path.join(co, "shadow") : path.join(dataDir, "shadow-cw");
      write(path.join(shadow, "README.md"), fs.readFileSync(path.join(co, "README.md"), "utf8"));
      write(path.join(shadow, "src", "app.txt"), fs.readFileSync(path.join(co, "src", "app.txt"), "utf8"));
      write(path.join(shadow, "app.js"), "BROKEN\n");
      write(path.join(co, "app.js"), "good\n");
      agent(co, "config", "core.worktree", shadow);
      expect(await isDirtyCheckout(co)).toBe(true);
      // A file of the server's beside the shadow copy: `add -A` there would copy it into the agent's objects.
      const secret = path.join(shadow, "server-secret.txt");
      write(secret, "the server's own 5d1e\n");
      const tree = await checkoutFingerprint(co);
      expect(blobAt(co, tree, "app.js")).toBe("good");
      if (where === "outside") {
        const sha = gitIn(repo.dir, "hash-object", "--no-filters", secret);
        expect(() => gitIn(co, "cat-file", "-e", sha)).toThrow();
      }
    },
  );

  it("a .git/commondir naming another repository is refused, and that repository gets nothing", async () => {
    const co = await fresh("task-cd");
    const other = makeGitRepo({ "README.md": "another repository\n" });
    try {
      write(path.join(co, "planted.txt"), "the checkout's new file 93af\n");
      const sha = gitIn(repo.dir, "hash-object", "--no-filters", path.join(co, "planted.txt"));
      fs.writeFileSync(path.join(co, ".git", "commondir"), `${path.join(other.dir, ".git")}\n`);
      await expect(checkoutFingerprint(co)).rejects.toThrow(/commondir/);
      expect(() => gitIn(other.dir, "cat-file", "-e", sha)).toThrow();
    } finally {
      other.cleanup();
    }
  });

  it("replace refs do not stand in for the objects: the patch shows the real test file, and a replaced \
HEAD does not make a changed checkout look clean", async () => {
    const co = await fresh("task-rp");
    const start = gitIn(co, "rev-parse", "HEAD");
    // (a) A skipped test, its blob replaced by an innocent one.
    write(path.join(co, "x.test.js"), 'it.skip("hidden", () => {});\n');
    const real = agent(co, "hash-object", "-w", "x.test.js");
    const innocent = path.join(dataDir, "innocent.test.js");
    write(innocent, 'it("shown", () => {});\n');
    agent(co, "replace", real, agent(co, "hash-object", "-w", innocent));
    const tree = await checkoutFingerprint(co);
    expect(blobAt(co, tree, "x.test.js")).toBe('it.skip("hidden", () => {});');
    const patch = await git(["diff-tree", "-r", "-p", "--no-ext-diff", "--no-textconv", "--text", start, tree], {
      cwd: co,
    });
    expect(patch).toContain('+it.skip("hidden", () => {});');
    expect(patch).not.toContain("shown");
    // (b) HEAD is broken commit X, replaced by a commit Y of the good files on disk.
    fs.rmSync(path.join(co, "x.test.js"));
    agent(co, "replace", "-d", real);
    const x = commitBroken(co);
    write(path.join(co, "app.js"), "good\n");
    agent(co, "add", "-A");
    agent(co, "commit", "-qm", "Y");
    const y = gitIn(co, "rev-parse", "HEAD");
    agent(co, "update-ref", `refs/heads/gate-task-rp`, x);
    agent(co, "replace", x, y);
    expect(await headCommit(co)).toBe(x);
    expect(await isDirtyCheckout(co)).toBe(true);
  });

  it("sparse-checkout patterns leave no changed file out of the fingerprint", async () => {
    const co = await fresh("task-sp");
    commitBroken(co);
    agent(co, "config", "core.sparseCheckout", "true");
    write(path.join(co, ".git", "info", "sparse-checkout"), "/README.md\n");
    write(path.join(co, "app.js"), "good\n");
    expect(await isDirtyCheckout(co)).toBe(true);
    expect(blobAt(co, await checkoutFingerprint(co), "app.js")).toBe("good");
  });

  it("a test file marked binary by .git/info/attributes still shows its lines in the change's patch", async () => {
    const co = await fresh("task-bin");
    const start = gitIn(co, "rev-parse", "HEAD");
    write(path.join(co, "x.test.js"), 'it.skip("hidden", () => {});\n');
    const tree = await checkoutFingerprint(co);
    // Planted after the fingerprint (which refuses a checkout with such rules): the patch is read with them.
    write(path.join(co, ".git", "info", "attributes"), "*.test.js -diff\n");
    // The arguments the attempt reads its change with (readChange in lib/runner/attempt/context.ts).
    const patch = await git(["diff-tree", "-r", "-p", "-U0", "--no-renames", "--no-color", start, tree], { cwd: co });
    expect(patch).toContain('+it.skip("hidden", () => {});');
    expect(patch).not.toContain("Binary files");
    expect(findSkipMarkers(patch).map((m) => m.file)).toEqual(["x.test.js"]);
  });

  it("directories planted where the fingerprint's own index goes do not stop the checkout being read", async () => {
    const co = await fresh("task-dir");
    for (let i = 1; i <= 300; i++) fs.mkdirSync(path.join(co, ".git", `index.gatehouse-${process.pid}-${i}`));
    write(path.join(co, "README.md"), "changed\n");
    expect(await isDirtyCheckout(co)).toBe(true);
    expect(blobAt(co, await checkoutFingerprint(co), "README.md")).toBe("changed");
  });
});

describe("a task checkout's .git is a directory of its own (review of session 22)", () => {
  const fresh = async (taskId: string) => (await prepareCheckout(target(taskId, `gate-${taskId}`))).path;

  it.each(["a gitdir file", "a link"])(
    "replaced by %s to a shadow repository whose worktree is a clean copy of HEAD: the checkout is not read",
    async (kind) => {
      const co = await fresh(`task-dotgit-${kind === "a link" ? "l" : "f"}`);
      // The agent's change, then its git data moved aside and pointed at a shadow copy of HEAD's files.
      fs.writeFileSync(path.join(co, "README.md"), "changed by the agent\n");
      const moved = path.join(co, ".g");
      fs.renameSync(path.join(co, ".git"), moved);
      const shadow = path.join(dataDir, `shadow-${kind.length}`);
      fs.mkdirSync(shadow, { recursive: true });
      gitIn(shadow, "--git-dir", moved, "--work-tree", shadow, "checkout", "-f", "HEAD", "--", ".");
      gitIn(co, "--git-dir", moved, "config", "core.worktree", shadow);
      if (kind === "a link") fs.symlinkSync(".g", path.join(co, ".git"));
      else fs.writeFileSync(path.join(co, ".git"), "gitdir: .g\n");
      await expect(isDirtyCheckout(co)).rejects.toThrow(/not a directory of its own/);
      await expect(checkoutFingerprint(co)).rejects.toThrow(/not a directory of its own/);
    },
  );

  it("a submodule never initialised keeps HEAD's entry in the fingerprint; one the agent removed is gone", async () => {
    const co = await fresh("task-sub-empty");
    const sub = makeGitRepo({ "lib.txt": "a library\n" });
    try {
      const subCommit = gitIn(sub.dir, "rev-parse", "HEAD");
      // HEAD gains two gitlinks; their folders stay empty, as a fresh checkout of the repository leaves them.
      gitIn(co, "update-index", "--add", "--cacheinfo", `160000,${subCommit},vendor/lib`);
      gitIn(co, "update-index", "--add", "--cacheinfo", `160000,${subCommit},vendor/gone`);
      gitIn(co, "-c", "core.hooksPath=/dev/null", "commit", "-qm", "two submodules");
      const head = gitIn(co, "rev-parse", "HEAD");
      for (const folder of ["lib", "gone"]) fs.mkdirSync(path.join(co, "vendor", folder), { recursive: true });
      expect(await checkoutFingerprint(co)).toBe(gitIn(co, "rev-parse", "HEAD^{tree}"));
      const changes = gitIn(co, "diff-tree", "-r", "--name-status", head, await checkoutFingerprint(co));
      expect(changes).toBe("");
      // Removing one's folder is a change the fingerprint shows (git add -A records the deletion).
      fs.rmSync(path.join(co, "vendor", "gone"), { recursive: true });
      const tree = await checkoutFingerprint(co);
      expect(gitIn(co, "diff-tree", "-r", "--name-status", head, tree)).toBe("D\tvendor/gone");
    } finally {
      sub.cleanup();
    }
  });
});

describe("what git reads of a task checkout that no commit shows (second review of session 22)", () => {
  const fresh = async (taskId: string) => (await prepareCheckout(target(taskId, `gate-${taskId}`))).path;
  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };

  it("a loose ref that is symbolic (or a link) is resolved by git, not by packed-refs planted beside it", async () => {
    const co = await fresh("task-ref");
    const branch = "gate-task-ref";
    // C1: broken code, committed on a side branch; C2: the code the checks pass, left in the checkout.
    const c1 = commitFiles(co, { "app.js": "BROKEN\n" }, "C1");
    gitIn(co, "reset", "-q", "--hard", "HEAD~1");
    gitIn(co, "checkout", "-q", "-b", "y");
    const c2 = commitFiles(co, { "app.js": "good\n" }, "C2");
    gitIn(co, "checkout", "-q", branch);
    gitIn(co, "reset", "-q", "--hard", c2);
    const refFile = path.join(co, ".git", "refs", "heads", branch);
    const packed = path.join(co, ".git", "packed-refs");
    for (const plant of ["symbolic", "link"]) {
      fs.rmSync(refFile, { force: true });
      if (plant === "symbolic") fs.writeFileSync(refFile, "ref: refs/heads/y\n");
      else {
        fs.symlinkSync("refs/heads/y", refFile);
        write(path.join(co, ".git", "refs", "heads", "refs", "heads", "y"), `${c1}\n`);
      }
      fs.writeFileSync(packed, `# pack-refs with: peeled fully-peeled sorted\n${c1} refs/heads/${branch}\n`);
      // What git sees (HEAD → the branch → y → C2) is what Gatehouse records.
      expect(gitIn(co, "rev-parse", "HEAD")).toBe(c2);
      expect(await headCommit(co)).toBe(c2);
      expect(await isDirtyCheckout(co)).toBe(false);
    }
  });

  it.each([
    ["attributes", "* ident\n"],
    ["exclude", "helper.js\n"],
  ])(".git/info/%s with rules: the checkout is not read", async (file, rules) => {
    const co = await fresh(`task-info-${file}`);
    // ident: an edit inside $Id: … $ reads as HEAD's line; exclude: a new file the checks load is hidden.
    commitFiles(co, { "app.js": "/* $Id$ */\n" }, "an ident line");
    write(path.join(co, "app.js"), "/* $Id: */ process.exit(0); /* $ */\n");
    write(path.join(co, "helper.js"), "module.exports = 1;\n");
    write(path.join(co, ".git", "info", file), `# a comment is no rule\n${rules}`);
    await expect(isDirtyCheckout(co)).rejects.toThrow(new RegExp(`info/${file} has rules`));
    await expect(checkoutFingerprint(co)).rejects.toThrow(new RegExp(`info/${file} has rules`));
    // Comments alone (what git's own template writes) are no rules.
    write(path.join(co, ".git", "info", file), "# comments only\n\n");
    expect(await isDirtyCheckout(co)).toBe(true);
  });

  it("core.ignoreCase does not hide a new file beside a tracked one of the same name in another case", async () => {
    const co = await fresh("task-case");
    commitFiles(co, { "foo.js": "tracked\n" }, "foo");
    gitIn(co, "config", "core.ignoreCase", "true");
    write(path.join(co, "Foo.js"), "loaded by the checks\n");
    expect(await isDirtyCheckout(co)).toBe(true);
    expect(gitIn(co, "ls-tree", "--name-only", await checkoutFingerprint(co))).toContain("Foo.js");
  });
});

describe("a partial clone's config (review of session 23)", () => {
  it("a promisor remote on a local path with its own upload-pack, and an object missing: reading the \
checkout is refused, and no command of the platform's fetches the object or runs the program", async () => {
    const co = (await prepareCheckout(target("task-promisor", "gate-promisor"))).path;
    commitFiles(co, { "src/lazy.txt": "fetched on demand\n" }, "lazy");
    const lazy = gitIn(co, "rev-parse", "HEAD:src/lazy.txt");
    gitIn(co, "config", "extensions.partialClone", "evil");
    gitIn(co, "config", "remote.evil.promisor", "true");
    gitIn(co, "config", "remote.evil.url", repo.dir);
    gitIn(co, "config", "remote.evil.uploadpack", evil("promisor-upload-pack"));
    // The blob goes: a command that reads it would ask the promisor remote for it.
    fs.rmSync(path.join(co, ".git", "objects", lazy.slice(0, 2), lazy.slice(2)), { force: true });
    await expect(checkoutFingerprint(co)).rejects.toThrow(/partial clone \(extensions\.partialclone\)/);
    // A command that lists no config (plumbing) reads the missing blob: no transport is allowed, nothing runs.
    await expect(git(["cat-file", "blob", lazy], { cwd: co })).rejects.toThrow();
    await expect(git(["diff-tree", "-p", "HEAD~1", "HEAD"], { cwd: co })).rejects.toThrow();
    expect(ran()).toEqual([]);
  });
});

describe("scratch worktrees after the commands run in them (review of session 23)", () => {
  const scratchOf = async (name: string, fn: (scratch: Scratch, co: string, head: string) => Promise<void>) => {
    const co = (await prepareCheckout(target(`task-${name}`, `gate-${name}`))).path;
    const head = await headCommit(co);
    await withScratchWorktree({
      checkoutPath: co,
      dir: path.join(dataDir, "scratch", name),
      commit: head,
      tree: head,
      store: VerifiedStore.open({ dir: path.join(dataDir, `store-${name}`), repoDir, runAs: null }),
      fn: (scratch) => fn(scratch, co, head),
    });
  };

  it("a .git folder left in the scratch (its config naming a smudge filter) is not read when files are \
laid over it: nothing runs, and the file is the tree's", async () => {
    await scratchOf("swapped-git", async (scratch) => {
      const dotGit = path.join(scratch.dir, ".git");
      fs.rmSync(dotGit, { force: true });
      fs.mkdirSync(path.join(dotGit, "info"), { recursive: true });
      fs.writeFileSync(path.join(dotGit, "HEAD"), "ref: refs/heads/main\n");
      fs.mkdirSync(path.join(dotGit, "objects"), { recursive: true });
      fs.mkdirSync(path.join(dotGit, "refs"), { recursive: true });
      fs.writeFileSync(path.join(dotGit, "config"), `[filter "x"]\n\tsmudge = ${evil("scratch-smudge")}\n`);
      fs.writeFileSync(path.join(dotGit, "info", "attributes"), "* filter=x\n");
      fs.writeFileSync(path.join(scratch.dir, "README.md"), "changed by a check\n");
      await scratch.layOver(repo.head, ["README.md"]);
      expect(fs.readFileSync(path.join(scratch.dir, "README.md"), "utf8")).toBe("base\n");
    });
    expect(ran()).toEqual([]);
  });

  it("a scratch's .git made a link to a folder holding the config Gatehouse writes, whose commondir names a \
repository with a filter: reading the scratch runs no filter", async () => {
    // A new checkout's config listed once in this process (as any run's first state does).
    await checkoutFingerprint((await prepareCheckout(target("task-listed-once", "gate-listed-once"))).path);
    const common = makeGitRepo({ "README.md": "base\n" });
    try {
      gitIn(common.dir, "config", "filter.x.clean", evil("scratch-commondir-clean"));
      await scratchOf("linked-git", async (scratch) => {
        // What the red team's command can do in its scratch: .git a link to a folder of its own.
        const fake = path.join(scratch.dir, "fake-git");
        fs.mkdirSync(fake);
        fs.writeFileSync(path.join(fake, "HEAD"), `${common.head}\n`);
        fs.writeFileSync(path.join(fake, "config"), NEW_CHECKOUT_CONFIG);
        fs.writeFileSync(path.join(fake, "commondir"), `${path.join(common.dir, ".git")}\n`);
        fs.rmSync(path.join(scratch.dir, ".git"), { force: true });
        fs.symlinkSync("fake-git", path.join(scratch.dir, ".git"));
        fs.writeFileSync(path.join(scratch.dir, ".gitattributes"), "* filter=x\n");
        fs.writeFileSync(path.join(scratch.dir, "README.md"), "changed by the red team\n");
        await checkoutFingerprint(scratch.dir, { scratch: true }).catch(() => undefined);
      });
    } finally {
      common.cleanup();
    }
    expect(ran()).toEqual([]);
  });

  it("a file to delete behind a folder turned into a link is not deleted outside the scratch", async () => {
    const victim = path.join(dataDir, "victim");
    fs.mkdirSync(victim, { recursive: true });
    fs.writeFileSync(path.join(victim, "app.txt"), "keep me\n");
    await scratchOf("linked-folder", async (scratch) => {
      fs.rmSync(path.join(scratch.dir, "src"), { recursive: true, force: true });
      fs.symlinkSync(victim, path.join(scratch.dir, "src"));
      await scratch.layOver(repo.head, [], ["src/app.txt"]);
    });
    expect(fs.readFileSync(path.join(victim, "app.txt"), "utf8")).toBe("keep me\n");
  });

  it("a link the agent planted in .git/worktrees is dropped, not followed: what it points at stays", async () => {
    const victim = path.join(dataDir, "victim-prune");
    fs.mkdirSync(victim, { recursive: true });
    fs.writeFileSync(path.join(victim, "precious.txt"), "keep me\n");
    const co = (await prepareCheckout(target("task-prune-link", "gate-prune-link"))).path;
    fs.mkdirSync(path.join(co, ".git", "worktrees"), { recursive: true });
    fs.symlinkSync(victim, path.join(co, ".git", "worktrees", "evil"));
    const head = await headCommit(co);
    await withScratchWorktree({
      checkoutPath: co,
      dir: path.join(dataDir, "scratch", "prune-link"),
      commit: head,
      tree: head,
      store: VerifiedStore.open({ dir: path.join(dataDir, "store-prune-link"), repoDir, runAs: null }),
      fn: async ({ dir }) => expect(fs.readFileSync(path.join(dir, "README.md"), "utf8")).toBe("base\n"),
    });
    expect(fs.readdirSync(victim)).toEqual(["precious.txt"]);
    expect(fs.existsSync(path.join(co, ".git", "worktrees", "evil"))).toBe(false);
  });

  it("a checkout whose .git the agent made a link: nothing behind the link is removed, no scratch is made", async () => {
    const victim = path.join(dataDir, "victim-dotgit");
    fs.mkdirSync(path.join(victim, "worktrees"), { recursive: true });
    fs.writeFileSync(path.join(victim, "worktrees", "precious.txt"), "keep me\n");
    const co = (await prepareCheckout(target("task-dotgit-link", "gate-dotgit-link"))).path;
    const head = await headCommit(co);
    fs.renameSync(path.join(co, ".git"), path.join(dataDir, "moved-dotgit"));
    fs.symlinkSync(victim, path.join(co, ".git"));
    await expect(
      withScratchWorktree({
        checkoutPath: co,
        dir: path.join(dataDir, "scratch", "dotgit-link"),
        commit: head,
        tree: head,
        store: VerifiedStore.open({ dir: path.join(dataDir, "store-dotgit-link"), repoDir, runAs: null }),
        fn: async () => undefined,
      }),
    ).rejects.toThrow("not a folder");
    expect(fs.readdirSync(path.join(victim, "worktrees"))).toEqual(["precious.txt"]);
  });
});

describe("objects and attributes the agent rewrites (third review of session 22)", () => {
  const fresh = async (taskId: string) => (await prepareCheckout(target(taskId, `gate-${taskId}`))).path;
  // `git status` against an index read from HEAD's tree, as Gatehouse's check was: what the attack fools.
  const statusFromHead = (co: string) => {
    const env = { ...process.env, GIT_INDEX_FILE: path.join(co, ".git", "index.test-from-head") };
    execFileSync("git", ["read-tree", "HEAD"], { cwd: co, env });
    const out = execFileSync("git", ["status", "--porcelain"], { cwd: co, env, encoding: "utf8" }).trim();
    fs.rmSync(env.GIT_INDEX_FILE, { force: true });
    return out;
  };
  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };

  it("a subtree object of HEAD rewritten to list the files on disk: the checkout still reads as changed", async () => {
    const co = await fresh("task-forged-tree");
    // X: a bug in src/add.js, committed; then the fixed file on disk.
    commitFiles(co, { "src/add.js": "module.exports = (a, b) => a - b;\n" }, "X");
    const realSub = gitIn(co, "rev-parse", "HEAD:src");
    write(path.join(co, "src", "add.js"), "module.exports = (a, b) => a + b;\n");
    // The forged subtree S': what `src` would be with the fixed file, written over X's `src` object file.
    const blob = gitIn(co, "hash-object", "-w", "src/add.js");
    const appBlob = gitIn(co, "rev-parse", "HEAD:src/app.txt");
    const fakeTree = execFileSync("git", ["mktree"], {
      cwd: co,
      input: `100644 blob ${blob}\tadd.js\n100644 blob ${appBlob}\tapp.txt\n`,
      encoding: "utf8",
    }).trim();
    const objectFile = (sha: string) => path.join(co, ".git", "objects", sha.slice(0, 2), sha.slice(2));
    fs.chmodSync(objectFile(realSub), 0o644);
    fs.copyFileSync(objectFile(fakeTree), objectFile(realSub));
    // git's own status is fooled; Gatehouse's check is not.
    expect(statusFromHead(co)).toBe("");
    expect(await isDirtyCheckout(co)).toBe(true);
  });

  it("a committed .gitattributes with ident: an edit inside $Id: … $ is a change", async () => {
    const co = await fresh("task-ident");
    commitFiles(co, { ".gitattributes": "*.js ident\n", "add.js": "module.exports = 1; /* $Id$ */\n" }, "ident");
    write(path.join(co, "add.js"), 'module.exports = 1; /* $Id: */ require("./x"); /* $ */\n');
    expect(statusFromHead(co)).toBe("");
    expect(await isDirtyCheckout(co)).toBe(true);
    const tree = await checkoutFingerprint(co);
    expect(gitIn(co, "cat-file", "blob", `${tree}:add.js`)).toContain('require("./x")');
    // Gatehouse's own attributes are gone once it has read.
    expect(fs.existsSync(path.join(co, ".git", "info", "attributes"))).toBe(false);
  });

  it("a .git/info that is a link is not written through: the checkout is not read", async () => {
    const co = await fresh("task-info-link");
    const outside = path.join(dataDir, "info-outside");
    fs.mkdirSync(outside, { recursive: true });
    fs.rmSync(path.join(co, ".git", "info"), { recursive: true, force: true });
    fs.symlinkSync(outside, path.join(co, ".git", "info"));
    await expect(checkoutFingerprint(co)).rejects.toThrow(/\.git\/info is not a folder/);
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  // `.git/info/exclude` swapped for a link to the server's key right after the server looked at it (a process of
  // the run-as user flipping it): what is read is the file looked at, never the key, whose text would go into
  // the error the agent reads.
  it("an info/exclude swapped for a link to a secret as it is read is never read through", async () => {
    const co = await fresh("task-exclude-swap");
    const exclude = path.join(co, ".git", "info", "exclude");
    fs.mkdirSync(path.dirname(exclude), { recursive: true });
    fs.writeFileSync(exclude, "# nothing excluded\n");
    const secret = path.join(dataDir, "not-the-agents.key");
    fs.writeFileSync(secret, "c2VjcmV0LWtleQ==\n", { mode: 0o600 });
    let swapped = false;
    const swapAfter = (name: "lstatSync" | "openSync") => {
      const original = fs[name] as (...args: unknown[]) => unknown;
      return vi.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
        const result = original(...args);
        if (!swapped && String(args[0]).endsWith("/exclude")) {
          swapped = true;
          fs.renameSync(exclude, `${exclude}-before`);
          fs.symlinkSync(secret, exclude);
        }
        return result;
      }) as never);
    };
    const spies = [swapAfter("lstatSync"), swapAfter("openSync")];
    let outcome: string;
    try {
      outcome = await checkoutFingerprint(co).then(
        () => "read",
        (error: Error) => error.message,
      );
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(swapped).toBe(true);
    expect(outcome).not.toContain("c2VjcmV0");
  });

  // The same link swapped in while git reads (a process of the run-as user running beside the fingerprint):
  // root then puts the checkout's own attributes back — their text is the agent's — and must not do it
  // through the link, nor remove what the link leads to.
  it("a .git/info swapped for a link while git reads is not written or removed through", async () => {
    const co = await fresh("task-info-swap");
    fs.mkdirSync(path.join(co, ".git", "info"), { recursive: true });
    fs.writeFileSync(path.join(co, ".git", "info", "attributes"), "# the agent's text\n");
    const outside = path.join(dataDir, "info-swapped-to");
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, "attributes"), "kept\n");
    const swap = watchLaunches((command) => {
      if (!command.args.includes("write-tree") || fs.lstatSync(path.join(co, ".git", "info")).isSymbolicLink()) return;
      fs.renameSync(path.join(co, ".git", "info"), path.join(co, ".git", "info-before"));
      fs.symlinkSync(outside, path.join(co, ".git", "info"));
    });
    try {
      await expect(checkoutFingerprint(co)).rejects.toThrow(/info is a symbolic link/);
    } finally {
      swap();
    }
    expect(fs.readdirSync(outside)).toEqual(["attributes"]);
    expect(fs.readFileSync(path.join(outside, "attributes"), "utf8")).toBe("kept\n");
  });
});
