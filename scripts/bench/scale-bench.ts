// `npm run bench -- scale [runs]` (issue 11): runs of one `sleep 1` check through the PostgreSQL queue with
// 1 worker × concurrency 4, then 2 workers × 4 (the second in its own network namespace when root) twice —
// just after the second started, then with both warm — wall time against the ideal runs/(workers·4) s, where
// each run's time went and what CPU it cost the machine; dispatch-to-first-check latency through the queue vs the local
// executor (one run at a time, idle system); 100 simulated live viewers polling one running run. Needs
// PostgreSQL (TEST_DATABASE_URL, default the local server): everything is made in a fresh schema and dropped.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { SYSTEM_ACTOR } from "../../lib/auth/actor";
import { DEFAULT_WORKER_WARM_WORKS } from "../../lib/config/config";
import { getDb, pgConnectionOf } from "../../lib/db/client";
import { findRun, listResultsOfRun } from "../../lib/db/runs";
import { configureRuntime } from "../../lib/runner/runtime";
import { dispatchTask } from "../../lib/services/runs";
import { createTask } from "../../lib/services/tasks";
import { createWork } from "../../lib/services/works";
import { makeGitRepo } from "../../lib/testing/git-repo";
const isRoot = process.getuid?.() === 0;
import { createNetns, type Netns } from "../../lib/testing/netns";
import { procStatFields, waitFor } from "../../lib/testing/processes";
import {
  startWorkerProcess,
  stopWorkerProcess,
  waitForOutput,
  type WorkerProcess,
} from "../../lib/testing/worker-process";
import { BENCH_DATA_PARENT, type BenchRow } from "./runner-bench";
import { openQueueBench, pollViewers, viewerToken } from "./viewers-bench";

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

