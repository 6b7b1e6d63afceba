// The mutation floor (profile full): after everything else is green, the source files the change touched
// are mutated in a scratch worktree of the checkout as the checks saw it, with Stryker from the
// repository's own install (node_modules/.bin/stryker) when it commits a Stryker configuration with
// thresholds.break, or with the Work's mutationCommand (its files in $GATEHOUSE_MUTATE_FILES), whose
// JSON report is read from mutationReport. Bounded by what is left of the run's budget.
import fs from "node:fs";
import path from "node:path";
import {
  judgeMutation,
  mutationRow,
  mutationTargets,
  NO_THRESHOLD,
  parseMutationReport,
  readStrykerConfig,
  STRYKER_CONFIGS,
  type MutationRecord,
} from "../gates/mutation";
import { parseNameStatus } from "../gates/proof";
import { MUTATION, PROOF_KIND, PROOF_NAMES } from "../gates/proof-ids";
import { saveAttemptMutation } from "../db/runs";
import type { AttemptResults } from "./attempt-results";
import { buildCheckEnv } from "./check-env";
import { checkoutFingerprint } from "./checkout/checkout";
import { readCheckoutFile } from "./checkout/checkout-files";
import { git } from "./checkout/git";
import { commitOfTree, scratchDirOf, withScratchWorktree } from "./checkout/scratch";
import { type AttemptContext, remainingBudgetMs, runWatched } from "./execute-attempt";
import { liveLogKey } from "./live-logs";
import { attemptDirOf, checkHomeOf } from "./paths";
import { recordRow, type ProofVerdictOf } from "./proof-step";

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

// `isGreen`: whether the gate is green so far. Null when the profile is not full (no row).
export async function runMutationStep(
  ctx: AttemptContext,
  results: AttemptResults,
  isGreen: boolean,
): Promise<ProofVerdictOf | null> {
  const { run } = ctx;
  if (run.profile !== "full" || !run.startCommit || !run.proof || ctx.signal.aborted) return null;
  const startedAt = new Date();
  const skipped = (message: string): MutationRecord => ({
    verdict: "skipped",
    tool: null,
    score: null,
    breakAt: null,
    files: [],
    mutated: [],
    message,
  });
  let record: MutationRecord;
  if (!isGreen) record = skipped("not run: the gate is red");
  else {
    results.add({
      checkId: MUTATION,
      name: PROOF_NAMES[MUTATION],
      kind: PROOF_KIND,
      required: true,
      verdict: "running",
      message: "mutating the changed files…",
      startedAt,
    });
    try {
      record = await mutate(ctx, skipped);
    } catch (error) {
      record = { ...skipped(`could not run: ${(error as Error).message}`), verdict: "error" };
    }
  }
  await saveAttemptMutation({ id: ctx.attempt.id, mutation: record });
  const row = mutationRow(record);
  recordRow(ctx, results, row, startedAt);
  return { required: row.required, verdict: row.verdict, checkId: MUTATION, message: row.message };
}

async function mutate(ctx: AttemptContext, skipped: (message: string) => MutationRecord): Promise<MutationRecord> {
  const { run, attempt, deps } = ctx;
  const start = run.startCommit!;
  const stryker = findStrykerConfig(ctx.checkoutPath);
  const isCommand = !!run.mutationCommand;
  if (!isCommand && !stryker?.settings.breakAt) return skipped(NO_THRESHOLD);
  if (isCommand && !run.mutationReport)
    return { ...skipped("the Work sets mutationCommand without mutationReport: nothing to read"), verdict: "error" };

  const tree = await checkoutFingerprint(ctx.checkoutPath);
  const changes = parseNameStatus(
    await git(["diff-tree", "-r", "-z", "--no-renames", "--name-status", start, tree], { cwd: ctx.checkoutPath }),
  );
  const targets = mutationTargets(changes, run.proof!.testPatterns);
  if (targets.length === 0) return skipped("the change touched no source file to mutate");
  const budget = remainingBudgetMs(run);
  if (budget !== null && budget <= 0) return skipped(`not run: the run's budget of ${run.budgetSec}s is spent`);

  const commit = await commitOfTree(ctx.checkoutPath, tree, start);
  return withScratchWorktree({
    checkoutPath: ctx.checkoutPath,
    dir: scratchDirOf(deps.dataDir, run.id, attempt.n, MUTATION),
    commit,
    fn: async (dir) => {
      let command: string;
      let reportFile: string;
      if (isCommand) {
        command = run.mutationCommand!;
        reportFile = run.mutationReport!;
      } else {
        if (!fs.existsSync(path.join(dir, "node_modules", ".bin", "stryker")))
          return {
            ...skipped(
              `${stryker!.file} sets a threshold, but Stryker is not installed in the checkout (node_modules/.bin/stryker): add @stryker-mutator/core to its devDependencies`,
            ),
            verdict: "error" as const,
          };
        command = `node_modules/.bin/stryker run ${quote(stryker!.file)} --mutate ${quote(targets.join(","))} --reporters json,clear-text`;
        reportFile = stryker!.settings.reportFile;
      }
      const env = buildCheckEnv({
        runId: run.id,
        attempt: attempt.n,
        checkId: null,
        passthrough: run.agentEnvPassthrough,
        secrets: ctx.secrets,
        serverEnv: deps.serverEnv,
        home: checkHomeOf(deps.dataDir),
      });
      env.GATEHOUSE_MUTATE_FILES = targets.join("\n");
      const outcome = await runWatched(ctx, liveLogKey(run.id, attempt.n, `${MUTATION}.run`), {
        command,
        cwd: dir,
        env,
        timeoutMs: budget === null ? deps.agentTimeoutMs : Math.max(1, budget),
        logPath: path.join(attemptDirOf(deps.dataDir, run.id, attempt.n), `${MUTATION}.run.log`),
        masker: ctx.masker(),
      });
      run.spentMs += outcome.durationMs;
      if (outcome.isAborted) return skipped("not run to the end: the run was stopped");
      if (outcome.isTimedOut)
        return skipped(budget === null ? "stopped: it timed out" : "stopped when the run's budget ran out");
      if (outcome.spawnError)
        return { ...skipped(`could not start: ${outcome.spawnError}`), verdict: "error" as const };
      // Read without following a link: a report linked to the database or to a file outside is not read.
      const read = readCheckoutFile(dir, reportFile, { maxBytes: MAX_REPORT_BYTES });
      if (read.kind === "refused")
        return { ...skipped(`the report is not read: ${read.reason}`), verdict: "error" as const };
      if (read.kind === "missing")
        return {
          ...skipped(
            `no report at ${reportFile} (exit code ${outcome.exitCode}${outcome.message ? `: ${outcome.message}` : ""})`,
          ),
          verdict: "error" as const,
        };
      const report = parseMutationReport(read.bytes.toString("utf8"));
      if ("problem" in report) return { ...skipped(`${reportFile}: ${report.problem}`), verdict: "error" as const };
      return judgeMutation({
        tool: isCommand ? "command" : "stryker",
        report,
        breakAt: isCommand ? null : stryker!.settings.breakAt,
        exitCode: outcome.exitCode,
        mutated: targets,
      });
    },
  });
}

function findStrykerConfig(checkoutPath: string) {
  for (const file of STRYKER_CONFIGS) {
    const read = readCheckoutFile(checkoutPath, file, { maxBytes: 1024 * 1024 });
    if (read.kind === "file") return { file, settings: readStrykerConfig(file, read.bytes.toString("utf8")) };
  }
  return null;
}
