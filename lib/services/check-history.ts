// Check history of a Work (SPEC Part 2): per check id, how often it ran, passed and was flaky in the last
// HISTORY_DAYS days, and how long it takes and its last 30 results over the Work's newest SAMPLE_RUNS runs;
// for checks with JUnit reports, per-test pass rates over their newest 20 such results. Viewers and up;
// below lead a held-out check is its name and verdicts: its durations and its tests' names stay with leads.
import type { Actor } from "../auth/actor";
import {
  aggregateCheckStats,
  HISTORY_DAYS,
  listRecentTestCases,
  SAMPLE_RUNS,
  type CheckStats,
} from "../db/check-stats";
import { listHeldOutTaskCheckIds } from "../db/tasks";
import { testPassRates, type TestHistory } from "../gates/junit";
import { standingAllows, standingOn } from "./access";
import { readWork } from "./works";

const TEST_HISTORY_RESULTS = 20;
// The days the counts cover; the Work's newest runs the durations and strips are read from.
export { HISTORY_DAYS, SAMPLE_RUNS };

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
