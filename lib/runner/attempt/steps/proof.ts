// The proof rows of an attempt (lib/gates/proof.ts decides them), in two steps. After the check step,
// `_tests-added` comes from the change since the run's start commit, and `_protected` from it and, when
// the change edited a gate file, the affected checks run again with the originals (proofStep).
// After a green gate `_tests-kept` and `_fails-without-change` run checks again in scratch worktrees (never
// the task's), each bounded by the check's timeout and by what is left of the run's budget (rerunStep).
import os from "node:os";
import {
  FAILS_WITHOUT_CHANGE,
  failsWithoutChangeRow,
  findSkipMarkers,
  PROOF_KIND,
  PROOF_NAMES,
  PROTECTED,
  protectedRow,
  provesChangeOf,
  TESTS_KEPT,
  testFilesToRestore,
  testsAddedRow,
  testsKeptRow,
  type ProofRow,
  type Rerun,
  withRerunNotes,
  withShrink,
} from "../../../gates/proof";
import { globMatcher } from "../../../gates/globs";
import { PROFILES, type ProofSettings } from "../../../gates/work-schema";
import { listGreenCommitsOfTask } from "../../../db/run-history";
import { gitOk } from "../../checkout/git";
import type { AttemptContext, Change } from "../context";
import { judgeGateEdits } from "../gate-edits";
import { subsetNeedsCounts, testSetShrinks } from "../test-set";
import { completeSubsets, errorRow, isRerunnable, rerunAll, showRunning } from "../reruns";
import { NOTHING, type Step, type StepVerdict, verdictOfRow } from "../step";

// `_tests-added` and `_protected`: what the change touched.
export const proofStep: Step = {
  id: "proof",
  profiles: PROFILES,
  after: "always",
  async run(ctx) {
    const { run } = ctx;
    const settings = run.proof;
    if (!settings || !run.startCommit) return NOTHING;
    const startedAt = new Date();
    const rows: ProofRow[] = [];
    let change: Change;
    try {
      change = await ctx.change();
    } catch (error) {
      const message = `could not read the change since the start commit: ${(error as Error).message}`;
      const row: ProofRow = {
        checkId: "_protected",
        name: PROOF_NAMES._protected,
        kind: PROOF_KIND,
        required: true,
        verdict: "error",
        message,
        details: message,
      };
      ctx.record(row, startedAt);
      return { verdicts: [verdictOfRow(row)] };
    }
    const added = testsAddedRow({ changes: change.changes, ...settings });
    // Shown at once: _protected may run checks again before it has its row.
    if (added) {
      rows.push(added);
      ctx.record(added, startedAt);
    }
    let guarded: ProofRow | null;
    try {
      const judged = await judgeGateEdits(ctx, change);
      guarded = protectedRow({ changes: change.changes, protectedPaths: settings.protectedPaths, ...judged });
    } catch (error) {
      guarded = errorRow(PROTECTED, true, error);
    }
    if (guarded) {
      rows.push(guarded);
      ctx.record(guarded, startedAt);
    }
    return { verdicts: rows.map(verdictOfRow) };
  },
};

// `_tests-kept` and `_fails-without-change`: the checks run again, after a green gate.
export const rerunStep: Step = {
  id: "proof-reruns",
  profiles: PROFILES,
  after: "green",
  async run(ctx) {
    const { run } = ctx;
    const settings = run.proof;
    if (!settings || !run.startCommit) return NOTHING;
    const change = await ctx.change();
    const verdicts: StepVerdict[] = [];
    // The two rules are independent: side by side when the machine has a core for each.
    const together = os.availableParallelism() > 1 && !ctx.deps.wholeProofReruns;
    const keeping = testsKept(ctx, settings, change);
    const vacuousNow = together ? failsWithoutChange(ctx, settings, change) : null;
    const kept = await keeping;
    if (kept) {
      ctx.record(kept.row, kept.startedAt);
      verdicts.push(verdictOfRow(kept.row));
    }
    if (!together && ctx.signal.aborted) return { verdicts };
    const vacuous = await (vacuousNow ?? failsWithoutChange(ctx, settings, change));
    if (vacuous) {
      ctx.record(vacuous.row, vacuous.startedAt);
      verdicts.push(verdictOfRow(vacuous.row));
    }
    return { verdicts };
  },
};