export async function benchScale(runs: number, slots = 4, opts: { onHost?: boolean } = {}): Promise<BenchRow[]> {
  const { deps, close } = await openQueueBench();
  const repo = makeGitRepo({ "README.md": "scale\n" });
  const workers: WorkerProcess[] = [];
  const dataDirs: string[] = [];
  let ns: Netns | null = null;
  const rows: BenchRow[] = [];
  const unfinished = await openUnfinishedProbe();
  try {
    const work = await createWork(SYSTEM_ACTOR, {
      name: "Scale",
      repoUrl: repo.dir,
      baseBranch: "main",
      requireTests: "off",
      vacuousPolicy: "off",
      protectedPaths: [],
      checkDefaults: [{ id: "sleep", name: "sleeps", kind: "custom", command: "sleep 1", required: true }],
    });
    const tasks = async (n: number) => {
      const made = [];
      for (let i = 0; i < n; i++)
        made.push(await createTask(SYSTEM_ACTOR, work.id, { title: `scale ${i}`, description: "" }));
      return made;
    };
    const finished = (id: string) => allFinished([id]);
    // One query for all of them (a wait per run polled the database 10 times a second each: for 200 runs,
    // 2,000 queries a second on the cores the workers need), on a connection of its own: the measuring
    // should cost the machine next to nothing (through the Prisma client each poll took ~2.5 ms of this
    // process's CPU, 20 a second — ~20 ms a run of a 12-run wave, on the cores the workers share).
    const allFinished = (ids: readonly string[]) =>
      waitFor(async () => (await unfinished.count(ids)) === 0, { timeoutMs: 30 * 60_000, intervalMs: 50 });
    const firstCheckLatency = async (id: string) => {
      const run = (await findRun({ id }))!;
      const started = (await listResultsOfRun({ runId: id }))[0]?.startedAt;
      return started ? started.getTime() - run.createdAt.getTime() : Number.NaN;
    };
    const workerEnv = {
      GATEHOUSE_CONCURRENCY: String(slots),
      GATEHOUSE_WORKER_LOST_SEC: "30",
      GATEHOUSE_WORKER_WARM: String(DEFAULT_WORKER_WARM_WORKS),
    };
    const startWorker = async (name: string, inNamespace: boolean, concurrency = slots) => {
      let w: WorkerProcess;
      // Each worker's data dir where a worker keeps it by default (./data of its install), not in /tmp.
      fs.mkdirSync(BENCH_DATA_PARENT, { recursive: true });
      const dataDir = fs.mkdtempSync(path.join(BENCH_DATA_PARENT, `worker-${name}-`));
      dataDirs.push(dataDir);
      if (inNamespace && ns) {
        const db = new URL(process.env.DATABASE_URL!);
        const port = await ns.forward(db.hostname, Number(db.port || 5432));
        db.hostname = ns.hostAddress;
        db.port = String(port);
        w = startWorkerProcess(
          name,
          {
            DATABASE_URL: db.toString(),
            ...workerEnv,
            GATEHOUSE_DATA_DIR: dataDir,
            GATEHOUSE_CONCURRENCY: `${concurrency}`,
          },
          ns.exec(process.execPath, [path.join(process.cwd(), "scripts", "worker.mjs")]),
        );
      } else
        w = startWorkerProcess(name, {
          ...workerEnv,
          GATEHOUSE_DATA_DIR: dataDir,
          GATEHOUSE_CONCURRENCY: `${concurrency}`,
        });
      workers.push(w);
      await waitForOutput(w, "takes runs", 120_000);
      // A worker that joins readies the clones of the Works run lately: the burst comes after that.
      await waitForOutput(w, "readied the clones", 120_000);
    };
    const wave = async (label: string, workerCount: number, slots: number, count: number) => {
      const list = await tasks(count);
      const running = workers.flatMap((w) => (w.child.pid ? [{ name: w.name, pid: w.child.pid }] : []));
      const cpuBefore = machineCpu(running);
      const started = performance.now();
      const startedAt = Date.now();
      const ids = [];
      for (const task of list) ids.push((await dispatchTask(SYSTEM_ACTOR, task.id)).id);
      const dispatched = performance.now();
      await allFinished(ids);
      const noticed = performance.now() - started;
      const cpu = cpuSince(cpuBefore, running);
      const breakdown = await breakdownOf(ids, slots, startedAt);
      // Until the last run finished as the database recorded it, not until the bench's poll (every 50 ms) saw it.
      const wall = breakdown.lastFinishedAt - startedAt;
      const perWorker = await perWorkerCpu(ids, cpu);
      const dispatchedMs = dispatched - started;
      const ideal = Math.ceil(count / (workerCount * slots)) * 1000;
      const row = {
        name:
          `${count} runs of one \`sleep 1\` check, ${label}: ` +
          `wall time vs the ideal ${count}/(${workerCount}·${slots}) s`,
        subjectMs: wall,
        baselineMs: ideal,
        ratio: wall / ideal,
        extra:
          `${breakdown.text}; ` +
          `dispatching all ${count} took ${(dispatchedMs / 1000).toFixed(1)} s ` +
          `(the bench's poll saw the last finish ${(noticed - wall).toFixed(0)} ms after it); ` +
          `${describeCpu(cpu, count, ideal)}; ${perWorker}; ` +
          `load average ${os.loadavg()[0].toFixed(2)}`,
      };
      console.log(`${row.name}: ${(wall / 1000).toFixed(1)} s, ratio ${row.ratio.toFixed(2)}\n  ${row.extra}`);
      return row;
    };
    const latencies = async (n: number) => {
      const out: number[] = [];
      for (const task of await tasks(n)) {
        const run = await dispatchTask(SYSTEM_ACTOR, task.id);
        await finished(run.id);
        out.push(await firstCheckLatency(run.id));
      }
      return out;
    };

    await startWorker("scale-1", false);
    rows.push(await wave(`1 worker × ${slots}`, 1, slots, runs));
    const queued = await latencies(20);
    if (isRoot && !opts.onHost) ns = createNetns();
    await startWorker("scale-2", !!ns);
    const where = ns ? " (the second in a network namespace)" : "";
    rows.push(await wave(`2 workers × ${slots}${where}, the second just started`, 2, slots, runs));
    // Again, both workers having run before: what a fleet that has been up a while does.
    rows.push(await wave(`2 workers × ${slots}${where}, both warm`, 2, slots, runs));

    // 100 viewers of one running run (viewers-bench.ts).
    rows.push(await pollViewers(work.id, await viewerToken()));
    console.log(`${rows.at(-1)!.name}: p95 ${rows.at(-1)!.subjectMs.toFixed(0)} ms, ${rows.at(-1)!.extra}`);

    for (const w of workers.splice(0)) await stopWorkerProcess(w);
    // The same slots in one worker: what they cost on this machine's cores apart from the queue between two
    // workers (on two machines each worker would have cores of its own; here both share these). Warmed first
    // by one run a slot, as the two workers were by the waves before.
    await startWorker("scale-one", false, 2 * slots);
    await allFinished(
      await Promise.all((await tasks(2 * slots)).map(async (t) => (await dispatchTask(SYSTEM_ACTOR, t.id)).id)),
    );
    rows.push(await wave(`1 worker × ${2 * slots}, the slots of the two in one`, 1, 2 * slots, runs));
    for (const w of workers.splice(0)) await stopWorkerProcess(w);
    // The local executor, same database, one run at a time.
    configureRuntime(deps);
    const local = await latencies(20);
    rows.push({
      name: "dispatch → first check started, one run at a time: p50 through the queue (1 worker) vs the local executor",
      subjectMs: pct(queued, 0.5),
      baselineMs: pct(local, 0.5),
      ratio: pct(queued, 0.5) / pct(local, 0.5),
      extra: `p95 ${pct(queued, 0.95).toFixed(0)} ms vs ${pct(local, 0.95).toFixed(0)} ms`,
    });
    console.log(
      `${rows.at(-1)!.name}: ${rows.at(-1)!.subjectMs.toFixed(0)} vs ` +
        `${rows.at(-1)!.baselineMs.toFixed(0)} ms, ${rows.at(-1)!.extra}`,
    );
    return rows;
  } finally {
    for (const w of workers) await stopWorkerProcess(w);
    await ns?.cleanup();
    await unfinished.close();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
    await close();
  }
}

