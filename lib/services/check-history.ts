// Check history of a Work (SPEC Part 2), over its newest HISTORY_RUNS runs: per check id, how often it
// ran and passed, how long it takes, how often it was flaky, and its last 30 results; for checks with
// JUnit reports, per-test pass rates over their newest 20 such results. Viewers and up; below lead a
// held-out check is its name and verdicts: its durations and its tests' names stay with leads.
import type { Actor } from "../auth/actor";
import { aggregateCheckStats, HISTORY_RUNS, listRecentTestCases, type CheckStats } from "../db/check-stats";
import { listHeldOutTaskCheckIds } from "../db/tasks";
import { testPassRates, type TestHistory } from "../gates/junit";
import { standingAllows, standingOn } from "./access";
import { readWork } from "./works";

const TEST_HISTORY_RESULTS = 20;
// How many of the Work's newest runs the history covers.
export { HISTORY_RUNS };

export type CheckHistory = CheckStats & { tests: TestHistory | null };

export async function readCheckHistory(actor: Actor, workId: string): Promise<CheckHistory[]> {
  const work = await readWork(actor, workId);
  const [stats, testCases, standing] = await Promise.all([
    aggregateCheckStats({ workId }),
    listRecentTestCases({ workId, perCheck: TEST_HISTORY_RESULTS }),
    standingOn(actor, workId),
  ]);
  const withTests = stats.map((s) => ({ ...s, tests: testPassRates(testCases.get(s.checkId) ?? []) }));
  if (standingAllows(standing, "lead")) return withTests;
  const heldOut = await listHeldOutTaskCheckIds({ workId });
  for (const c of work.checkDefaults) if (c.hidden) heldOut.add(c.id);
  return withTests.map((s) => (heldOut.has(s.checkId) ? { ...s, medianMs: null, p95Ms: null, tests: null } : s));
}
