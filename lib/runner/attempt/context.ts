// What every step of an attempt shares: the run, the checkout, the budget, one masker, the results, and
// the few things steps did each their own way before (run a command, read the change since the start
// commit, record a row that no command produced). A leaf: it imports no step and no pipeline, so steps
// import it and never each other (biome.json forbids steps to import the pipeline).
import fs from "node:fs";
import type { AgentEnding } from "../../gates/agent-note";
import path from "node:path";
import type { AttemptRecord, RunRecord } from "../../db/runs";
import type { TaskRecord } from "../../db/tasks";
import type { WorkRecord } from "../../db/works";
import type { AppliedReport } from "../../gates/agent-report";
import { parseNameStatus, type FileChange, type ProofRow } from "../../gates/proof";
import { stripAnsi } from "../../gates/strip-ansi";
import { AttemptResults } from "../attempt-results";
import { buildCheckEnv, processMarkers } from "../check-env";
import {
  checkoutFingerprint,
  checkoutFingerprintSince,
  repoDirOf,
  type SavedIndex,
  type WrittenIndex,
} from "../checkout/checkout";
import { git, type GitOptions } from "../checkout/git";
import { commitOfTree, isScratch, scratchDirOf, type Scratch, withScratchWorktree } from "../checkout/scratch";
import { VerifiedStore } from "../checkout/verified-store";
import { liveLogKey, registerLiveLog, unregisterLiveLog } from "../live-logs";
import type { OutputMasker } from "../output/masker";
import { attemptDirOf, attemptFilesDirOf, checkHomeOf, checkLogPathOf, pipeDirOf } from "../paths";
import { runCommand, type CommandOutcome, type InsideSandbox } from "../process/run-command";
import { type CommandSandbox, sandboxFor, sandboxPlanOf, type SandboxRequest } from "../sandbox/command-sandbox";
import { AttemptSandboxes } from "../sandbox/attempt-sandbox";
import { dropEmptyReportFile, freshHomeFor, homeFor, prepareReportFile } from "../sandbox/command-files";
import { sandboxPolicyOf, type CommandRole } from "../sandbox/policy";
import { sandboxSettingsOf } from "../../gates/work-settings";
import type { RunnerDeps } from "../runner-deps";
import { Budget } from "./budget";
import { isHeldOut } from "./held-out-files";

export type AttemptInput = {
  run: RunRecord;
  task: TaskRecord;
  work: WorkRecord;
  attempt: AttemptRecord;
  previous: AttemptRecord | null;
  checkoutPath: string;
  signal: AbortSignal;
  deps: RunnerDeps;
  secrets: Record<string, string>;
  // The index git wrote as it made the checkout for this attempt, nothing having run there since (the first
  // attempt of a new task's run, with no agent step before the checks; checkout.ts `written`).
  written?: WrittenIndex | null;
};

// The environment of a command beyond the scrubbed base every command gets (lib/runner/check-env.ts).
export type ExecEnv = {
  // GATEHOUSE_CHECK_ID (null: the agent and the layers' commands, which are no check).
  checkId: string | null;
  passthrough: readonly string[];
  briefFile?: string;
  reportFile?: string;
  // Put before the PATH (the review's recording shims).
  pathPrefix?: string;
  extra?: Record<string, string>;
};

export type ExecSpec = {
  command: string;
  cwd: string;
  env: ExecEnv;
  timeoutMs: number;
  logPath: string;
  // The name its log is followed under while it runs (a check id, `_agent`, `_review`…).
  liveName: string;
  stdinFile?: string;
  expectStdout?: string;
  // Whose command it is: it decides the HOME and the sandbox's network (default "check").
  role?: CommandRole;
};

// The change from the run's start commit to the checkout as the checks found it (uncommitted changes
// included): the tree, its files by status, the diff without context, and (made when first asked) a
// commit of that tree for scratch worktrees. Read from the attempt's verified store (verified-store.ts),
// whose `store` is here for what reads more of the two versions.
export type Change = {
  tree: string;
  changes: FileChange[];
  diff: string;
  commit: () => Promise<string>;
  store: VerifiedStore;
};

