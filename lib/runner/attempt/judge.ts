// Every verdict a command's outcome gets in an attempt comes from here: the check step's, the proof
// re-runs' and the agent's. How the command ended decides first (lib/gates decideVerdict); then, for a
// check run as a command, the test runner's summary read from the stored tail (16 KB) can fail a check
// that exited 0, make a test check that ran no test hollow, and name the failing tests.
import { decideVerdict, type Verdict } from "../../gates/gate";
import type { EffectiveCheck } from "../../gates/merge-checks";
import { judgeTestSummary, recogniseTests, type TestJudgement, type TestSummary } from "../../gates/test-summary";
import type { CommandOutcome } from "../process/run-command";

type Ending = Pick<CommandOutcome, "isAborted" | "isTimedOut" | "spawnError" | "exitCode" | "isExpectedOutputFound">;

// A check's verdict from how its command ended, before the test runner's summary is read. An abort is
// "skipped"; so is a timeout the run's budget imposed when `skipBudgetCut` (a re-run it cut says nothing).
function verdictByExit(
  outcome: Ending,
  check: { expectExit?: number; expectStdout?: string },
  skipBudgetCut = false,
): Verdict {
  if (outcome.isAborted || (outcome.isTimedOut && skipBudgetCut)) return "skipped";
  if (outcome.spawnError) return "error";
  return decideVerdict({
    timedOut: outcome.isTimedOut,
    exitCode: outcome.exitCode,
    expectExit: check.expectExit,
    expectStdout: check.expectStdout,
    stdoutFound: outcome.isExpectedOutputFound,
  });
}

export type Judgement = {
  verdict: Verdict;
  // The verdict by the exit code alone (or the built-in's own).
  byExit: Verdict;
  // The recognised summary (null: none, or not a command's output).
  tests: TestSummary | null;
  // What the summary changed (null: nothing).
  judged: TestJudgement | null;
};

type Judged = Pick<EffectiveCheck, "kind" | "use" | "expectExit" | "expectStdout">;

// `check` null: a command that is no check (the agent): its exit code alone decides.
export function judgeOutcome(
  outcome: Ending & { tail: string; builtinVerdict?: Verdict | null },
  check: Judged | null,
  // `summary`: counts already read elsewhere (the check's JUnit reports), which win over the tail's.
  opts: { skipBudgetCut?: boolean; summary?: TestSummary | null } = {},
): Judgement {
  // A built-in gives its own verdict (a timeout or a stop leaves it null: judged like a command's).
  const byExit = outcome.builtinVerdict ?? verdictByExit(outcome, check ?? {}, opts.skipBudgetCut);
  const tests =
    !check || outcome.spawnError || check.use !== undefined
      ? null
      : opts.summary !== undefined
        ? opts.summary
        : recogniseTests(outcome.tail);
  const judged =
    check && (byExit === "passed" || byExit === "failed")
      ? judgeTestSummary({ verdict: byExit, kind: check.kind, exitCode: outcome.exitCode, summary: tests })
      : null;
  return { verdict: judged?.verdict ?? byExit, byExit, tests, judged };
}
