// The test set against the start commit's (README, "Proof rows"): for each test check, the tests its row in
// this attempt ran against those it ran at the start commit — an earlier attempt's result (of this task) on
// that very commit when there is one, else the `_tests-kept` re-run with the start commit's test files laid back.
import type { TestCase } from "../../gates/junit";
import { listResultsAtCommit } from "../../db/run-history";
import { globMatcher } from "../../gates/globs";
import type { EffectiveCheck } from "../../gates/merge-checks";
import type { Rerun } from "../../gates/proof";
import { parseRenames, shrinkOf, testSetOf, type Shrink, type TestSet } from "../../gates/test-set";
import { recogniseTests, toTestCounts } from "../../gates/test-summary";
import type { AttemptContext, Change } from "./context";

const TAIL_BYTES = 16 * 1024;

// A stored tail is whole when it is shorter than the tail cap (nothing before it was cut).
// Per-test results from JUnit win over the names the tail shows (testSetOf takes them first).
const setOf = (counts: unknown, tail: string | null, cases?: readonly TestCase[] | null): TestSet =>
  testSetOf({
    counts: toTestCounts(counts),
    output: tail,
    isWhole: !!tail && Buffer.byteLength(tail) < TAIL_BYTES,
    cases,
  });

const rerunSetOf = (tail: string | null): TestSet =>
  tail === null ? { ran: 0, names: [] } : setOf(recogniseTests(tail)?.counts ?? null, tail);

// Whether the test-set rule can judge a selected `_tests-kept` re-run by names alone (its names against
// those of the check's row): else it needs the same files run as the change has them (their count).
export async function subsetNeedsCounts(ctx: AttemptContext, reruns: readonly Rerun[]): Promise<Set<string>> {
  const selected = reruns.filter((r) => r.subset && (r.verdict === "passed" || r.verdict === "failed"));
  if (selected.length === 0) return new Set();
  const history = await listResultsAtCommit({
    taskId: ctx.run.taskId,
    commit: ctx.run.startCommit!,
    checkIds: selected.map((r) => r.checkId),
  });
  const rows = ctx.results.view();
  const needs = new Set<string>();
  for (const r of selected) {
    const now = rows.find((x) => x.checkId === r.checkId);
    if (now?.verdict !== "passed" || history.has(r.checkId)) continue;
    if (!rerunSetOf(r.tail).names || !setOf(now.tests, now.logTail, now.testCases).names) needs.add(r.checkId);
  }
  return needs;
}

export async function testSetShrinks(
  ctx: AttemptContext,
  change: Change,
  checks: readonly EffectiveCheck[],
  reruns: readonly Rerun[] | null,
  testPatterns: readonly string[],
): Promise<{ shrunk: Shrink[]; renamedOut: { from: string; to: string }[] }> {
  const start = ctx.run.startCommit!;
  const isTest = globMatcher(testPatterns);
  const deleted = change.changes.filter((c) => c.status === "D" && isTest(c.path)).map((c) => c.path);
  const renames = deleted.length
    ? parseRenames(await change.store.git(["diff-tree", "-r", "-z", "-M", "--name-status", start, change.tree])).filter(
        (r) => deleted.includes(r.from),
      )
    : [];
  const renamedOut = renames.filter((r) => !isTest(r.to));
  const deletesTests = deleted.some((d) => !renames.some((r) => r.from === d));
  const history = await listResultsAtCommit({
    taskId: ctx.run.taskId,
    commit: start,
    checkIds: checks.map((c) => c.id),
  });
  const rows = ctx.results.view();
  const shrunk: Shrink[] = [];
  for (const check of checks) {
    const now = rows.find((r) => r.checkId === check.id);
    if (now?.verdict !== "passed") continue;
    const recorded = history.get(check.id);
    const rerun = reruns?.find((r) => r.checkId === check.id && (r.verdict === "passed" || r.verdict === "failed"));
    let before = recorded ? setOf(recorded.tests, recorded.logTail) : rerun ? rerunSetOf(rerun.tail) : null;
    if (!before) continue;
    let after = setOf(now.tests, now.logTail, now.testCases);
    // A re-run of only the test files the change modified or deleted: its names against every name the check
    // ran now, else the count the whole command would have run (the rest of the files ran the same in both):
    // the check's count now, with those files' count as they were instead of as changed.
    if (!recorded && rerun?.subset && rerun.subsetAfter) {
      const changed = rerunSetOf(rerun.subsetAfter.tail).ran;
      const whole =
        after.ran !== null && before.ran !== null && changed !== null ? after.ran - changed + before.ran : null;
      before = { ran: whole, names: null };
      after = { ran: after.ran, names: null };
    }
    const s = shrinkOf({ checkId: check.id, before, after, deletesTests });
    if (s) shrunk.push(s);
  }
  return { shrunk, renamedOut };
}