const TAIL_BYTES = 16 * 1024;

export class AttemptContext {
  readonly run: RunRecord;
  readonly task: TaskRecord;
  readonly work: WorkRecord;
  readonly attempt: AttemptRecord;
  readonly previous: AttemptRecord | null;
  readonly checkoutPath: string;
  readonly signal: AbortSignal;
  readonly deps: RunnerDeps;
  readonly secrets: Record<string, string>;
  readonly budget: Budget;
  // One per attempt, for the text Gatehouse stores and shows (briefs, messages, rows, records). A command's
  // output stream gets its own (streamMasker): what it holds back between chunks belongs to that output.
  readonly masker: OutputMasker;
  // The attempt's rows while it runs (opened by the pipeline before the checks).
  readonly results: AttemptResults;
  // {{assets_dir}} and {{checks_dir}} of this attempt (the Work's assets, fresh clones of the check sources).
  assetsDir: string | null = null;
  checksDir: string | null = null;
  // The agent checks' verdicts from the agent's report (null: no agent step in this attempt).
  agentReport: AppliedReport | null = null;
  // How the agent command ended, when it did not pass (null: it passed, or no agent ran in this attempt).
  agentFailure: AgentEnding | null = null;
  private readonly secretValues: string[];
  private freshHomes = 0;
  private changeRead: Promise<Change> | null = null;
  private store: VerifiedStore | null = null;
  private isClosed = false;
  // The checkout's fingerprint read just before the checks (null: it could not be read; undefined: not
  // read by a pipeline, as when a test runs one step alone — read when the change is first asked for).
  private checkedTree: string | null | undefined = undefined;
  // The index that fingerprint was written from (null: not kept), for reading the checkout again after them.
  private checkedIndex: SavedIndex | null = null;
  // Where a dependency folder is an install (ignored-files.ts); the root alone until the pipeline reads it.
  dependencyHomes: ReadonlySet<string> = new Set([""]);
  // The agent's evidence file as it was before the checks (undefined: not read then; the checkout's is read).
  evidence: string | null | undefined = undefined;
  // The sandboxes the attempt's checks share (null: the sandbox is off or unavailable).
  private readonly sandboxes: AttemptSandboxes | null;

  constructor(input: AttemptInput) {
    this.run = input.run;
    this.task = input.task;
    this.work = input.work;
    this.attempt = input.attempt;
    this.previous = input.previous;
    this.checkoutPath = input.checkoutPath;
    this.signal = input.signal;
    this.deps = input.deps;
    this.secrets = input.secrets;
    this.budget = new Budget(input.run, input.deps.agentTimeoutMs);
    this.secretValues = Object.values(input.secrets);
    this.masker = input.deps.makeMasker(this.secretValues);
    this.results = new AttemptResults(input.run.id, input.attempt, input.run.checks);
    const { sandbox, dataDir, runAs } = input.deps;
    this.sandboxes =
      sandbox.kind === "bwrap"
        ? new AttemptSandboxes(sandbox.bwrap, { dataDir, runId: input.run.id, n: input.attempt.n, runAs })
        : null;
  }

  // Ends the sandboxes the checks shared and removes the verified store (the pipeline, once the attempt
  // is judged).
  async close(): Promise<void> {
    this.isClosed = true;
    this.store?.close();
    this.store = null;
    await this.sandboxes?.close();
  }

  streamMasker(): OutputMasker {
    return this.deps.makeMasker(this.secretValues);
  }

  // Where the attempt's logs go, and the HOME its commands share.
  makeDirs(): void {
    fs.mkdirSync(attemptDirOf(this.deps.dataDir, this.run.id, this.attempt.n), { recursive: true });
    fs.mkdirSync(checkHomeOf(this.deps.dataDir), { recursive: true });
  }