// How many of some runs have not finished, asked over a PostgreSQL connection of the bench's own (the schema
// the test database made: DATABASE_URL's ?schema=).
async function openUnfinishedProbe() {
  const client = new pg.Client(pgConnectionOf(process.env.DATABASE_URL!));
  await client.connect();
  return {
    count: async (ids: readonly string[]) =>
      Number(
        (
          await client.query<{ n: string }>(
            `SELECT count(*) AS n FROM "Run" WHERE id = ANY($1) AND status <> 'finished'`,
            [ids],
          )
        ).rows[0].n,
      ),
    close: () => client.end(),
  };
}

// The machine's CPU time (every process: workers, git, bash, PostgreSQL, this bench), from /proc, split by
// who spent it: the worker processes themselves, PostgreSQL, this bench (dispatching, the forwarder it
// may run), and the rest — the commands the workers start (git, bwrap, the spawner, bash, the check).
const TICK_MS = 10; // USER_HZ is 100 on Linux
// `steal`: time the virtual machine's host gave to others while this one had work (not spent here, but lost).
type CpuSample = {
  busy: number;
  steal: number;
  workers: Map<string, number>;
  postgres: number;
  bench: number;
  cores: number;
};
type Running = { name: string; pid: number };
const cpuOf = (pid: number | string) => {
  const fields = procStatFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) * TICK_MS : 0;
};
const total = (m: Map<string, number>) => [...m.values()].reduce((sum, ms) => sum + ms, 0);
function machineCpu(workers: readonly Running[]): CpuSample | null {
  try {
    const fields = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = fields;
    let postgres = 0;
    for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      try {
        if (fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres") postgres += cpuOf(pid);
      } catch {}
    }
    const usage = process.cpuUsage();
    return {
      busy: (user + nice + system + irq + softirq) * TICK_MS,
      steal: steal * TICK_MS,
      workers: new Map(workers.map((w) => [w.name, cpuOf(w.pid)])),
      postgres,
      bench: (usage.user + usage.system) / 1000,
      cores: os.availableParallelism(),
    };
  } catch {
    return null;
  }
}
const cpuSince = (before: CpuSample | null, workers: readonly Running[]): CpuSample | null => {
  const after = machineCpu(workers);
  if (!before || !after) return null;
  return {
    busy: after.busy - before.busy,
    steal: after.steal - before.steal,
    workers: new Map([...after.workers].map(([name, ms]) => [name, ms - (before.workers.get(name) ?? 0)])),
    postgres: after.postgres - before.postgres,
    bench: after.bench - before.bench,
    cores: after.cores,
  };
};

