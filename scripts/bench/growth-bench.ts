// `npm run bench -- growth` (issue 27 items 3 and 5): what Gatehouse costs as work grows, in-process
// against SQLite and PostgreSQL (a fresh database or schema per size, seeded straight into the tables:
// dispatching 100,000 runs would measure the runner for hours). For 100, 1,000, 10,000 and 100,000 runs
// (100 tasks, 3 checks each): the data of the inbox, a Work page and the check history (medians of 15
// loads; every size's database is seeded first and kept open, and the sizes are then timed in turn,
// round by round, so their ratios are taken under the same load), dispatch → first check started
// (median of 3 real runs; the run's start where the rows carry no check start), and the process's
// memory. Then the run page's JSON at 5, 50 and 500 checks per run, and the full log's data (its last
// 200 lines) at 10,000, 100,000 and 1,000,000 lines, opened cold and again. The load average is printed
// beside each.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SYSTEM_ACTOR, type Actor } from "../../lib/auth/actor";
import { getDb, setDb } from "../../lib/db/client";
import { findRun, listResultsOfRun } from "../../lib/db/runs";
import { lineIndexFor } from "../../lib/logs/line-index";
import { runJsonFor } from "../../lib/api/run-json-cache";
import { readCheckHistory } from "../../lib/services/check-history";
import { loadInbox } from "../../lib/services/inbox";
import { loadTasksWithLatestRun } from "../../lib/services/page-data";
import { dispatchTask } from "../../lib/services/runs";
import { createTask } from "../../lib/services/tasks";
import { readWork } from "../../lib/services/works";
import { check, createHarness, makeScenario, type Harness } from "../../lib/testing/runner-harness";
import type { BenchRow } from "./runner-bench";

const ADMIN: Actor = { ...SYSTEM_ACTOR, isAdmin: true };
const TASKS = 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => os.loadavg()[0].toFixed(1);
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;

async function timed(rounds: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

// `runs` finished runs spread over the Work's tasks, one attempt and `checks` results each. Three of the
// newest 100 wait for a decision, whatever the size: decisions get answered, they do not pile up with the
// history (when every 500th waited, the inbox at 100,000 runs listed 50 decision cards against 1 at 100,
// and its ratio measured the cards). Rows with explicit ids, in batches.
async function seedRuns(workId: string, taskIds: string[], runs: number, checks: number) {
  const db = getDb();
  const tasks = await db.task.findMany({ where: { id: { in: taskIds } }, select: { id: true, branch: true } });
  const verdicts = ["passed", "passed", "failed", "passed", "timeout", "passed"] as const;
  const waits = (i: number) => i >= runs - 100 && (runs - 1 - i) % 37 === 5;
  // Likewise three of the newest 100 were accepted though their agent failed (the inbox's filter for them).
  const agentFailed = (i: number) => i >= runs - 100 && (runs - 1 - i) % 37 === 11;
  const now = Date.now();
  const BATCH = 2000;
  for (let start = 0; start < runs; start += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, runs - start) }, (_, i) => start + i);
    const at = (i: number) => new Date(now - (runs - i) * 60_000);
    await db.run.createMany({
      data: ids.map((i) => ({
        id: `seed-run-${workId}-${i}`,
        taskId: tasks[i % tasks.length].id,
        workId,
        number: 1000 + Math.floor(i / tasks.length),
        status: "finished" as const,
        gate: i % 3 ? ("green" as const) : ("red" as const),
        ending: waits(i)
          ? ("partial" as const)
          : i % 3 || agentFailed(i)
            ? ("accepted" as const)
            : ("rejected" as const),
        agentCaveat: agentFailed(i) ? "agent-failed" : null,
        needsDecision: waits(i),
        endingReason: "seeded",
        policy: "required" as const,
        maxAttempts: 3,
        checks: [],
        branch: tasks[i % tasks.length].branch,
        createdAt: at(i),
        startedAt: at(i),
        finishedAt: new Date(at(i).getTime() + 30_000),
      })),
    });
    await db.attempt.createMany({
      data: ids.map((i) => ({
        id: `seed-att-${workId}-${i}`,
        runId: `seed-run-${workId}-${i}`,
        n: 1,
        trigger: "dispatch",
        status: "finished" as const,
        commit: "0".repeat(40),
      })),
    });
    await db.checkResult.createMany({
      data: ids.flatMap((i) =>
        Array.from({ length: checks }, (_, c) => ({
          attemptId: `seed-att-${workId}-${i}`,
          runId: `seed-run-${workId}-${i}`,
          position: c,
          checkId: `check-${c + 1}`,
          name: `Check ${c + 1}`,
          kind: "test" as const,
          required: true,
          verdict: verdicts[(i + c) % verdicts.length],
          durationMs: 100 + ((i * 37 + c * 11) % 900),
          logAttempt: 1,
          finishedAt: at(i),
        })),
      ),
    });
  }
}

