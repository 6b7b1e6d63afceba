// The red team (profile full, when the run froze a red-team command and a red-team test command): after the
// review passes, the red-team command runs in its own scratch worktree of the checkout as the checks saw it
// with a brief (what the change touched, what the checks cover, the objective) and writes probes under
// tests/redteam/. Each probe is then run alone, in a fresh scratch worktree with only that probe laid in,
// by the test command ($GATEHOUSE_PROBE names it). Failing probes make the attempt red (their output is
// the next brief's); when all pass they are committed on the task branch in one commit, never
// overwriting a file. Bounded by what is left of the run's budget.
import fs from "node:fs";
import path from "node:path";
import { whatCheckRuns } from "../../../gates/builtins";
import { profilesWith } from "../../../gates/profiles";
import { PROOF_KIND, PROOF_NAMES, RED_TEAM } from "../../../gates/proof-ids";
import { CUT_SHORT_BY_STOP } from "../../../gates/row-warning";
import { composeRedTeamBrief, judgeRedTeam, type RedTeamRecord, redTeamRow, sortProbes } from "../../../gates/red-team";
import { saveAttemptRedTeam } from "../../../db/runs";
import { checkoutFingerprint } from "../../checkout/checkout";
import {
  makeRunDir,
  readCheckoutFile,
  readRunFile,
  writeCheckoutFile,
  writeRunFile,
} from "../../checkout/checkout-files";
import { git } from "../../checkout/git";
import { attemptDirOf } from "../../paths";
import { giveTo } from "../../run-as";
import { timeoutWords } from "../budget";
import { type AttemptContext, type ExecEnv, filesChanged, maskDeep } from "../context";
import { NOTHING, type Step, type StepResult } from "../step";

const MAX_REPORT = 64 * 1024;
const MAX_PROBE_BYTES = 1024 * 1024;
const MAX_PROBE_OUTPUT = 8 * 1024;
const IDENTITY = {
  GIT_AUTHOR_NAME: "Gatehouse",
  GIT_AUTHOR_EMAIL: "gatehouse@gatehouse.invalid",
  GIT_COMMITTER_NAME: "Gatehouse",
  GIT_COMMITTER_EMAIL: "gatehouse@gatehouse.invalid",
};

export const redTeamStep: Step = {
  id: "red-team",
  profiles: profilesWith("red-team"),
  after: "green",
  run: runRedTeam,
};

async function runRedTeam(ctx: AttemptContext): Promise<StepResult> {
  const { run } = ctx;
  if (!run.redTeamCommand || !run.redTeamTestCommand || !run.startCommit || !run.proof) return NOTHING;
  const startedAt = new Date();
  ctx.results.add({
    checkId: RED_TEAM,
    name: PROOF_NAMES[RED_TEAM],
    kind: PROOF_KIND,
    required: true,
    verdict: "running",
    message: "the red team is trying to break the change…",
    startedAt,
  });
  let record: RedTeamRecord;
  try {
    record = await redTeam(ctx);
  } catch (error) {
    record = failure(`could not run: ${(error as Error).message}`);
  }
  await saveAttemptRedTeam({ id: ctx.attempt.id, redTeam: maskDeep(ctx.masker, record) });
  const row = redTeamRow(record);
  ctx.record(row, startedAt);
  return { verdicts: [{ required: true, verdict: row.verdict, checkId: RED_TEAM, message: row.message }] };
}

const failure = (message: string, exitCode: number | null = null): RedTeamRecord => ({
  verdict: "error",
  message,
  probes: [],
  refused: [],
  committed: null,
  report: null,
  exitCode,
});

async function redTeam(ctx: AttemptContext): Promise<RedTeamRecord> {
  const { run, attempt, deps, task } = ctx;
  const change = await ctx.change();
  const changed = change.changes.map((c) => c.path);
  const dir = path.join(deps.dataDir, "briefs", run.id, `${attempt.n}-redteam`);
  makeRunDir(deps.dataDir, dir);
  giveTo(path.dirname(dir), deps.runAs);
  giveTo(dir, deps.runAs);
  const brief = path.join(dir, "brief.md");
  // What the checks cover, as the agent may know it: held-out checks stay out (its probes become feedback).
  const visibleChecks = run.checks
    .filter((c) => !c.hidden)
    .map((c) => ({ id: c.id, name: c.name, command: whatCheckRuns(c) }));
  const reportFile = path.join(dir, "report.txt");
  writeRunFile(deps.dataDir, brief, ctx.masker.maskText(composeRedTeamBrief({ task, changed, checks: visibleChecks })));
  giveTo(brief, deps.runAs);
  fs.rmSync(reportFile, { force: true });

  if (ctx.budget.isSpent()) return failure(`not run: ${ctx.budget.spentMessage()}`);
  const timeout = ctx.budget.timeoutFor(null);
  // 1. The red team writes its probes in its own scratch worktree.
  const written = await ctx.withScratch(RED_TEAM, "change", async ({ dir: scratch }) => {
    const outcome = await ctx.exec({
      role: "reviewer",
      command: run.redTeamCommand!,
      cwd: scratch,
      env: { ...envOf(ctx, brief), reportFile },
      timeoutMs: timeout.timeoutMs,
      stdinFile: brief,
      logPath: path.join(attemptDirOf(deps.dataDir, run.id, attempt.n), `${RED_TEAM}.run.log`),
      liveName: RED_TEAM,
    });
    // What the red team wrote, hashed from its files and brought into the verified store.
    const probed = await checkoutFingerprint(scratch, { scratch: true });
    await change.store.bring(ctx.checkoutPath, probed, change.tree);
    const changes = await filesChanged(change.store.options(), change.tree, probed);
    const files = new Map<string, Buffer>();
    for (const c of changes)
      if (c.status === "A") {
        const read = readCheckoutFile(scratch, c.path, { maxBytes: MAX_PROBE_BYTES });
        if (read.kind === "file") files.set(c.path, read.bytes);
      }
    return { outcome, changes, files };
  });
  const report = readCapped(deps.dataDir, reportFile, MAX_REPORT);
  const { outcome } = written;
  // A stop is no error of the red team's: skipped, cut short (the row reads "Stopped").
  if (outcome.isAborted) return { ...failure(CUT_SHORT_BY_STOP), verdict: "skipped" };
  if (outcome.isTimedOut)
    return {
      ...failure(timeout.isBudgetBound ? timeoutWords(timeout) : "stopped: the red team timed out"),
      report,
    };
  if (outcome.spawnError) return failure(`the red-team command could not start: ${outcome.spawnError}`);

  const existing = await filesOfCheckout(
    ctx.checkoutPath,
    written.changes.map((c) => c.path),
  );
  const sorted = sortProbes(written.changes, run.proof!.testPatterns, existing);
  // 2. Each probe alone against the change.
  const probes: RedTeamRecord["probes"] = [];
  for (const probe of sorted.probes) {
    if (ctx.signal.aborted || ctx.budget.isSpent()) {
      probes.push({ path: probe, verdict: "skipped", exitCode: null, output: "not run: the budget ran out" });
      continue;
    }
    probes.push(await runProbe(ctx, probe, written.files.get(probe) ?? Buffer.alloc(0), brief));
  }
  const judged = judgeRedTeam({ probes, refused: sorted.refused, report, exitCode: outcome.exitCode });
  // 3. All passing: kept on the task branch.
  if (judged.verdict === "passed" && probes.length > 0)
    return { ...judged, committed: await commitProbes(ctx, sorted.probes, written.files) };
  return judged;
}

