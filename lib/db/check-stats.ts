// Check history per Work and check id, in time that does not grow with the Work's history: the counts
// (runs, passed, flaky) over the last HISTORY_DAYS days come from CheckDay, which triggers on CheckResult
// keep (one row per check and day: at most a month of rows per check); the durations (median, p95) and the
// strip of newest results come from the results of the Work's newest SAMPLE_RUNS runs, aggregated in the
// database (SQL both SQLite and PostgreSQL run: window functions, no percentile function).
// A result counts when the check ran to a verdict (passed, failed, hollow, timeout, error) in its own
// attempt — not skipped or unfinished, and not the copy an attempt with no change keeps of an earlier one.
import { toTestCases, type TestCase } from "../gates/junit";
import { getDb, type DbOrTx } from "./client";
import { Prisma } from "./generated/sqlite/client";

const STRIP_LENGTH = 30;

export type CheckStripCell = {
  runId: string;
  runNumber: number;
  taskKey: string;
  n: number;
  verdict: string;
  flaky: boolean;
  // False for a check that reports only: its failure is a warning, not a red gate.
  required: boolean;
};
export type CheckStats = {
  checkId: string;
  name: string;
  runs: number;
  passed: number;
  // passed / runs
  passRate: number;
  // nearest rank over the results with a duration (null when none has one)
  medianMs: number | null;
  p95Ms: number | null;
  flaky: number;
  // newest first
  last: CheckStripCell[];
};

// The days the counts cover, today (UTC) included.
export const HISTORY_DAYS = 30;
// The Work's newest runs the durations and strips are read from (Run's workId+createdAt index hands them
// over newest first): what a page costs stays the same however long the Work has run.
export const SAMPLE_RUNS = 100;

