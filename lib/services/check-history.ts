// Check history of a Work (SPEC Part 2): per check id, how often it ran and passed, how long it takes,
// how often it was flaky, and its last 30 results; for checks with JUnit reports, per-test pass rates over
// their newest 20 such results. Viewers and up.
import type { Actor } from "../auth/actor";
import { aggregateCheckStats, listRecentTestCases, type CheckStats } from "../db/check-stats";
import { testPassRates, type TestHistory } from "../gates/junit";
import { standingAllows, standingOn } from "./access";
import { readWork } from "./works";

const TEST_HISTORY_RESULTS = 20;

export type CheckHistory = CheckStats & { tests: TestHistory | null };

// Below lead, a held-out check of the Work's defaults keeps its tests' names to itself, as its log.
export async function readCheckHistory(actor: Actor, workId: string): Promise<CheckHistory[]> {
  const work = await readWork(actor, workId);
  const [stats, testCases, standing] = await Promise.all([
    aggregateCheckStats({ workId }),
    listRecentTestCases({ workId, perCheck: TEST_HISTORY_RESULTS }),
    standingOn(actor, workId),
  ]);
  const withheld = new Set(
    standingAllows(standing, "lead") ? [] : work.checkDefaults.filter((c) => c.hidden).map((c) => c.id),
  );
  return stats.map((s) => ({
    ...s,
    tests: withheld.has(s.checkId) ? null : testPassRates(testCases.get(s.checkId) ?? []),
  }));
}