function envOf(ctx: AttemptContext, brief: string): ExecEnv {
  return { checkId: null, briefFile: brief, passthrough: ctx.run.agentEnvPassthrough };
}

async function runProbe(
  ctx: AttemptContext,
  probe: string,
  content: Buffer,
  brief: string,
): Promise<RedTeamRecord["probes"][number]> {
  const { run, attempt, deps } = ctx;
  return ctx.withScratch(`${RED_TEAM}-probe`, "change", async ({ dir: scratch }) => {
    const written = writeCheckoutFile(scratch, probe, content, { ownedLikeRoot: true });
    if (written.kind === "refused")
      return { path: probe, verdict: "error" as const, exitCode: null, output: `not run: ${written.reason}` };
    const outcome = await ctx.exec({
      command: run.redTeamTestCommand!,
      cwd: scratch,
      env: { ...envOf(ctx, brief), extra: { GATEHOUSE_PROBE: probe } },
      timeoutMs: ctx.budget.timeoutFor(null).timeoutMs,
      logPath: path.join(attemptDirOf(deps.dataDir, run.id, attempt.n), `${RED_TEAM}.probe.log`),
      liveName: `${RED_TEAM}.probe`,
    });
    const output = ctx.masker.maskText(outcome.tail.slice(-MAX_PROBE_OUTPUT));
    if (outcome.spawnError || outcome.isTimedOut || outcome.isAborted)
      return {
        path: probe,
        verdict: "error" as const,
        exitCode: outcome.exitCode,
        output: outcome.spawnError ?? (outcome.isTimedOut ? "stopped: out of time" : "stopped"),
      };
    return { path: probe, verdict: outcome.exitCode === 0 ? "passed" : "failed", exitCode: outcome.exitCode, output };
  });
}

// The paths that already exist in the task's checkout (a probe never overwrites one).
async function filesOfCheckout(checkoutPath: string, paths: readonly string[]): Promise<Set<string>> {
  return new Set(paths.filter((p) => fs.lstatSync(path.join(checkoutPath, p), { throwIfNoEntry: false })));
}

// One commit on the task branch adding exactly the probes (the task's worktree gets the files; nothing else
// it holds is committed).
async function commitProbes(
  ctx: AttemptContext,
  probes: readonly string[],
  files: ReadonlyMap<string, Buffer>,
): Promise<string | null> {
  const kept = probes.filter((p) => !fs.lstatSync(path.join(ctx.checkoutPath, p), { throwIfNoEntry: false }));
  if (kept.length === 0) return null;
  for (const p of kept) {
    const written = writeCheckoutFile(ctx.checkoutPath, p, files.get(p) ?? Buffer.alloc(0), {
      exclusive: true,
      ownedLikeRoot: true,
    });
    if (written.kind === "refused") throw new Error(`the red team's probe ${p}: ${written.reason}`);
  }
  // The checkout now holds the probes: what comes after (the mutation floor) reads the change again, the
  // tree the checks ran on with the probes added.
  const change = await ctx.change();
  ctx.forgetChange(
    await change.store.withFiles(
      change.tree,
      new Map(kept.map((p) => [p, files.get(p) ?? Buffer.alloc(0)])),
      ctx.checkoutPath,
    ),
  );
  const cwd = ctx.checkoutPath;
  await git(["add", "--", ...kept], { cwd });
  await git(["commit", "--quiet", "--no-verify", "-m", `test(redteam): probes for ${ctx.task.key}`, "--", ...kept], {
    cwd,
    env: IDENTITY,
  });
  return (await git(["rev-parse", "HEAD"], { cwd })).trim();
}

function readCapped(dataDir: string, file: string, max: number): string | null {
  const read = readRunFile(dataDir, file, 16 * max);
  if (read.kind === "missing") return null;
  if (read.kind === "refused") return `[not read: ${read.reason}]`;
  const text = read.bytes.toString("utf8");
  return text.length > max ? `${text.slice(0, max)}\n[cut at ${max} characters]` : text;
}