type Pages = { inbox: number; inboxAgentFailed: number; work: number; history: number };
type Sized = Pages & { runs: number; dispatch: number; rss: number };
type Seeded = { runs: number; h: Harness; workId: string; dispatch: number; rss: number };

// A fresh database of `runs` runs over TASKS tasks, and dispatch → first check started there (median of 3).
async function seedSize(runs: number): Promise<Seeded> {
  const h = await createHarness();
  const s = await makeScenario(h, { checkDefaults: [check("quick", "true")] });
  const tasks = [s.task.id];
  for (let i = 1; i < TASKS; i++)
    tasks.push((await createTask(SYSTEM_ACTOR, s.work.id, { title: `task ${i}`, description: "" })).id);
  await seedRuns(s.work.id, tasks, runs, 3);
  // Statistics, as the database's own maintenance (autovacuum, SQLite's optimize) would have them for
  // tables that grew over months: without them PostgreSQL plans the fresh tables as empty. On PostgreSQL
  // the tables are vacuumed too, as autovacuum would have them: otherwise it starts on the fresh rows
  // while the pages are timed (and index-only scans still visit the heap).
  if (process.env.TEST_DATABASE_URL)
    await getDb().$executeRawUnsafe('VACUUM ANALYZE "Run", "Attempt", "CheckResult", "Task", "Work"');
  else await getDb().$executeRawUnsafe("ANALYZE");
  const latencies: number[] = [];
  for (let i = 0; i < 3; i++) {
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    await h.executor.whenSettled(run.id);
    // The first check's start where the runner records it, else the run's (the executor took it).
    const done = (await findRun({ id: run.id }))!;
    const starts = (await listResultsOfRun({ runId: run.id })).flatMap((r) => r.startedAt?.getTime() ?? []);
    const started = starts.length ? Math.min(...starts) : (done.startedAt?.getTime() ?? Number.NaN);
    latencies.push(started - done.createdAt.getTime());
  }
  return { runs, h, workId: s.work.id, dispatch: median(latencies), rss: process.memoryUsage().rss };
}

// Each page's data in every seeded database, the databases taken in turn round by round (each round in
// a shuffled order), so that the sizes are timed under the same load: the shared machine's load swings
// within a minute, and a size measured minutes after another is not comparable to it.
async function measureSizes(seeded: Seeded[], rounds: number): Promise<Sized[]> {
  const pages = (workId: string) => ({
    inbox: () => loadInbox(ADMIN, {}),
    inboxAgentFailed: () => loadInbox(ADMIN, { ending: "agent-failed" }),
    work: async () => {
      await readWork(ADMIN, workId);
      await loadTasksWithLatestRun(ADMIN, workId);
    },
    history: () => readCheckHistory(ADMIN, workId),
  });
  const times = seeded.map(() => ({
    inbox: [] as number[],
    inboxAgentFailed: [] as number[],
    work: [] as number[],
    history: [] as number[],
  }));
  for (let round = -1; round < rounds; round++) {
    const order = seeded.map((_, i) => i).sort(() => Math.random() - 0.5);
    for (const i of order) {
      setDb(seeded[i].h.t.db);
      for (const [key, fn] of Object.entries(pages(seeded[i].workId)) as [keyof Pages, () => Promise<unknown>][]) {
        const t0 = performance.now();
        await fn();
        // The first round warms each database's connections and caches.
        if (round >= 0) times[i][key].push(performance.now() - t0);
      }
    }
  }
  return seeded.map((s, i) => ({
    runs: s.runs,
    inbox: median(times[i].inbox),
    inboxAgentFailed: median(times[i].inboxAgentFailed),
    work: median(times[i].work),
    history: median(times[i].history),
    dispatch: s.dispatch,
    rss: s.rss,
  }));
}

