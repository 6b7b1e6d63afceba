// Running git for the platform (clone, worktrees, status, fingerprints). Agents and checks write the
// checkouts' git config and attributes (a worktree shares its clone's config), so git started by the
// platform must neither run a program named there nor hand any program the server's environment:
// - a fixed minimal environment (none of the server's variables: no secret key, database URL, tokens),
//   no system or global config, no pager, editor, askpass or terminal prompt;
// - every config key that makes git run a program is overridden at command scope (it beats the
//   repository's config and its includes); the keys named per driver or per remote (filter.<name>.*,
//   diff.<name>.textconv, …) cannot be enumerated ahead, so the effective config is first LISTED
//   (`git config --list --name-only`, which only parses) and each name it holds is neutralised too;
// - hooks go nowhere, submodules are not recursed into, and only known transports are allowed.
// Git starts through the spawner (see process/spawner.ts), so the server does not fork itself.
import fs from "node:fs";
import path from "node:path";
import { execCaptured } from "../process/exec-captured";
import { pipeDirOf } from "../paths";
import { runAsFromEnv, type RunAsUser } from "../run-as";
import { config, serverEnv } from "../../config/config";

export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitError";
  }
}

export type GitOptions = {
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  // Run as the server's own user even with GATEHOUSE_RUN_AS (check sources: the run-as user must not own them).
  asServer?: boolean;
  // An HTTP header for this command alone (a check source's credential), as command-scope config: it is
  // in git's environment only, never in a URL, a repository's config or a log.
  httpHeader?: string;
  // More command-scope config for this command alone (e.g. fsck what a fetch receives).
  config?: ReadonlyArray<readonly [string, string]>;
  // The repository's config is the platform's alone (a repository it has just made, that nothing else has
  // reached yet): there is no driver of anyone else's to list and switch off.
  isOwnConfig?: boolean;
  // The drivers to switch off, as listed by `listDriverOverrides` for the same repository a moment before,
  // with nothing of anyone else's run in it since (Gatehouse's own commands in a row): not listed again.
  listed?: ListedOverrides;
  // A file git reads as its standard input (revisions for pack-objects, a pack for index-pack).
  stdinFile?: string;
  // An existing file git writes its standard output to (a pack), instead of the output being returned.
  stdoutFile?: string;
};

// What a config listing found to switch off (opaque outside this module).
export type ListedOverrides = { readonly pairs: ReadonlyArray<readonly [string, string]> };

const NO_INDEX = "/proc/self/gatehouse-no-index";

const FIXED_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// Config that makes git run a program (or reach one), each set to a value that runs nothing. Command
// scope is read last, so these win over the repository's config and anything it includes.
const NEUTRAL_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.sshCommand", "ssh"],
  ["core.askPass", ""],
  ["core.pager", "cat"],
  ["core.editor", ":"],
  ["sequence.editor", ":"],
  // Used only with alternates (objects/info/alternates, which an agent may write): list no tips.
  ["core.alternateRefsCommand", "true"],
  ["core.attributesFile", "/dev/null"],
  ["core.excludesFile", "/dev/null"],
  ["diff.external", ""],
  // An empty helper resets the list, so no helper configured before it (URL-specific ones too) runs.
  ["credential.helper", ""],
  ["gpg.program", "gpg"],
  ["gpg.openpgp.program", "gpg"],
  ["gpg.x509.program", "gpgsm"],
  ["gpg.ssh.program", "ssh-keygen"],
  ["gpg.ssh.defaultKeyCommand", ""],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
  ["submodule.recurse", "false"],
  ["fetch.recurseSubmodules", "false"],
  // Transports: none (ext::, fd:: and other remote helpers never; the known ones only for the commands that
  // fetch or push, TRANSPORTS). A command that reads objects may otherwise fetch one it lacks from a
  // "promisor" remote the checkout's config names, with the upload-pack program that config names.
  ["protocol.allow", "never"],
  // What git reads of a checkout is what is on its disk, whatever the agent's config says: no sparse
  // patterns leaving files out of `add -A`, no split index, no line-ending or file-mode conversions.
  ["core.ignoreCase", "false"],
  ["core.sparseCheckout", "false"],
  ["core.sparseCheckoutCone", "false"],
  ["index.sparse", "false"],
  ["core.splitIndex", "false"],
  ["core.untrackedCache", "false"],
  ["core.autocrlf", "false"],
  ["core.fileMode", "true"],
  ["core.symlinks", "true"],
  // A file's saved details are compared in full before git trusts it unchanged (an index of Gatehouse's is
  // read again after the checks, checkout.ts), and no entry is marked to be trusted without looking.
  ["core.trustctime", "true"],
  ["core.checkStat", "default"],
  ["core.ignoreStat", "false"],
  // The Work's repository may belong to another user (GATEHOUSE_RUN_AS); the ownership check guards
  // against running a foreign repository's programs, which the overrides above already prevent.
  ["safe.directory", "*"],
  // GIT_GRAFT_FILE (below) is set: no hint about grafts in the messages git prints.
  ["advice.graftFileDeprecated", "false"],
];

