// Flaky flags and check history with real runs (real git, real processes) and, for the aggregates, rows
// seeded through the real database with known durations.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { startNextAttempt } from "../services/runs";
import { commitFiles } from "../testing/git-repo";
import { check, createHarness, dispatchAndSettle, makeScenario, settle, type Harness } from "../testing/runner-harness";
import { loadRunDetail } from "../services/run-detail";
import { aggregateCheckStats } from "./check-stats";
import { getDb } from "./client";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

let counter = 0;
// Fails the first time it runs, passes after: a flaky check whatever the commit.
const failsOnce = () => {
  const file = path.join(h.scratch, `ran-${++counter}`);
  return `if [ -f ${file} ]; then echo passed; else touch ${file}; echo failed; exit 1; fi`;
};
const flakyOf = async (runId: string, n: number) =>
  Object.fromEntries(
    ((await loadRunDetail(SYSTEM_ACTOR, runId)).attempts.find((a) => a.n === n)?.results ?? []).map((r) => [
      r.checkId,
      r.flaky,
    ]),
  );

describe("flaky", () => {
  it("a check that failed and then passed on the same commit (Run attempt n+1, no new commit) is flaky", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("wobbly", failsOnce()), check("steady", "true")] });
    const first = await dispatchAndSettle(h, s.task.id);
    expect(first.run.status).toBe("waiting");
    await startNextAttempt(SYSTEM_ACTOR, first.run.id);
    const second = await settle(h, first.run.id);
    expect(second.run.ending).toBe("accepted");
    expect(second.attempts[0].commit).toBe(second.attempts[1].commit);
    expect(await flakyOf(first.run.id, 2)).toEqual({ wobbly: true, steady: false });
    expect(await flakyOf(first.run.id, 1)).toEqual({ wobbly: false, steady: false });
  });

  it("is not flaky when a new commit came between the failure and the pass", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("wobbly", failsOnce())] });
    const first = await dispatchAndSettle(h, s.task.id);
    commitFiles(s.worktree, { "fix.txt": "a fix\n" }, "a fix");
    await startNextAttempt(SYSTEM_ACTOR, first.run.id);
    await settle(h, first.run.id);
    expect(await flakyOf(first.run.id, 2)).toEqual({ wobbly: false });
  });

  it("across runs of the same task: failed in run #1, passed in run #2 on the same commit", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("wobbly", failsOnce())], checksPolicy: "warn" });
    const one = await dispatchAndSettle(h, s.task.id);
    expect(one.run.gate).toBe("red");
    const two = await dispatchAndSettle(h, s.task.id);
    expect(await flakyOf(two.run.id, 1)).toEqual({ wobbly: true });
    const stats = await aggregateCheckStats({ workId: s.work.id });
    expect(stats).toMatchObject([{ checkId: "wobbly", runs: 2, passed: 1, passRate: 0.5, flaky: 1 }]);
    expect(stats[0].last.map((c) => [c.runNumber, c.verdict, c.flaky])).toEqual([
      [2, "passed", true],
      [1, "failed", false],
    ]);
  });
});

describe("check history", () => {
  it("says which results were of a check that reports only (its failure a warning, not a red gate)", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [check("todo", "echo TODO left; exit 1", { required: false }), check("unit", "true")],
    });
    expect((await dispatchAndSettle(h, s.task.id)).run.ending).toBe("accepted");
    const stats = await aggregateCheckStats({ workId: s.work.id });
    expect(stats.map((c) => [c.checkId, c.last.map((r) => [r.verdict, r.required])])).toEqual([
      ["todo", [["failed", false]]],
      ["unit", [["passed", true]]],
    ]);
  });

  it("per check id: runs, pass rate, nearest-rank median and p95, the newest 30 results first", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("unit", "true")], checksPolicy: "warn" });
    const run = await dispatchAndSettle(h, s.task.id);
    // 40 more attempts of one run, seeded: durations 1..40 ms for "unit", every 4th failing; "lint" skipped.
    const db = getDb();
    for (let n = 2; n <= 41; n++) {
      const attempt = await db.attempt.create({
        data: { runId: run.run.id, n, trigger: "manual", status: "finished" },
      });
      await db.checkResult.createMany({
        data: [
          {
            attemptId: attempt.id,
            runId: run.run.id,
            position: 0,
            checkId: "unit",
            name: "Unit",
            kind: "test",
            required: true,
            verdict: n % 4 === 0 ? "failed" : "passed",
            durationMs: n - 1,
            logAttempt: n,
          },
          {
            attemptId: attempt.id,
            runId: run.run.id,
            position: 1,
            checkId: "lint",
            name: "Lint",
            kind: "lint",
            required: false,
            verdict: "skipped",
            logAttempt: n,
          },
        ],
      });
    }
    // A copy kept by an attempt with no change is not a run of the check.
    const copy = await db.attempt.create({
      data: { runId: run.run.id, n: 42, trigger: "agent-loop", status: "finished" },
    });
    await db.checkResult.create({
      data: {
        attemptId: copy.id,
        runId: run.run.id,
        position: 0,
        checkId: "unit",
        name: "Unit",
        kind: "test",
        required: true,
        verdict: "passed",
        durationMs: 5,
        logAttempt: 41,
      },
    });
    const [unit, ...rest] = await aggregateCheckStats({ workId: s.work.id });
    expect(rest).toEqual([]);
    const real = run.attempts[0].results[0].durationMs ?? 0;
    expect(unit).toMatchObject({ checkId: "unit", name: "Unit", runs: 41, passed: 31, flaky: 0 });
    expect(unit.passRate).toBeCloseTo(31 / 41);
    // 41 durations: 1..40 and the real run's. Ranks ceil(20.5) = 21 and ceil(38.95) = 39.
    const sorted = [...Array.from({ length: 40 }, (_, i) => i + 1), real].sort((a, b) => a - b);
    expect(unit.medianMs).toBe(sorted[20]);
    expect(unit.p95Ms).toBe(sorted[38]);
    expect(unit.last).toHaveLength(30);
    expect(unit.last.slice(0, 3).map((c) => [c.n, c.verdict])).toEqual([
      [41, "passed"],
      [40, "failed"],
      [39, "passed"],
    ]);
    expect(unit.last[0]).toMatchObject({ runId: run.run.id, runNumber: 1, taskKey: s.task.key });
  });
});