  // The one place a command of an attempt is started: the scrubbed environment, the platform's settings
  // (log cap, kill grace, output pipes, run-as, the markers the escape sweep looks for), stoppable with the
  // run, its log readable live while it runs, its time spent from the budget.
  async exec(spec: ExecSpec): Promise<CommandOutcome> {
    const { deps, run } = this;
    const role = spec.role ?? "check";
    const owner = { dataDir: deps.dataDir, workId: run.workId, runId: run.id, n: this.attempt.n, runAs: deps.runAs };
    const env = buildCheckEnv({
      runId: run.id,
      attempt: this.attempt.n,
      checkId: spec.env.checkId,
      briefFile: spec.env.briefFile,
      reportFile: spec.env.reportFile,
      passthrough: spec.env.passthrough,
      secrets: this.secrets,
      serverEnv: deps.serverEnv,
      // The agent's HOME is the Work's, kept between runs; the checks' is fresh per attempt, and a command
      // run again in a scratch worktree (the proof rows, the red team's probes, the mutation floor) or a
      // held-out check gets one of its own: nothing the agent's code left in the checks' HOME (a Python .pth
      // in ~/.local, an ~/.npmrc) reaches the runs that judge it.
      home: this.hasHomeOfItsOwn(role, spec) ? freshHomeFor(owner, ++this.freshHomes) : homeFor(owner, role),
    });
    if (spec.env.pathPrefix) env.PATH = `${spec.env.pathPrefix}:${env.PATH}`;
    Object.assign(env, spec.env.extra);
    // In the sandbox the report file is bound alone, so it must exist first (empty: no report).
    const isSandboxed = deps.sandbox.kind === "bwrap";
    if (isSandboxed) prepareReportFile(env, deps.runAs);
    const request: Omit<SandboxRequest, "mode"> = {
      policy: sandboxPolicyOf(sandboxSettingsOf(run.sandbox), role),
      dataDir: deps.dataDir,
      installDir: process.cwd(),
      taskCheckout: this.checkoutPath,
      cwd: spec.cwd,
      env,
      runAs: deps.runAs,
    };
    const liveKey = this.liveKey(spec.liveName);
    const run1 = (where: { sandbox?: CommandSandbox | null; inside?: InsideSandbox | null }) =>
      runCommand({
        command: spec.command,
        cwd: spec.cwd,
        env,
        timeoutMs: spec.timeoutMs,
        logPath: spec.logPath,
        stdinFile: spec.stdinFile,
        expectStdout: spec.expectStdout,
        masker: this.streamMasker(),
        capBytes: deps.logCapBytes,
        signal: this.signal,
        killGraceMs: deps.killGraceMs,
        markers: processMarkers(env),
        pipeDir: pipeDirOf(deps.dataDir),
        runAs: deps.runAs,
        ...where,
        onSpawn: ({ sink }) => registerLiveLog(liveKey, sink),
      });
    let outcome: CommandOutcome;
    try {
      // A check's command runs in the sandbox the attempt's checks share; the agent's and a reviewer's, which
      // are handed files of their own (brief, report, shims), each in a sandbox of its own.
      if (role === "check" && this.sandboxes) outcome = await this.execInside(request, run1);
      else outcome = await run1({ sandbox: sandboxFor({ mode: deps.sandbox, ...request }) });
    } finally {
      unregisterLiveLog(liveKey);
      if (isSandboxed) dropEmptyReportFile(env);
    }
    this.budget.spend(outcome.durationMs);
    return outcome;
  }

  private hasHomeOfItsOwn(role: CommandRole, spec: ExecSpec): boolean {
    if (role !== "check") return false;
    if (isScratch(this.deps.dataDir, spec.cwd)) return true;
    const check = spec.env.checkId ? this.run.checks.find((c) => c.id === spec.env.checkId) : undefined;
    return !!check && isHeldOut(check);
  }