// The known transports, for the commands that fetch or push (NETWORK_COMMANDS) alone.
const TRANSPORTS: ReadonlyArray<readonly [string, string]> = ["file", "git", "http", "https", "ssh"].map(
  (name) => [`protocol.${name}.allow`, "always"] as const,
);

// In a task's checkout: no automatic gc or maintenance after a fetch (its `worktree prune` would remove
// whatever a link the agent planted in .git/worktrees points at).
const CHECKOUT_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
];

// Per-name keys that run a program: for a section.<name> listed in the config, each of its keys here is
// set to the value that runs nothing (all of them, whichever the config listed).
const NAMED_PROGRAM_KEYS: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  filter: [
    ["clean", ""],
    ["smudge", ""],
    ["process", ""],
    ["required", "false"],
  ],
  diff: [
    ["textconv", ""],
    ["command", ""],
  ],
  merge: [["driver", ""]],
  // remote.<name>.uploadpack/receivepack are not here: git keeps their first value (see SAFE_FLAGS).
};

// Subcommands that read no per-name driver (no filter, diff, merge or transport), so need no listing.
// `diff-tree` compares two trees (never the worktree, so no filter runs) and, being plumbing, starts no
// external diff or textconv (the flags below say so again). Not `write-tree`: it has been seen to run a
// clean filter.
const NO_DRIVER_COMMANDS = new Set([
  "rev-parse",
  "diff-tree",
  "config",
  "symbolic-ref",
  "remote",
  "clone",
  "init",
  "update-ref",
  "for-each-ref",
  "merge-base",
]);
// `read-tree` without -u fills an index from trees and never touches the worktree, `ls-files --stage`
// only prints the index, and `ls-files --others` lists paths by the ignore rules (it reads no file's
// content): no filter runs.
const isIndexOnly = (args: readonly string[]) =>
  (args[0] === "read-tree" && !args.includes("-u")) ||
  (args[0] === "ls-files" && args.length === 3 && args[1] === "--stage" && args[2] === "-z") ||
  (args[0] === "ls-files" && args.includes("--others") && !args.some((a) => /^(-m|--modified|-s|--stage)$/.test(a)));

// A checkout's repository is the `.git` directory in it and its files are the directory itself: named to
// git outright, so `core.worktree` in the agent's config cannot point git's reads and writes at another
// directory. A `.git` directory naming a common directory elsewhere (`commondir`, which a linked worktree's
// git directory has, never a repository's own) is refused: git would read and write that repository.
// A `.git` file (a scratch worktree's pointer) is left to git.
function repositoryEnvOf(cwd: string | undefined): Record<string, string> {
  if (!cwd) return {};
  const dotGit = path.resolve(cwd, ".git");
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dotGit);
  } catch {
    return {};
  }
  if (!stat.isDirectory()) return {};
  if (fs.existsSync(path.join(dotGit, "commondir")))
    throw new GitError(`refused: the checkout's .git/commondir names another repository (${path.resolve(cwd)})`);
  // The common directory named too: git then never reads a `commondir` planted after the check above.
  return { GIT_DIR: dotGit, GIT_COMMON_DIR: dotGit, GIT_WORK_TREE: path.resolve(cwd) };
}

// Network commands keep the operator's proxy, CA and ssh-agent settings (only git and ssh see them).
const NETWORK_COMMANDS = new Set(["clone", "fetch", "ls-remote", "push"]);
const NETWORK_ENV = [
  "SSH_AUTH_SOCK",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "GIT_SSL_CAINFO",
];
const MAX_NAMED_OVERRIDES = 400;

