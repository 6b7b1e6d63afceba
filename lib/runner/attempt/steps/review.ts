// The review layer (profiles standard and full, when the run froze a review command): after a green gate the
// review command runs in its own scratch worktree of the checkout as the checks saw it, with a review brief
// (the task, its criteria with their commands, the diff) on stdin and in $GATEHOUSE_BRIEF_FILE, and writes
// its report to $GATEHOUSE_REPORT_FILE. lib/gates/review.ts judges the report.
//
// Counting what the review executed: its PATH starts with a directory of shims (../review-shims.ts), one
// per program name found on the PATH, each a link to a small bash script that finds the real program,
// appends its pid and command line to a log only Gatehouse reads back, and execs it. The first entry is the review
// command's own shell (the spawner finds `bash` on the command's PATH); it, and whatever it exec'd in its
// place, share its pid and are not counted.
// What this cannot see: programs started by absolute path, shell builtins, and an interpreter's own work
// (a `node -e` that reads a file runs no program). See the README.
import fs from "node:fs";
import path from "node:path";
import { whatCheckRuns } from "../../../gates/builtins";
import { criteriaOf } from "../../../gates/evidence";
import { profilesWith } from "../../../gates/profiles";
import { REVIEW } from "../../../gates/proof-ids";
import { CUT_SHORT_BY_STOP, RUN_STOPPED } from "../../../gates/row-warning";
import { PROOF_KIND, PROOF_NAMES } from "../../../gates/proof";
import {
  composeReviewBrief,
  judgeReview,
  notRunReview,
  parseReviewReport,
  REVIEW_TRIES,
  reviewRow,
  type CheckSeen,
  type ReviewRecord,
  type ReviewTry,
} from "../../../gates/review";
import { saveAttemptReview } from "../../../db/runs";
import { makeRunDir, readRunFile, writeRunFile } from "../../checkout/checkout-files";
import { attemptDirOf } from "../../paths";
import { giveTo } from "../../run-as";
import { type AttemptContext, maskDeep } from "../context";
import { NOTHING, type Step, type StepResult } from "../step";
import { reviewShims } from "../review-shims";

const MAX_DIFF_BYTES = 256 * 1024;
const MAX_REPORT_BYTES = 4 * 1024 * 1024;

export const reviewStep: Step = {
  id: "review",
  profiles: profilesWith("review"),
  after: "green",
  run: runReview,
};

// Runs the review when the run froze a review command and the task has criteria; no row otherwise.
async function runReview(ctx: AttemptContext): Promise<StepResult> {
  const { run, attempt, deps, results } = ctx;
  const ids = criteriaOf(run.checks);
  const criteria = run.checks
    .filter((c) => ids.includes(c.id))
    .map((c) => ({ id: c.id, name: c.name, command: whatCheckRuns(c), cwd: c.cwd }));
  if (!run.reviewCommand || !run.startCommit || criteria.length === 0) return NOTHING;
  const startedAt = new Date();
  results.add({
    checkId: REVIEW,
    name: PROOF_NAMES[REVIEW],
    kind: PROOF_KIND,
    required: true,
    verdict: "running",
    message: "the review is running the criteria…",
    startedAt,
  });
  const checks = new Map<string, CheckSeen>(
    results.view().map((r) => [r.checkId, { verdict: r.verdict, output: r.logTail }]),
  );
  let record: ReviewRecord;
  try {
    const change = await ctx.change();
    const diff = await change.store.git([
      "diff-tree",
      "-r",
      "-p",
      "--no-color",
      "--no-renames",
      run.startCommit,
      change.tree,
    ]);
    const isDiffCut = Buffer.byteLength(diff) > MAX_DIFF_BYTES;
    const brief = ctx.masker.maskText(
      composeReviewBrief({
        task: ctx.task,
        criteria,
        diff: isDiffCut ? Buffer.from(diff).subarray(0, MAX_DIFF_BYTES).toString("utf8") : diff,
        isDiffCut,
      }),
    );
    const files = reviewFilesOf(deps.dataDir, run.id, attempt.n);
    makeRunDir(deps.dataDir, files.dir);
    giveTo(path.dirname(files.dir), deps.runAs);
    giveTo(files.dir, deps.runAs);
    writeRunFile(deps.dataDir, files.brief, brief);
    giveTo(files.brief, deps.runAs);
    const shimBin = reviewShims(deps.dataDir, (deps.serverEnv.PATH ?? "").split(":")).bin;

    const tries: ReviewTry[] = [];
    let judged: ReviewRecord | null = null;
    for (let n = 1; n <= REVIEW_TRIES && !judged; n++) {
      if (ctx.signal.aborted) break;
      if (ctx.budget.isSpent()) {
        tries.push({ n, exitCode: null, executed: [], problem: ctx.budget.spentMessage(), durationMs: 0 });
        break;
      }
      const done = await ctx.withScratch(`${REVIEW}${n}`, "change", ({ dir }) =>
        reviewTry(ctx, { dir, n, files, shimBin }),
      );
      const parsed = done.problem ? null : parseReviewReport(done.report, ids);
      const problem =
        done.problem ??
        (done.executed.length === 0 ? "it executed no command" : parsed && "problem" in parsed ? parsed.problem : null);
      tries.push({ n, exitCode: done.exitCode, executed: done.executed, problem, durationMs: done.durationMs });
      if (!problem && parsed && "report" in parsed)
        judged = judgeReview({ report: parsed.report, criteria: ids, checks, tries });
    }
    record = judged ?? notRunReview(tries);
  } catch (error) {
    record = notRunReview([
      { n: 1, exitCode: null, executed: [], problem: `could not start: ${(error as Error).message}`, durationMs: 0 },
    ]);
  }
  if (ctx.signal.aborted && record.outcome === "not-run") {
    // Cut short once a try had started (the row reads "Stopped"), else never begun.
    const started = record.tries.some((t) => t.executed.length > 0 || t.durationMs > 0);
    const message = started ? CUT_SHORT_BY_STOP : `not run: ${RUN_STOPPED}`;
    results.update(REVIEW, { verdict: "skipped", message, finishedAt: new Date() });
    return { verdicts: [{ required: true, verdict: "skipped", checkId: REVIEW, message: null }] };
  }
  await saveAttemptReview({ id: attempt.id, review: maskDeep(ctx.masker, record) });
  const row = reviewRow(record);
  ctx.record(row, startedAt);
  const inconclusive =
    record.outcome === "disagreement" || record.outcome === "not-run"
      ? `review: ${ctx.masker.maskText(record.message)}`
      : null;
  return { verdicts: [{ required: true, verdict: row.verdict, checkId: REVIEW, message: row.message }], inconclusive };
}