  // In the shared sandbox of the command's plan. A sandbox a command of the same attempt just ended (killed
  // its spawner) may still look open when the next command is sent to it: that one gets a new sandbox.
  private async execInside(
    request: Omit<SandboxRequest, "mode">,
    run1: (where: { sandbox?: CommandSandbox | null; inside?: InsideSandbox | null }) => Promise<CommandOutcome>,
  ): Promise<CommandOutcome> {
    const plan = sandboxPlanOf(request);
    for (let tries = 1; ; tries++) {
      const held = "error" in plan ? plan : await this.sandboxes!.insideFor(plan);
      if ("error" in held) return run1({ sandbox: held });
      const outcome = await run1({ inside: held.inside }).finally(held.release);
      if (!outcome.spawnError || held.inside.launcher.isOpen || tries === 2) return outcome;
    }
  }

  liveKey(name: string): string {
    return liveLogKey(this.run.id, this.attempt.n, name);
  }

  // The checkout's fingerprint read just before the checks (null: unreadable; undefined: not read).
  checkedTreeRead(): string | null | undefined {
    return this.checkedTree;
  }

  // What the checks were run on: the checkout's fingerprint just before them (the pipeline says). The
  // change is that tree, not the checkout after the checks: the agent's code runs in the checks and could put
  // a weakened test's original text back on disk once it has passed, while the commit keeps the weakened one.
  setCheckedTree(tree: string | null, index: SavedIndex | null = null): void {
    this.checkedTree = tree;
    this.checkedIndex = tree === null ? null : index;
  }

  // The checkout's fingerprint now (after the checks): from the index read before them when it was kept, so
  // git reads again only the files whose details changed since.
  fingerprintNow(): Promise<string> {
    return this.checkedIndex
      ? checkoutFingerprintSince(this.checkoutPath, this.checkedIndex)
      : checkoutFingerprint(this.checkoutPath);
  }

  // Read once per attempt (proof, review, red team and mutation ask for it); rejects when git cannot.
  change(): Promise<Change> {
    this.changeRead ??= this.readChange();
    return this.changeRead;
  }

  private async readChange(): Promise<Change> {
    if (this.checkedTree === null) throw new Error("the checkout could not be read before the checks");
    const tree = this.checkedTree ?? (await checkoutFingerprint(this.checkoutPath));
    const repoDir = repoDirOf(this.deps.dataDir, this.run.workId);
    return readChange(this.checkoutPath, this.run.startCommit!, tree, repoDir, () => this.verifiedStore());
  }

  // The attempt's verified store, made when first asked for (never again once the attempt is closed).
  private verifiedStore(): VerifiedStore {
    if (this.isClosed) throw new Error("the attempt is over: its verified store is gone");
    this.store ??= VerifiedStore.open({
      dir: path.join(attemptFilesDirOf(this.deps.dataDir, this.run.id, this.attempt.n), "verified-objects"),
      repoDir: repoDirOf(this.deps.dataDir, this.run.workId),
      runAs: this.deps.runAs,
    });
    return this.store;
  }

  // A scratch worktree named `name`, at the change (the checkout as the checks saw it) or at the start
  // commit, its files from the verified store; removed once `fn` is done.
  async withScratch<T>(name: string, at: "change" | "start", fn: (scratch: Scratch) => Promise<T>): Promise<T> {
    const change = await this.change();
    const start = this.run.startCommit!;
    return withScratchWorktree({
      checkoutPath: this.checkoutPath,
      dir: scratchDirOf(this.deps.dataDir, this.run.id, this.attempt.n, name),
      commit: at === "change" ? await change.commit() : start,
      tree: at === "change" ? change.tree : start,
      store: change.store,
      dependencyHomes: this.dependencyHomes,
      fn,
    });
  }