type Timed = { row: ProofRow; startedAt: Date };

async function testsKept(ctx: AttemptContext, settings: ProofSettings, change: Change): Promise<Timed | null> {
  const start = ctx.run.startCommit!;
  const restored = testFilesToRestore(change.changes, settings.testPatterns);
  const markers = findSkipMarkers(change.diff);
  const testChecks = ctx.run.checks.filter((c) => c.kind === "test" && isRerunnable(c));
  const startedAt = new Date();
  const shrinking = async (reruns: Rerun[] | null, kept: ProofRow | null) => {
    const { shrunk, renamedOut } = await testSetShrinks(ctx, change, testChecks, reruns, settings.testPatterns);
    return withShrink(kept, shrunk, renamedOut);
  };
  if (restored.length === 0 || testChecks.length === 0) {
    const r = await shrinking(
      null,
      testsKeptRow({ restored, markers, reruns: null, hasTestChecks: testChecks.length > 0 }),
    );
    return r ? { row: r, startedAt } : null;
  }
  showRunning(ctx, TESTS_KEPT, startedAt, "running the test checks with the tests as they were…");
  try {
    const reruns = await ctx.withScratch(TESTS_KEPT, "change", async (scratch) => {
      const files = restored.map((c) => c.path);
      await scratch.layOver(start, files);
      const ran = await rerunAll(ctx, testChecks, scratch.dir, TESTS_KEPT, { files, trusts: "passed" });
      const needs = await subsetNeedsCounts(ctx, ran);
      return completeSubsets(ctx, {
        reruns: ran,
        checks: testChecks,
        scratch,
        needs,
        restored,
        changeTree: change.tree,
      });
    });
    const row = (await shrinking(reruns, testsKeptRow({ restored, markers, reruns, hasTestChecks: true })))!;
    return { row: withRerunNotes(row, reruns), startedAt };
  } catch (error) {
    return { row: errorRow(TESTS_KEPT, true, error), startedAt };
  }
}

async function failsWithoutChange(ctx: AttemptContext, settings: ProofSettings, change: Change): Promise<Timed | null> {
  const provers = ctx.run.checks.filter((c) => provesChangeOf(c) && isRerunnable(c));
  if (settings.vacuousPolicy === "off" || provers.length === 0) return null;
  const startedAt = new Date();
  const isTest = globMatcher(settings.testPatterns);
  const tests = change.changes.filter((c) => isTest(c.path));
  const laid = tests.filter((c) => c.status !== "D").map((c) => c.path);
  const removed = tests.filter((c) => c.status === "D").map((c) => c.path);
  showRunning(ctx, FAILS_WITHOUT_CHANGE, startedAt, "running the checks without the change…");
  try {
    const reruns = await ctx.withScratch(FAILS_WITHOUT_CHANGE, "start", async (scratch) => {
      await scratch.layOver(change.tree, laid, removed);
      return rerunAll(ctx, provers, scratch.dir, FAILS_WITHOUT_CHANGE, { files: laid, trusts: "failing tests" });
    });
    const heldFix = reruns.some((r) => r.verdict === "passed") ? await heldFixOf(ctx, change) : null;
    const r = failsWithoutChangeRow({ vacuousPolicy: settings.vacuousPolicy, reruns, laidOver: laid, heldFix });
    return r ? { row: withRerunNotes(r, reruns), startedAt } : null;
  } catch (error) {
    return { row: errorRow(FAILS_WITHOUT_CHANGE, settings.vacuousPolicy === "required", error), startedAt };
  }
}

// The newest earlier run of this task that went green on a commit the start commit holds (null: none), by
// the history the verified store has (the checkout's commit objects are the agent's to rewrite).
async function heldFixOf(ctx: AttemptContext, change: Change): Promise<{ runNumber: number; commit: string } | null> {
  const start = ctx.run.startCommit!;
  const green = await listGreenCommitsOfTask({ taskId: ctx.run.taskId, beforeNumber: ctx.run.number });
  for (const fix of green)
    if (await gitOk(["merge-base", "--is-ancestor", fix.commit, start], change.store.options())) return fix;
  return null;
}