let gitBinary: { pathVar: string | undefined; file: string } | null = null;

// git's absolute path, found once on the server's PATH; git itself then gets the fixed PATH (plus
// git's own directory, if it lives elsewhere).
function findGit(pathVar = config().hostPath ?? undefined): string {
  if (gitBinary && gitBinary.pathVar === pathVar) return gitBinary.file;
  let file = "git";
  for (const dir of (pathVar || FIXED_PATH).split(":")) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, "git");
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      file = candidate;
      break;
    } catch {}
  }
  gitBinary = { pathVar, file };
  return file;
}

// A folder of the platform's (an agent may not write it) as git's HOME, holding git's only global config:
// safe.directory = *. git clears command-scope config for the upload-pack it starts in a local source
// repository, and that upload-pack (run as GATEHOUSE_RUN_AS) must accept a repository of another owner.
export function gitHomeOf(dir: string): string {
  return path.join(dir, "git-home");
}

const GLOBAL_CONFIG = "[safe]\n\tdirectory = *\n";

// The homes this process has written or found as they should be: only whether the file is still there is
// asked again (the data dir is the platform's; no agent or check writes it).
const readyHomes = new Set<string>();

function ensureGitHome(dir: string): string {
  const home = gitHomeOf(dir);
  const file = path.join(home, "gitconfig");
  if (readyHomes.has(file) && fs.existsSync(file)) return home;
  if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === GLOBAL_CONFIG) {
    readyHomes.add(file);
    return home;
  }
  fs.mkdirSync(home, { recursive: true, mode: 0o755 });
  fs.chmodSync(home, 0o755);
  fs.writeFileSync(`${file}.tmp`, GLOBAL_CONFIG, { mode: 0o644 });
  fs.renameSync(`${file}.tmp`, file);
  readyHomes.add(file);
  return home;
}

// Command-scope config, as git reads it from its environment (GIT_CONFIG_COUNT, _KEY_n, _VALUE_n), added to `env`.
function addConfig(env: Record<string, string>, groups: ReadonlyArray<ReadonlyArray<readonly [string, string]>>): void {
  let i = 0;
  for (const pairs of groups)
    for (const [key, value] of pairs) {
      env[`GIT_CONFIG_KEY_${i}`] = key;
      env[`GIT_CONFIG_VALUE_${i}`] = value;
      i++;
    }
  env.GIT_CONFIG_COUNT = String(i);
}

// The whole environment git gets: nothing of the server's but, for clone/fetch, its network settings.
export function gitEnvironment(
  home: string,
  options: {
    network?: boolean;
    extra?: Record<string, string>;
    config?: ReadonlyArray<readonly [string, string]>;
    // git's path, when the caller has found it already (findGit).
    gitFile?: string;
  } = {},
): Record<string, string> {
  const gitDir = path.dirname(options.gitFile ?? findGit());
  const env: Record<string, string> = {
    PATH: FIXED_PATH.split(":").includes(gitDir) || !path.isAbsolute(gitDir) ? FIXED_PATH : `${gitDir}:${FIXED_PATH}`,
    HOME: home,
    XDG_CONFIG_HOME: home,
    LANG: "C",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_SYSTEM: "/dev/null",
    GIT_CONFIG_GLOBAL: path.join(home, "gitconfig"),
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "",
    SSH_ASKPASS: "",
    GIT_PAGER: "cat",
    PAGER: "cat",
    GIT_EDITOR: ":",
    // Set (even empty), it wins over core.gitProxy, which cannot be reset from the command line.
    GIT_PROXY_COMMAND: "",
    GIT_SSH_COMMAND: "ssh",
    GIT_PROTOCOL_FROM_USER: "0",
    GIT_OPTIONAL_LOCKS: "0",
    // Objects are what they are: no replace refs (refs/replace/, the agent's to write) and no grafts
    // standing in for the commits, trees and blobs the checks ran on.
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_GRAFT_FILE: "/dev/null",
    // No object fetched on demand from a promisor remote (git 2.45 and later; before, no transport is
    // allowed outside fetch and push, and a partial clone's config is refused).
    GIT_NO_LAZY_FETCH: "1",
  };
  if (options.network)
    for (const name of NETWORK_ENV) {
      const value = serverEnv()[name];
      if (value !== undefined) env[name] = value;
    }
  // Assigned key by key: spreading an object of this many keys costs V8 ~0.3 ms (measured), and a run starts
  // a dozen git commands.
  if (options.extra) for (const key of Object.keys(options.extra)) env[key] = options.extra[key];
  addConfig(env, [NEUTRAL_CONFIG, options.network ? TRANSPORTS : [], options.config ?? []]);
  return env;
}