  // Gatehouse itself added files to the checkout (the red team's probes, committed): the change is read
  // again, as the tree the checks ran on with those files (`tree`, made in the verified store: never the
  // checkout after the checks).
  forgetChange(tree: string): void {
    this.changeRead = null;
    this.checkedTree = tree;
    this.checkedIndex = null;
  }

  // A row no command produced (proof rows, the layers' rows): its log is what it found (masked like every
  // log); its tail is the same text, cut to 16 KB.
  record(r: ProofRow, startedAt: Date): void {
    const details = this.masker.maskText(r.details);
    const logPath = checkLogPathOf(this.deps.dataDir, this.run.id, this.attempt.n, r.checkId);
    fs.mkdirSync(path.dirname(logPath), { recursive: true });
    fs.writeFileSync(logPath, details, { mode: 0o600 });
    const bytes = Buffer.byteLength(details);
    const finishedAt = new Date();
    this.results.add({
      checkId: r.checkId,
      name: r.name,
      kind: r.kind,
      required: r.required,
      verdict: r.verdict,
      message: this.masker.maskText(r.message),
      logTail:
        bytes <= TAIL_BYTES
          ? details
          : Buffer.from(details)
              .subarray(bytes - TAIL_BYTES)
              .toString("utf8"),
      logBytes: bytes,
      logNote: null,
      exitCode: null,
      durationMs: finishedAt.getTime() - startedAt.getTime(),
      startedAt,
      finishedAt,
    });
  }
}

async function readChange(
  checkoutPath: string,
  start: string,
  tree: string,
  repoDir: string,
  storeOf: () => VerifiedStore,
): Promise<Change> {
  let changes: FileChange[] = [];
  let diff = "";
  // Made here unless the checks ran on the start commit's very tree as this process knows it (a run of checks
  // alone): nothing changed, nothing to read, and the store is made only if a step asks for it.
  let store: VerifiedStore | null = null;
  if (VerifiedStore.knownTreeOf(repoDir, start) !== tree) {
    store = storeOf();
    const startTree = await store.treeOf(start);
    if (!startTree) throw new Error(`the run's start commit ${start.slice(0, 12)} is not in the Work's repository`);
    await store.bring(checkoutPath, tree, startTree);
    if (tree !== startTree)
      [changes, diff] = await Promise.all([
        filesChanged(store.options(), start, tree),
        // Plumbing, tree to tree: no config of the checkout's (diff.noprefix, diff.relative) reshapes it.
        store.git(["diff-tree", "-r", "-p", "-U0", "--no-renames", "--no-color", start, tree]),
      ]);
  }
  let commit: Promise<string> | null = null;
  return {
    tree,
    changes,
    diff,
    get store() {
      return store ?? storeOf();
    },
    commit: () => {
      commit ??= commitOfTree(checkoutPath, tree, start);
      return commit;
    },
  };
}

// The files that differ between two commits or trees, by status (renames as a delete and an add), as the
// repository `where` (a verified store's options) has them.
export async function filesChanged(where: GitOptions, from: string, to: string): Promise<FileChange[]> {
  return parseNameStatus(await git(["diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to], where));
}

// Text masked as it is SHOWN: the masker matches through escape sequences, and if the text with its
// escapes stripped (as a message is made, or a viewer shows it) still holds a secret, the stripped text
// is kept instead, masked. A second lock behind the stream masker.
export function maskShown<T extends string | null>(masker: OutputMasker, text: T): T {
  if (text === null) return text;
  const masked = masker.maskText(text);
  const visible = stripAnsi(masked);
  const remasked = masker.maskText(visible);
  return (remasked === visible ? masked : remasked) as T;
}

// A record stored and shown (a review's, a red team's) passes the run's masker, every string in it.
export function maskDeep<T>(masker: OutputMasker, record: T): T {
  const mask = (value: unknown): unknown =>
    typeof value === "string"
      ? masker.maskText(value)
      : Array.isArray(value)
        ? value.map(mask)
        : value && typeof value === "object"
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v)]))
          : value;
  return mask(record) as T;
}