// The first day (YYYY-MM-DD, UTC) of the `days` ending on `now`'s.
function firstDayOf(now: Date, days: number): string {
  return new Date(now.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
}

const recentRuns = (workId: string, window: number) => Prisma.sql`
  recent AS MATERIALIZED (
    SELECT "id", "createdAt" FROM "Run" WHERE "workId" = ${workId} ORDER BY "createdAt" DESC LIMIT ${window}
  )`;

// Materialised once per query (both databases honour the hint), without the Task (only the strip names it).
// The window's attempts first (one probe of Attempt's runId+n per run), then their results: joining each
// result to its attempt by id probed Attempt once per result (3,000 probes for 1,000 runs of 3 checks).
const ran = (workId: string, window: number) => Prisma.sql`
  WITH ${recentRuns(workId, window)},
  own AS MATERIALIZED (
    SELECT cr."id" AS "id", cr."checkId" AS "checkId", CAST(cr."verdict" AS TEXT) AS "verdict",
      cr."durationMs" AS "durationMs", CASE WHEN cr."flaky" THEN 1 ELSE 0 END AS "flaky",
      r."id" AS "runId", r."createdAt" AS "runAt", a."n" AS "n"
    FROM recent r
    JOIN "Attempt" a ON a."runId" = r."id"
    JOIN "CheckResult" cr ON cr."attemptId" = a."id" AND cr."runId" = r."id"
    WHERE cr."logAttempt" = a."n"
      AND CAST(cr."verdict" AS TEXT) IN ('passed', 'failed', 'hollow', 'timeout', 'error')
  )`;

type PercentileRow = {
  checkId: string;
  medianMs: bigint | number | null;
  p95Ms: bigint | number | null;
};
type CellRow = Omit<CheckStripCell, "flaky" | "runNumber" | "n" | "required"> & {
  required: bigint | number | boolean;
  checkId: string;
  name: string;
  runNumber: bigint | number;
  n: bigint | number;
  flaky: bigint | number;
  rn: bigint | number;
};

const num = (v: bigint | number | null) => (v === null ? null : Number(v));

// The checks that ran in the last `days` days (HISTORY_DAYS unless told, ending on `now`'s day), their
// counts over those days, and their durations and newest results over the Work's newest `windowRuns` runs
// (SAMPLE_RUNS unless told).
export async function aggregateCheckStats(opts: {
  workId: string;
  windowRuns?: number;
  days?: number;
  now?: Date;
  db?: DbOrTx;
}): Promise<CheckStats[]> {
  const db = opts.db ?? getDb();
  const window = opts.windowRuns ?? SAMPLE_RUNS;
  const [days, percentiles, cells] = await Promise.all([
    db.checkDay.findMany({
      where: { workId: opts.workId, day: { gte: firstDayOf(opts.now ?? new Date(), opts.days ?? HISTORY_DAYS) } },
      select: { checkId: true, day: true, name: true, runs: true, passed: true, flaky: true },
    }),
    db.$queryRaw<PercentileRow[]>`${ran(opts.workId, window)},
      ranked AS (
        SELECT "checkId", "durationMs",
          ROW_NUMBER() OVER (PARTITION BY "checkId" ORDER BY "durationMs") AS "k",
          COUNT(*) OVER (PARTITION BY "checkId") AS "c"
        FROM own WHERE "durationMs" IS NOT NULL
      )
      SELECT "checkId", MIN(CASE WHEN "k" * 2 >= "c" THEN "durationMs" END) AS "medianMs",
        MIN(CASE WHEN "k" * 100 >= "c" * 95 THEN "durationMs" END) AS "p95Ms"
      FROM ranked GROUP BY "checkId"`,
    db.$queryRaw<CellRow[]>`${ran(opts.workId, window)}
      SELECT newest."checkId" AS "checkId", cr."name" AS "name", newest."verdict" AS "verdict",
        newest."flaky" AS "flaky", newest."runId" AS "runId", r."number" AS "runNumber", newest."n" AS "n",
        t."key" AS "taskKey", newest."rn" AS "rn", CASE WHEN cr."required" THEN 1 ELSE 0 END AS "required"
      FROM (
        SELECT "id", "checkId", "verdict", "flaky", "runId", "n",
          ROW_NUMBER() OVER (PARTITION BY "checkId" ORDER BY "runAt" DESC, "n" DESC, "id" DESC) AS "rn"
        FROM own
      ) newest
      JOIN "CheckResult" cr ON cr."id" = newest."id"
      JOIN "Run" r ON r."id" = newest."runId"
      JOIN "Task" t ON t."id" = r."taskId"
      WHERE newest."rn" <= ${STRIP_LENGTH} ORDER BY newest."checkId", newest."rn"`,
  ]);
  // Per check: the days summed, the name of its newest day.
  const totals = new Map<string, { runs: number; passed: number; flaky: number; day: string; name: string }>();
  for (const d of days) {
    const t = totals.get(d.checkId) ?? { runs: 0, passed: 0, flaky: 0, day: "", name: d.name };
    totals.set(d.checkId, {
      runs: t.runs + d.runs,
      passed: t.passed + d.passed,
      flaky: t.flaky + d.flaky,
      ...(d.day > t.day ? { day: d.day, name: d.name } : { day: t.day, name: t.name }),
    });
  }
  const durations = new Map(percentiles.map((p) => [p.checkId, p]));
  const strips = new Map<string, CellRow[]>();
  for (const cell of cells) strips.set(cell.checkId, [...(strips.get(cell.checkId) ?? []), cell]);
  // The Work's checks by id, then the proof rows (ids starting with "_").
  const ordered = [...totals].filter(([, t]) => t.runs > 0).map(([checkId, t]) => ({ checkId, ...t }));
  ordered.sort(
    (a, b) => Number(a.checkId.startsWith("_")) - Number(b.checkId.startsWith("_")) || (a.checkId < b.checkId ? -1 : 1),
  );
  return ordered.map((row) => {
    const strip = strips.get(row.checkId) ?? [];
    const { runs, passed } = row;
    const timing = durations.get(row.checkId);
    return {
      checkId: row.checkId,
      name: strip[0]?.name ?? row.name,
      runs,
      passed,
      passRate: runs === 0 ? 0 : passed / runs,
      medianMs: num(timing?.medianMs ?? null),
      p95Ms: num(timing?.p95Ms ?? null),
      flaky: row.flaky,
      last: strip.map((c) => ({
        runId: c.runId,
        runNumber: Number(c.runNumber),
        taskKey: c.taskKey,
        n: Number(c.n),
        verdict: c.verdict,
        flaky: Number(c.flaky) === 1,
        required: Number(c.required) === 1,
      })),
    };
  });
}

// The per-test results (JUnit) of each check's newest `perCheck` results that have them among the Work's
// newest `windowRuns` runs, newest first: what the check history's per-test pass rates are computed over
// (lib/gates/junit.ts testPassRates).
export async function listRecentTestCases(opts: {
  workId: string;
  perCheck: number;
  windowRuns?: number;
  db?: DbOrTx;
}): Promise<Map<string, TestCase[][]>> {
  const db = opts.db ?? getDb();
  const rows = await db.$queryRaw<{ checkId: string; testCases: unknown }[]>`
    WITH ${recentRuns(opts.workId, opts.windowRuns ?? SAMPLE_RUNS)}
    SELECT newest."checkId" AS "checkId", newest."testCases" AS "testCases" FROM (
      SELECT cr."checkId" AS "checkId", cr."testCases" AS "testCases",
        ROW_NUMBER() OVER (PARTITION BY cr."checkId" ORDER BY r."createdAt" DESC, a."n" DESC, cr."id" DESC) AS "rn"
      FROM recent r
      JOIN "Attempt" a ON a."runId" = r."id"
      JOIN "CheckResult" cr ON cr."attemptId" = a."id" AND cr."runId" = r."id"
      WHERE cr."logAttempt" = a."n" AND cr."testCases" IS NOT NULL
    ) newest
    WHERE newest."rn" <= ${opts.perCheck} ORDER BY newest."checkId", newest."rn"`;
  const byCheck = new Map<string, TestCase[][]>();
  for (const row of rows) {
    // SQLite hands the JSON back as text, PostgreSQL as a value.
    const cases = toTestCases(typeof row.testCases === "string" ? JSON.parse(row.testCases) : row.testCases);
    if (cases) byCheck.set(row.checkId, [...(byCheck.get(row.checkId) ?? []), cases]);
  }
  return byCheck;
}