// The overrides for the per-name keys in a config listing (names NUL-terminated, as --null prints them;
// git prints section and key in lower case, the <name> as written).
export function namedOverrides(listed: string): Array<[string, string]> {
  const out = new Map<string, string>();
  for (const key of listed.split("\0")) {
    const match = /^([a-z0-9-]+)\.(.+)\.[a-z0-9-]+$/s.exec(key);
    const keys = match && Object.hasOwn(NAMED_PROGRAM_KEYS, match[1]) ? NAMED_PROGRAM_KEYS[match[1]] : null;
    if (!match || !keys) continue;
    for (const [leaf, value] of keys) out.set(`${match[1]}.${match[2]}.${leaf}`, value);
  }
  return [...out.entries()];
}

export type GitInvocation = { file: string; args: string[]; env: Record<string, string> };

// The command line and environment of one platform git command (without the per-name overrides).
export function gitInvocation(args: string[], options: { env?: Record<string, string>; home: string }): GitInvocation {
  const network = NETWORK_COMMANDS.has(args[0] ?? "");
  return {
    file: findGit(),
    args: ["--no-pager", ...args],
    env: gitEnvironment(options.home, { network, extra: options.env }),
  };
}

// What one git command needs of the server's settings, read once for it (config() reads the environment).
type Setting = { file: string; home: string; dataDir: string; runAs: RunAsUser | null };

function settingOf(asServer: boolean): Setting {
  const { dataDir, hostPath } = config();
  return {
    file: findGit(hostPath ?? undefined),
    home: ensureGitHome(dataDir),
    dataDir,
    runAs: asServer ? null : runAsFromEnv(),
  };
}