// The run page's JSON (GET /api/runs/:id built afresh) for a run of `checks` checks.
async function measureChecks(checks: number): Promise<{ ms: number; bytes: number }> {
  const h = await createHarness();
  try {
    const s = await makeScenario(h, { checkDefaults: [] });
    await seedRuns(s.work.id, [s.task.id], 1, checks);
    const runId = `seed-run-${s.work.id}-0`;
    let bytes = 0;
    // A write between builds: every load builds the JSON anew (the cache would answer otherwise).
    const ms = await timed(7, async () => {
      await getDb().run.update({ where: { id: runId }, data: { spentMs: { increment: 1 } } });
      bytes = (await runJsonFor(ADMIN, runId)).text.length;
    });
    return { ms, bytes };
  } finally {
    await h.cleanup();
  }
}

async function measureLog(lines: number): Promise<{ cold: number; warm: number; heap: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-growth-log-"));
  const file = path.join(dir, "log");
  const out = fs.openSync(file, "w");
  const CHUNK = 10_000;
  for (let i = 1; i <= lines; i += CHUNK) {
    let text = "";
    for (let j = i; j < i + CHUNK && j <= lines; j++)
      text += `line ${j}: \u001b[32mok\u001b[0m step ${j} of the build\n`;
    fs.writeSync(out, text);
  }
  fs.closeSync(out);
  try {
    const heap0 = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const t0 = performance.now();
    const index = lineIndexFor(file);
    index.read(Math.max(1, index.lines - 199), 200);
    const cold = performance.now() - t0;
    const heap = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - heap0;
    const warm = await timed(7, async () => {
      const again = lineIndexFor(file);
      again.read(Math.max(1, again.lines - 199), 200);
    });
    return { cold, warm, heap };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchGrowth(
  sizes = [100, 1000, 10_000, 100_000],
  providers: ("sqlite" | "postgres")[] = ["sqlite", "postgres"],
  others = true,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const pg = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  for (const provider of providers) {
    if (provider === "postgres") process.env.TEST_DATABASE_URL = pg;
    else delete process.env.TEST_DATABASE_URL;
    const seeded: Seeded[] = [];
    let measured: Sized[];
    let before: string;
    try {
      for (const runs of sizes) {
        const before = load();
        const m = await seedSize(runs);
        seeded.push(m);
        console.log(
          `${provider}, ${runs.toLocaleString("en")} runs seeded: dispatch → first check ${m.dispatch.toFixed(0)} ms · ` +
            `rss ${mb(m.rss)} · load ${before}–${load()}`,
        );
      }
      before = load();
      measured = await measureSizes(seeded, 15);
    } finally {
      for (const s of seeded) await s.h.cleanup();
    }
    for (const m of measured)
      console.log(
        `${provider}, ${m.runs.toLocaleString("en")} runs: inbox ${m.inbox.toFixed(1)} ms (only "Accepted, agent ` +
          `failed" ${m.inboxAgentFailed.toFixed(1)}) · Work page ` +
          `${m.work.toFixed(1)} ms · check history ${m.history.toFixed(1)} ms · dispatch → first check ` +
          `${m.dispatch.toFixed(0)} ms · rss ${mb(m.rss)} · load ${before}–${load()} (sizes interleaved)`,
      );
    const base = measured[0];
    const top = measured.at(-1)!;
    for (const [page, key] of [
      ["inbox", "inbox"],
      ['inbox filtered to "Accepted, agent failed"', "inboxAgentFailed"],
      ["Work page", "work"],
      ["check history", "history"],
    ] as const)
      rows.push({
        name:
          `${provider}: ${page} data with ${top.runs.toLocaleString("en")} runs in the database ` +
          `(vs ${base.runs.toLocaleString("en")})`,
        subjectMs: top[key],
        baselineMs: base[key],
        ratio: top[key] / base[key],
        extra: `load ${load()}`,
      });
  }
  delete process.env.TEST_DATABASE_URL;
  if (!others) return rows;
  for (const checks of [5, 50, 500]) {
    const before = load();
    const m = await measureChecks(checks);
    console.log(
      `run JSON, ${checks} checks per run: ${m.ms.toFixed(1)} ms, ${Math.round(m.bytes / 1024)} KB · ` +
        `rss ${mb(process.memoryUsage().rss)} · load ${before}–${load()}`,
    );
  }
  for (const lines of [10_000, 100_000, 1_000_000]) {
    const before = load();
    const m = await measureLog(lines);
    console.log(
      `full log, ${lines.toLocaleString("en")} lines, last 200: cold ${m.cold.toFixed(1)} ms · again ` +
        `${m.warm.toFixed(2)} ms · index ${mb(m.heap)} · load ${before}–${load()}`,
    );
  }
  return rows;
}
