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
} from "../../../gates/mutation";
import { profilesWith } from "../../../gates/profiles";
import { MUTATION, PROOF_KIND, PROOF_NAMES } from "../../../gates/proof-ids";
import { CUT_SHORT_BY_STOP } from "../../../gates/row-warning";
import { shellQuote } from "../../../gates/shell-quote";
import { saveAttemptMutation } from "../../../db/runs";
import { attemptDirOf } from "../../paths";
import { timeoutWords } from "../budget";
import type { AttemptContext, Change } from "../context";
import { NOTHING, type Step, type StepResult } from "../step";
import { readCheckoutFile } from "../../checkout/checkout-files";

const MAX_REPORT_BYTES = 64 * 1024 * 1024;
const said = (message: string | null) => (message ? `: ${message}` : "");

// After a red gate the row is still there, skipped: a mutation floor that did not run says so.
export const mutationStep: Step = {
  id: "mutation",
  profiles: profilesWith("mutation"),
  after: "green",
  run: (ctx) => mutationFloor(ctx, true),
  notRun: (ctx) => mutationFloor(ctx, false),
};

const skipped = (message: string): MutationRecord => ({
  verdict: "skipped",
  tool: null,
  score: null,
  breakAt: null,
  files: [],
  mutated: [],
  message,
});

async function mutationFloor(ctx: AttemptContext, isGreen: boolean): Promise<StepResult> {
  const { run } = ctx;
  if (!run.startCommit || !run.proof) return NOTHING;
  const startedAt = new Date();
  let record: MutationRecord;
  if (!isGreen) record = skipped("not run: the gate is red");
  else {
    ctx.results.add({
      checkId: MUTATION,
      name: PROOF_NAMES[MUTATION],
      kind: PROOF_KIND,
      required: true,
      verdict: "running",
      message: "mutating the changed files…",
      startedAt,
    });
    try {
      record = await mutate(ctx);
    } catch (error) {
      record = { ...skipped(`could not run: ${(error as Error).message}`), verdict: "error" };
    }
  }
  await saveAttemptMutation({ id: ctx.attempt.id, mutation: record });
  const row = mutationRow(record);
  ctx.record(row, startedAt);
  return { verdicts: [{ required: row.required, verdict: row.verdict, checkId: MUTATION, message: row.message }] };
}

async function mutate(ctx: AttemptContext): Promise<MutationRecord> {
  const { run, attempt, deps } = ctx;
  const isCommand = !!run.mutationCommand;
  const change = await ctx.change();
  // The change's configuration (the tree the checks ran on), not the checkout's after them: the code the
  // checks ran could delete the threshold from disk while the commit keeps it.
  const stryker = isCommand ? null : await findStrykerConfig(change);
  if (!isCommand && !stryker?.settings.breakAt) return skipped(NO_THRESHOLD);
  if (isCommand && !run.mutationReport)
    return { ...skipped("the Work sets mutationCommand without mutationReport: nothing to read"), verdict: "error" };

  const targets = mutationTargets(change.changes, run.proof!.testPatterns);
  if (targets.length === 0) return skipped("the change touched no source file to mutate");
  if (ctx.budget.isSpent()) return skipped(`not run: ${ctx.budget.spentMessage()}`);
  const timeout = ctx.budget.timeoutFor(null);

  return ctx.withScratch(MUTATION, "change", async ({ dir }) => {
    let command: string;
    let reportFile: string;
    if (isCommand) {
      command = run.mutationCommand!;
      reportFile = run.mutationReport!;
    } else {
      if (!fs.existsSync(path.join(dir, "node_modules", ".bin", "stryker")))
        return {
          ...skipped(
            `${stryker!.file} sets a threshold, but Stryker is not installed in the checkout ` +
              "(node_modules/.bin/stryker): add @stryker-mutator/core to its devDependencies",
          ),
          verdict: "error" as const,
        };
      const [file, mutate] = [shellQuote(stryker!.file), shellQuote(targets.join(","))];
      command = `node_modules/.bin/stryker run ${file} --mutate ${mutate} --reporters json,clear-text`;
      reportFile = stryker!.settings.reportFile;
    }
    const outcome = await ctx.exec({
      command,
      cwd: dir,
      env: {
        checkId: null,
        passthrough: run.agentEnvPassthrough,
        extra: { GATEHOUSE_MUTATE_FILES: targets.join("\n") },
      },
      timeoutMs: timeout.timeoutMs,
      logPath: path.join(attemptDirOf(deps.dataDir, run.id, attempt.n), `${MUTATION}.run.log`),
      liveName: `${MUTATION}.run`,
    });
    if (outcome.isAborted) return skipped(CUT_SHORT_BY_STOP);
    if (outcome.isTimedOut) return skipped(timeout.isBudgetBound ? timeoutWords(timeout) : "stopped: it timed out");
    if (outcome.spawnError) return { ...skipped(`could not start: ${outcome.spawnError}`), verdict: "error" as const };
    // Read without following a link: a report linked to the database or to a file outside is not read.
    const read = readCheckoutFile(dir, reportFile, { maxBytes: MAX_REPORT_BYTES });
    if (read.kind === "refused")
      return { ...skipped(`the report is not read: ${read.reason}`), verdict: "error" as const };
    if (read.kind === "missing")
      return {
        ...skipped(`no report at ${reportFile} (exit code ${outcome.exitCode}${said(outcome.message)})`),
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
  });
}

// The first Stryker configuration the change's tree holds, read from the verified store (null: none).
async function findStrykerConfig(change: Change) {
  const listed = await change.store.git(["ls-tree", "-z", "--name-only", change.tree, "--", ...STRYKER_CONFIGS]);
  const present = new Set(listed.split("\0"));
  const file = STRYKER_CONFIGS.find((f) => present.has(f));
  if (!file) return null;
  const text = await change.store.git(["cat-file", "blob", `${change.tree}:${file}`]);
  return { file, settings: readStrykerConfig(file, text) };
}