async function run(
  args: string[],
  at: { cwd: string; env: Record<string, string>; timeoutMs: number; setting: Setting },
  files: { stdinFile?: string; stdoutFile?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { file, dataDir, runAs } = at.setting;
  return execCaptured(file, ["--no-pager", ...args], {
    cwd: at.cwd,
    env: at.env,
    pipeDir: pipeDirOf(dataDir),
    timeoutMs: at.timeoutMs,
    runAs,
    ...files,
  }).catch((error: Error) => ({ code: null, stdout: "", stderr: error.message }));
}

export function gitFailure(args: string[], result: { code: number | null; stderr: string }): GitError {
  const detail = (result.stderr || `exit code ${result.code ?? "none (killed)"}`)
    .trim()
    .split("\n")
    .filter(Boolean)
    .slice(-3)
    .join(" ");
  return new GitError(`git ${args[0]} failed: ${detail}`);
}

export async function git(args: string[], options: GitOptions = {}): Promise<string> {
  const result = await gitCaptured(args, options);
  if (result.code === 0) return result.stdout;
  throw gitFailure(args, result);
}

// The same, answering how git exited instead of throwing (merge-tree's exit 1 means "conflicts").
export async function gitCaptured(
  args: string[],
  options: GitOptions = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // With GATEHOUSE_RUN_AS, git runs as that user too (the clones and worktrees are its).
  const setting = settingOf(!!options.asServer);
  const cwd = options.cwd ?? (setting.runAs ? setting.dataDir : process.cwd());
  const network = NETWORK_COMMANDS.has(args[0] ?? "");
  const config: Array<readonly [string, string]> = [];
  let repository: Record<string, string>;
  try {
    // A repository named outright (GIT_DIR: a verified store) is the only one git reads: nothing found at cwd.
    repository = options.env?.GIT_DIR ? {} : repositoryEnvOf(options.cwd);
  } catch (error) {
    return { code: null, stdout: "", stderr: (error as Error).message };
  }
  if (repository.GIT_DIR) config.push(...CHECKOUT_CONFIG);
  if (options.listed) config.push(...options.listed.pairs.map(([key, value]) => [key, value] as [string, string]));
  else if (!options.isOwnConfig && !NO_DRIVER_COMMANDS.has(args[0] ?? "") && !isIndexOnly(args))
    config.push(...(await listOverrides(args[0] ?? "", { setting, cwd, env: { ...repository, ...options.env } })));
  // diff-tree reads the index, and takes a side of its patch from the worktree's file where an index entry
  // says that file holds the tree's blob (the index is the agent's to forge): with no index (a path under
  // /proc, where nobody can make one) every side comes from the trees.
  const extra =
    args[0] === "diff-tree" && options.env?.GIT_INDEX_FILE === undefined
      ? { ...repository, ...options.env, GIT_INDEX_FILE: NO_INDEX }
      : { ...repository, ...options.env };
  if (options.httpHeader !== undefined) config.push(["http.extraHeader", options.httpHeader]);
  for (const [key, value] of options.config ?? []) config.push([key, value]);
  const env = gitEnvironment(setting.home, { network, extra, config, gitFile: setting.file });
  const finalArgs = withSafeFlags(args);
  const files = { stdinFile: options.stdinFile, stdoutFile: options.stdoutFile };
  return run(finalArgs, { cwd, env, timeoutMs: options.timeoutMs ?? 120_000, setting }, files);
}

// Read as data: `git config --list` parses the config (with its includes) and runs nothing.
async function listOverrides(
  command: string,
  at: { setting: Setting; cwd: string; env: Record<string, string> },
): Promise<Array<[string, string]>> {
  const listEnv = gitEnvironment(at.setting.home, { extra: at.env, gitFile: at.setting.file });
  const args = ["config", "--list", "--includes", "--name-only", "--null"];
  const listed = await run(args, { cwd: at.cwd, env: listEnv, timeoutMs: 30_000, setting: at.setting });
  if (listed.code !== 0) throw gitFailure([command], listed);
  const partial = listed.stdout
    .split("\0")
    .find((key) => /^(extensions\.partialclone|remote\..+\.promisor)$/s.test(key));
  if (partial)
    throw new GitError(
      `git ${command} refused: the repository's config makes it a partial clone (${partial}), which fetches ` +
        "missing objects from a remote it names",
    );
  const config = namedOverrides(listed.stdout);
  if (config.length > MAX_NAMED_OVERRIDES)
    throw new GitError(
      `git ${command} refused: the repository's config names too many filter, diff, merge or remote drivers ` +
        `(${config.length} keys to override, at most ${MAX_NAMED_OVERRIDES})`,
    );
  return config;
}

// The drivers a repository's config names, listed once for several of Gatehouse's commands in a row (see
// GitOptions.listed).
export async function listDriverOverrides(cwd: string, env: Record<string, string> = {}): Promise<ListedOverrides> {
  return {
    pairs: await listOverrides("config", { setting: settingOf(false), cwd, env: { ...repositoryEnvOf(cwd), ...env } }),
  };
}

// Flags for what config cannot override: remote.<name>.uploadpack/receivepack keep their FIRST value
// (the repository's), so the transport commands name the program themselves; diff, log and show never
// start an external diff or a textconv program.
const SAFE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  fetch: ["--upload-pack=git-upload-pack"],
  clone: ["--upload-pack=git-upload-pack"],
  "ls-remote": ["--upload-pack=git-upload-pack"],
  pull: ["--upload-pack=git-upload-pack"],
  push: ["--receive-pack=git-receive-pack"],
  diff: ["--no-ext-diff", "--no-textconv"],
  // --text: a patch shows every file's lines, whatever attributes (info/attributes is in no tree) say.
  "diff-tree": ["--no-ext-diff", "--no-textconv", "--text"],
  log: ["--no-ext-diff", "--no-textconv"],
  show: ["--no-ext-diff", "--no-textconv"],
};

function withSafeFlags(args: string[]): string[] {
  const flags = SAFE_FLAGS[args[0] ?? ""];
  return flags ? [args[0], ...flags, ...args.slice(1)] : args;
}

export async function gitOk(args: string[], options: GitOptions = {}): Promise<boolean> {
  try {
    await git(args, options);
    return true;
  } catch {
    return false;
  }
}