// Each worker's own CPU per run it executed in the wave (a worker's first runs pay for loading and compiling
// the code they reach).
async function perWorkerCpu(ids: readonly string[], cpu: CpuSample | null): Promise<string> {
  if (!cpu) return "";
  const runs = await getDb().run.findMany({ where: { id: { in: [...ids] } }, select: { workerName: true } });
  return [...cpu.workers]
    .map(([name, ms]) => ({ name, ms, count: runs.filter((r) => r.workerName === name).length }))
    .filter((w) => w.count > 0)
    .map((w) => `${w.name} ${w.count} runs, ${(w.ms / w.count).toFixed(0)} ms of its CPU a run`)
    .join(", ");
}

// What the wave cost the machine, per run and by who spent it, and the wall that CPU alone needs on these
// cores: every slot's runs start and end together (the checks only sleep), so their set-ups and wrap-ups
// queue for the cores while nothing else runs.
function describeCpu(cpu: CpuSample | null, runs: number, idealMs: number): string {
  if (!cpu) return "machine CPU not read";
  const per = (ms: number) => (ms / runs).toFixed(0);
  const rest = cpu.busy - total(cpu.workers) - cpu.postgres - cpu.bench;
  const floor = idealMs + cpu.busy / cpu.cores;
  // What the wave would need if the workers' own work cost nothing: the processes a run starts (git, bwrap,
  // the check), PostgreSQL and the dispatching alone.
  const withoutWorkers = idealMs + (cpu.busy - total(cpu.workers)) / cpu.cores;
  return (
    `the machine's CPU ${per(cpu.busy)} ms a run (the workers ${per(total(cpu.workers))}, the commands they start ` +
    `${per(rest)}, PostgreSQL ${per(cpu.postgres)}, this bench ${per(cpu.bench)}), so ideal + CPU / ` +
    `${cpu.cores} cores = ${(floor / 1000).toFixed(2)} s, ratio ${(floor / idealMs).toFixed(2)} ` +
    `(without the workers' own: ${(withoutWorkers / idealMs).toFixed(2)})` +
    (cpu.steal > 0 ? `; the virtual machine's host took ${per(cpu.steal)} ms a run more (steal)` : "")
  );
}

