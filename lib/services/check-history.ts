// Check history of a Work (SPEC Part 2): per check id, how often it ran and passed, how long it takes,
// how often it was flaky, and its last 30 results; for checks with JUnit reports, per-test pass rates over
// their newest 20 such results. Viewers and up.
import type { Actor } from "../auth/actor";
import { aggregateCheckStats, listRecentTestCases, type CheckStats } from "../db/check-stats";
import { testPassRates, type TestHistory } from "../gates/junit";
import { readWork } from "./works";

const TEST_HISTORY_RESULTS = 20;

export type CheckHistory = CheckStats & { tests: TestHistory | null };

export async function readCheckHistory(actor: Actor, workId: string): Promise<CheckHistory[]> {
  await readWork(actor, workId);
  const [stats, testCases] = await Promise.all([
    aggregateCheckStats({ workId }),
    listRecentTestCases({ workId, perCheck: TEST_HISTORY_RESULTS }),
  ]);
  return stats.map((s) => ({ ...s, tests: testPassRates(testCases.get(s.checkId) ?? []) }));
}
