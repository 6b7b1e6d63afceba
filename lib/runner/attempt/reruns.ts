// Checks run again outside the task's worktree for the proof rows (`_protected`, `_tests-kept`,
// `_fails-without-change`): each bounded by its timeout and by what is left of the run's budget (their
// time counts toward it), judged by the same rules as in the check step.
import path from "node:path";
import { timeoutOf, type EffectiveCheck } from "../../gates/merge-checks";
import {
  FAILS_WITHOUT_CHANGE,
  type FileChange,
  PROOF_KIND,
  PROOF_NAMES,
  type ProofRow,
  type Rerun,
  TESTS_KEPT,
} from "../../gates/proof";
import type { Scratch } from "../checkout/scratch";
import { resolveInsideCheckout } from "../checkout/checkout";
import { attemptDirOf } from "../paths";
import { RUN_STOPPED } from "../../gates/row-warning";
import { timeoutWords } from "./budget";
import type { AttemptContext } from "./context";
import { judgeOutcome } from "./judge";
import { runCheckHere } from "./run-check";
import { readCheckoutFile } from "../checkout/checkout-files";
import { selectTests } from "../../gates/test-selection";
import { recogniseTests } from "../../gates/test-summary";

export function errorRow(checkId: string, required: boolean, error: unknown): ProofRow {
  const message = `could not run the checks again: ${(error as Error).message}`;
  return {
    checkId,
    name: PROOF_NAMES[checkId],
    kind: PROOF_KIND,
    required,
    verdict: "error",
    message,
    details: `${message}\n`,
  };
}

export function showRunning(ctx: AttemptContext, checkId: string, startedAt: Date, message: string) {
  ctx.results.add({
    checkId,
    name: PROOF_NAMES[checkId],
    kind: PROOF_KIND,
    required: checkId !== FAILS_WITHOUT_CHANGE || ctx.run.proof?.vacuousPolicy === "required",
    verdict: "running",
    message,
    startedAt,
  });
}

// Which tests a rule is about (README, "Proof rows", "Test selection"): the checks run only those test files
// when their runner can be told so (lib/gates/test-selection.ts), else the whole command, saying why. A
// selected run decides the rule only in the direction it can: `_tests-kept` trusts a selected pass (the
// other test files ran unchanged in the check step), `_fails-without-change` a selected run with failing
// tests (they are part of the whole run); any other outcome is confirmed by the whole command.
export type Selecting = { files: readonly string[]; trusts: "passed" | "failing tests" };

export async function rerunAll(
  ctx: AttemptContext,
  checks: readonly EffectiveCheck[],
  dir: string,
  rowId: string,
  selecting?: Selecting,
): Promise<Rerun[]> {
  const reruns: Rerun[] = [];
  for (const check of checks) reruns.push(await rerunSelected(ctx, check, dir, rowId, selecting));
  return reruns;
}

const readIn =
  (dir: string) =>
  (file: string): string | null => {
    const got = readCheckoutFile(dir, file, { maxBytes: 1024 * 1024 });
    return got.kind === "file" ? got.bytes.toString("utf8") : null;
  };

async function rerunSelected(
  ctx: AttemptContext,
  check: EffectiveCheck,
  dir: string,
  rowId: string,
  selecting: Selecting | undefined,
): Promise<Rerun> {
  if (!selecting || ctx.deps.wholeProofReruns) return rerun(ctx, check, dir, rowId);
  const selection =
    check.use !== undefined || !check.command
      ? ({ kind: "whole", reason: "a built-in check runs as a whole" } as const)
      : selectTests({
          command: check.command,
          cwd: check.cwd,
          files: selecting.files,
          read: readIn(dir),
          // Only failing selected tests count here: other laid files (helpers, fixtures) stay laid over.
          dropOthers: selecting.trusts === "failing tests",
        });
  if (selection.kind === "whole")
    return { ...(await rerun(ctx, check, dir, rowId)), note: `the whole command (no selection: ${selection.reason})` };
  const left = selection.left?.length ? `; not run on their own: ${list(selection.left)}` : "";
  const only = `only ${selection.files.join(", ")} (${selection.runner}: ${selection.command}${left})`;
  const selected = await rerun(ctx, { ...check, command: selection.command }, dir, rowId);
  const summary = recogniseTests(selected.tail ?? "");
  const failingTests = (summary?.counts?.failed ?? 0) > 0 || (summary?.failing.length ?? 0) > 0;
  const isTrusted =
    selected.verdict === "skipped" ||
    (selecting.trusts === "passed" ? selected.verdict === "passed" : selected.verdict === "failed" && failingTests);
  if (isTrusted) return { ...selected, note: only, subset: selection.files };
  const confirmed = await rerun(ctx, check, dir, rowId);
  return {
    ...confirmed,
    note: `${only}, which ${describeSelected(selected, failingTests)}; then the whole command, which decides`,
  };
}