type ReviewFiles = { dir: string; brief: string; report: (n: number) => string; execLog: (n: number) => string };

function reviewFilesOf(dataDir: string, runId: string, n: number): ReviewFiles {
  // Beside the briefs: the review (perhaps another user) reads the brief and writes the report there.
  const dir = path.join(dataDir, "briefs", runId, `${n}-review`);
  return {
    dir,
    brief: path.join(dir, "brief.md"),
    report: (k) => path.join(dir, `report-${k}.json`),
    execLog: (k) => path.join(dir, `executed-${k}.log`),
  };
}

type TryOutcome = {
  exitCode: number | null;
  executed: string[];
  report: string | null;
  problem: string | null;
  durationMs: number;
};

async function reviewTry(
  ctx: AttemptContext,
  opts: { dir: string; n: number; files: ReviewFiles; shimBin: string },
): Promise<TryOutcome> {
  const { run, deps } = ctx;
  const report = opts.files.report(opts.n);
  const execLog = opts.files.execLog(opts.n);
  fs.rmSync(report, { force: true });
  writeRunFile(deps.dataDir, execLog, "");
  giveTo(execLog, deps.runAs);
  const timeout = ctx.budget.timeoutFor(null);
  const outcome = await ctx.exec({
    role: "reviewer",
    command: run.reviewCommand!,
    cwd: opts.dir,
    env: {
      checkId: null,
      briefFile: opts.files.brief,
      reportFile: report,
      passthrough: run.agentEnvPassthrough,
      pathPrefix: opts.shimBin,
      extra: { GATEHOUSE_EXEC_LOG: execLog },
    },
    timeoutMs: timeout.timeoutMs,
    stdinFile: opts.files.brief,
    logPath: path.join(attemptDirOf(deps.dataDir, run.id, ctx.attempt.n), `${REVIEW}.try${opts.n}.log`),
    liveName: REVIEW,
  });
  const base = { exitCode: outcome.exitCode, durationMs: outcome.durationMs };
  const executed = readExecuted(deps.dataDir, execLog);
  if (outcome.spawnError)
    return { ...base, executed, report: null, problem: `it could not start: ${outcome.spawnError}` };
  if (outcome.isAborted) return { ...base, executed, report: null, problem: "the run was stopped" };
  if (outcome.isTimedOut)
    return {
      ...base,
      executed,
      report: null,
      problem: timeout.isBudgetBound ? "the run's budget ran out" : "it timed out",
    };
  return { ...base, executed, report: readReport(deps.dataDir, report), problem: null };
}

// The commands in the shim's log, without the review command's own process (the first entry's pid).
function readExecuted(dataDir: string, file: string): string[] {
  const read = readRunFile(dataDir, file, MAX_REPORT_BYTES);
  const lines = read.kind === "file" ? read.bytes.toString("utf8").split("\n").filter(Boolean) : [];
  const own = lines[0]?.split("\t")[0];
  return lines
    .map((l) => l.split("\t"))
    .filter(([pid]) => pid !== own)
    .map(([, ...command]) => command.join("\t"))
    .slice(0, 500);
}

function readReport(dataDir: string, file: string): string | null {
  const read = readRunFile(dataDir, file, MAX_REPORT_BYTES);
  if (read.kind === "missing") return null;
  // Not JSON, so the judge says the report is unusable; the reason is in the try's log.
  if (read.kind === "refused") return read.reason.includes("bytes") ? "{too large}" : `{not read: ${read.reason}}`;
  return read.bytes.toString("utf8");
}