// Where a run's time goes, from what the database recorded (p50 / p95 over the runs): waiting in the queue
// (dispatched → started by a worker), set-up (started → its check started: the checkout, the attempt), the
// check itself, the wrap-up (its check finished → the run finished: the ending), and the slot's turnaround
// (a run finished → the next run started in the slot it freed, when that run was already waiting: shipping
// the logs, releasing the claim, fetching the next job, claiming its run). Slots are replayed per worker from
// the start and finish times, earliest-free first.
async function breakdownOf(
  ids: readonly string[],
  slots: number,
  waveStart: number,
): Promise<{ text: string; lastFinishedAt: number }> {
  const parts: Record<string, number[]> = {
    queue: [],
    "set-up": [],
    check: [],
    "its command": [],
    "wrap-up": [],
    turnaround: [],
  };
  type Times = { createdAt: number; startedAt: number; firstStart: number; lastDone: number; finishedAt: number };
  const byWorker = new Map<string, Times[]>();
  // Each run's predecessor in its slot (null: the slot's first): the slot whose runs ended last is the wave's
  // critical path.
  const slotOf = new Map<Times, Times | null>();
  let lastFinishedAt = waveStart;
  for (const id of ids) {
    const run = await findRun({ id });
    lastFinishedAt = Math.max(lastFinishedAt, run?.finishedAt?.getTime() ?? 0);
    const results = await listResultsOfRun({ runId: id });
    const firstStart = Math.min(...results.map((r) => r.startedAt?.getTime() ?? Number.POSITIVE_INFINITY));
    const lastDone = Math.max(0, ...results.map((r) => r.finishedAt?.getTime() ?? 0));
    if (!run?.startedAt || !run.finishedAt || lastDone === 0 || !Number.isFinite(firstStart)) continue;
    const times = {
      createdAt: run.createdAt.getTime(),
      startedAt: run.startedAt.getTime(),
      firstStart,
      lastDone,
      finishedAt: run.finishedAt.getTime(),
    };
    parts.queue.push(times.startedAt - times.createdAt);
    parts["set-up"].push(firstStart - times.startedAt);
    parts.check.push(lastDone - firstStart);
    // The command's own time as the spawner measured it (its start to its exit), inside the check's row.
    for (const r of results) if (r.durationMs !== null) parts["its command"].push(Math.round(r.durationMs));
    parts["wrap-up"].push(times.finishedAt - lastDone);
    const worker = run.workerName ?? "?";
    byWorker.set(worker, [...(byWorker.get(worker) ?? []), times]);
  }
  for (const runsOfWorker of byWorker.values()) {
    // Each slot's latest run (null: none yet), the earliest free first.
    const free: (Times | null)[] = Array.from({ length: slots }, () => null);
    for (const run of runsOfWorker.sort((a, b) => a.startedAt - b.startedAt)) {
      free.sort((a, b) => (a?.finishedAt ?? Number.NEGATIVE_INFINITY) - (b?.finishedAt ?? Number.NEGATIVE_INFINITY));
      const before = free.shift()!;
      if (before && run.createdAt < before.finishedAt) parts.turnaround.push(run.startedAt - before.finishedAt);
      slotOf.set(run, before);
      free.push(run);
    }
  }
  const last = [...slotOf.keys()].sort((a, b) => b.finishedAt - a.finishedAt)[0];
  const chain: Times[] = [];
  for (let run: Times | null | undefined = last; run; run = slotOf.get(run)) chain.unshift(run);
  // Its time in parts (they add up to the wave's wall): until its first run started, then each run's set-up,
  // check and wrap-up, and the slot's gaps between one run's finish and the next one's start.
  const sum = (f: (r: Times, i: number) => number) => chain.reduce((total, r, i) => total + f(r, i), 0);
  const critical = chain.length
    ? `; the slot that ended last, ${chain.length} runs: its first started at +${chain[0].startedAt - waveStart} ms ` +
      `(dispatched +${chain[0].createdAt - waveStart}), then set-ups ${sum((r) => r.firstStart - r.startedAt)}, ` +
      `checks ${sum((r) => r.lastDone - r.firstStart)}, wrap-ups ${sum((r) => r.finishedAt - r.lastDone)}, ` +
      `between runs ${sum((r, i) => (i === 0 ? 0 : r.startedAt - chain[i - 1].finishedAt))} ms`
    : "";
  const text = `per run, p50 / p95 ms: ${Object.entries(parts)
    .map(([k, xs]) => `${k} ${xs.length ? `${pct(xs, 0.5)} / ${pct(xs, 0.95)}` : "—"}`)
    .join(", ")}${critical}`;
  return { text, lastFinishedAt };
}