// After a selected `_tests-kept` re-run the test-set rule may need the same files' count as the change has
// them (subsetNeedsCounts): the scratch worktree is turned into the change (its versions laid back, its
// deletions made) and only those files run. When that cannot be, the whole command runs with the tests as
// they were instead, as without selection.
export async function completeSubsets(
  ctx: AttemptContext,
  input: {
    reruns: Rerun[];
    checks: readonly EffectiveCheck[];
    scratch: Scratch;
    needs: ReadonlySet<string>;
    restored: readonly FileChange[];
    changeTree: string;
  },
): Promise<Rerun[]> {
  const { scratch, needs, restored } = input;
  const { dir } = scratch;
  if (needs.size === 0) return input.reruns;
  const start = ctx.run.startCommit!;
  const modified = restored.filter((c) => c.status === "M").map((c) => c.path);
  const deleted = restored.filter((c) => c.status === "D").map((c) => c.path);
  await scratch.layOver(input.changeTree, modified, deleted);
  const after = new Map<string, { tail: string | null } | string>();
  for (const r of input.reruns) {
    const check = input.checks.find((c) => c.id === r.checkId);
    if (!needs.has(r.checkId) || !check?.command) continue;
    if (modified.length === 0) {
      after.set(r.checkId, { tail: null });
      continue;
    }
    const selection = selectTests({ command: check.command, cwd: check.cwd, files: modified, read: readIn(dir) });
    if (selection.kind === "whole") {
      after.set(r.checkId, selection.reason);
      continue;
    }
    const ran = await rerun(ctx, { ...check, command: selection.command }, dir, `${TESTS_KEPT}-after`);
    after.set(r.checkId, ran.verdict === "passed" || ran.verdict === "failed" ? { tail: ran.tail } : ran.verdict);
  }
  const whole = [...after].filter(([, a]) => typeof a === "string").map(([id]) => id);
  if (whole.length) await scratch.layOver(start, [...modified, ...deleted]);
  const out: Rerun[] = [];
  for (const r of input.reruns) {
    const a = after.get(r.checkId);
    if (a === undefined) out.push(r);
    else if (typeof a !== "string")
      out.push({ ...r, subsetAfter: a, note: `${r.note}; for the test count, ${list(modified)} as changed` });
    else {
      const check = input.checks.find((c) => c.id === r.checkId)!;
      const ran = await rerun(ctx, check, dir, TESTS_KEPT);
      out.push({ ...ran, note: `${r.note}; then the whole command, for the test count (${a})` });
    }
  }
  return out;
}

const list = (files: readonly string[], max = 5) =>
  files.length === 0
    ? "no file"
    : files.length <= max
      ? files.join(", ")
      : `${files.slice(0, max).join(", ")} and ${files.length - max} more`;

const describeSelected = (r: Rerun, failingTests: boolean) =>
  r.verdict === "passed"
    ? "passed"
    : r.verdict === "failed"
      ? failingTests
        ? "failed"
        : "failed with no failing test named"
      : r.verdict;

async function rerun(ctx: AttemptContext, check: EffectiveCheck, dir: string, rowId: string): Promise<Rerun> {
  const { run, attempt, deps } = ctx;
  const base = { checkId: check.id, exitCode: null, tail: null };
  if (ctx.signal.aborted) return { ...base, verdict: "skipped", message: RUN_STOPPED };
  if (ctx.budget.isSpent()) return { ...base, verdict: "skipped", message: ctx.budget.spentMessage() };
  const where = resolveInsideCheckout(dir, check.cwd);
  if ("error" in where) return { ...base, verdict: "error", message: where.error };
  const timeout = ctx.budget.timeoutFor(timeoutOf(check) * 1000);
  const outcome = await runCheckHere(ctx, check, {
    checkoutDir: dir,
    liveName: `${rowId}.${check.id}`,
    cwd: where.path,
    timeoutMs: timeout.timeoutMs,
    logPath: path.join(attemptDirOf(deps.dataDir, run.id, attempt.n), `${rowId}.${check.id}.log`),
  });
  // Cut short by the run's budget, the re-run says nothing about the tests: skipped, not failed. The test
  // runner's summary judges it as in the check step (exit 0 with failed tests, no test run).
  const { verdict, judged } = judgeOutcome(outcome, check, { skipBudgetCut: timeout.isBudgetBound });
  return {
    checkId: check.id,
    verdict,
    exitCode: outcome.exitCode,
    message: outcome.isAborted
      ? RUN_STOPPED
      : outcome.isTimedOut
        ? timeoutWords(timeout)
        : (outcome.spawnError ?? judged?.message ?? outcome.message),
    tail: outcome.tail,
  };
}

// Proof rows leave out agent checks (Gatehouse never runs them) and hidden ones (a proof row's reason and log
// go into the agent's brief, which must never name a hidden check or its command).
export function isRerunnable(check: { executor?: string; hidden?: boolean }): boolean {
  return check.executor !== "agent" && !check.hidden;
}
