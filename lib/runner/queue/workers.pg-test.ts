// Workers on PostgreSQL, end to end: the test plays the web server (services on a QueueExecutor, its own
// data dir) and real `npm run worker` processes (each with a data dir of its own, as on another machine)
// take the runs from the pg-boss queue. Run by `npm run test:pg` only (it needs PostgreSQL).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../../auth/actor";
import { findRun } from "../../db/runs";
import { claimRun, listWorkersWithRuns } from "../../db/workers";
import { WORKER_LOST, WORKER_STOPPED } from "../../gates/workers";
import { cancelRun, dispatchTask } from "../../services/runs";
import { loadRunDetail } from "../../services/run-detail";
import { readLogLines, searchLog } from "../../services/logs";
import { setSecret } from "../../services/secrets";
import { check, makeScenario, type Harness } from "../../testing/runner-harness";
import { findProcessesByEnv } from "../process/process-group";
import { waitFor, waitUntilGone } from "../../testing/processes";
import {
  startTestServer,
  startWorkerProcess,
  stopWorkerProcess,
  waitForOutput,
  type TestServer,
  type WorkerProcess,
} from "../../testing/worker-process";
import { GET as getWorkers } from "../../../app/api/workers/route";
import { GET as getRun } from "../../../app/api/runs/[id]/route";
import { makePerson } from "../../testing/access-fixture";
import { callRoute } from "../../testing/call-route";
import type { Json } from "../../testing/json";
import { sendRunJob, type QueueConnection } from "./boss";

let server: TestServer;
let h: Harness;
let queue: QueueConnection;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  server = await startTestServer({ watchLost: true });
  ({ h, queue } = server);
});

afterAll(async () => {
  for (const w of workers) await stopWorkerProcess(w);
  await server?.close();
});

function worker(name: string, env: Record<string, string> = {}): WorkerProcess {
  const w = startWorkerProcess(name, env);
  workers.push(w);
  return w;
}

// Ended (or waiting) and no worker holds it any more.
async function settled(runId: string, timeoutMs = 90_000) {
  return waitFor(
    async () => {
      const run = await findRun({ id: runId });
      return run && (run.status === "finished" || run.status === "waiting") && run.claimedBy === null ? run : null;
    },
    { timeoutMs, what: `run ${runId} to settle` },
  );
}

async function runningCheck(runId: string, checkId: string) {
  return waitFor(
    async () => {
      const detail = await loadRunDetail(SYSTEM_ACTOR, runId);
      const row = detail.attempts.at(-1)?.results.find((r) => r.checkId === checkId);
      return row?.verdict === "running" ? { detail, row } : null;
    },
    { timeoutMs: 90_000, what: `check ${checkId} of run ${runId} to run` },
  );
}

describe("workers on the PostgreSQL queue", () => {
  let w1: WorkerProcess;

  beforeAll(async () => {
    // One slot, and it never polls within a test: every run must reach it by a wake-up (a job's NOTIFY,
    // its slot freed).
    w1 = worker("w1", { GATEHOUSE_CONCURRENCY: "1", GATEHOUSE_WORKER_POLL_MS: String(600_000) });
    await waitForOutput(w1, "takes runs");
  }, 120_000);

  it("a run queued while the worker's slot is busy starts when the slot frees, not at the next poll", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("nap", "sleep 1")] });
    const { createTask } = await import("../../services/tasks");
    const next = await createTask(SYSTEM_ACTOR, s.work.id, { title: "the second" });
    const first = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    const second = await dispatchTask(SYSTEM_ACTOR, next.id);
    const ended = await Promise.all([settled(first.id, 60_000), settled(second.id, 60_000)]);
    for (const run of ended) {
      expect(run.ending, run.endingReason ?? "").toBe("accepted");
      expect(run.workerName).toBe("w1");
    }
    // The second waited for the slot (its job arrived while the first held it).
    expect(ended[1].startedAt!.getTime()).toBeGreaterThanOrEqual(ended[0].finishedAt!.getTime());
  });

  it("a dispatch is executed by a worker process; the run names it; logs are read from the server, \
masked on the worker", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [
        check("hello", 'for i in $(seq 1 300); do echo "line $i"; done; echo "token=$API_TOKEN"', {
          envPassthrough: ["API_TOKEN"],
        }),
      ],
    });
    await setSecret(SYSTEM_ACTOR, s.work.id, "API_TOKEN", { value: "sekrit-value-42" });
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    const ended = await settled(run.id);
    expect(ended.ending, ended.endingReason ?? "").toBe("accepted");
    expect(ended.workerName).toBe("w1");
    // The worker's data dir is not the server's: the server reads the log the worker shipped.
    expect(fs.existsSync(path.join(h.dataDir, "logs", run.id))).toBe(false);
    const page = await readLogLines(SYSTEM_ACTOR, run.id, "1", "hello", 0, 5);
    expect(page.totalLines).toBe(301);
    expect(page.lines.at(-1)?.text).toBe("token=***");
    expect((await searchLog(SYSTEM_ACTOR, run.id, "1", "hello", "line 29")).lines).toEqual([
      29, 290, 291, 292, 293, 294, 295, 296, 297, 298, 299,
    ]);
    expect(await h.t.holds("sekrit-value-42")).toBe(false);
  });

  it("GET /api/workers lists the workers (admins) with the runs they hold; the run's JSON names its \
worker", async () => {
    const admin = await makePerson("workers-admin", { admin: true });
    const viewer = await makePerson("workers-viewer");
    const s = await makeScenario(h, { checkDefaults: [check("held", "sleep 300")] });
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    await runningCheck(run.id, "held");
    const res = await callRoute(getWorkers, { path: "/api/workers", token: admin.token });
    expect(res.status, res.text).toBe(200);
    const holder = res.json.workers.find((w: Json) => w.runs.some((r: Json) => r.id === run.id)) as Json;
    expect(holder).toMatchObject({ state: "active", concurrency: 1, host: os.hostname() });
    expect(holder.runs.find((r: Json) => r.id === run.id)).toMatchObject({ taskKey: s.task.key, status: "running" });
    const runJson = await callRoute(getRun, {
      path: `/api/runs/${run.id}`,
      params: { id: run.id },
      token: admin.token,
    });
    expect(runJson.json.worker).toBe(holder.name);
    expect((await callRoute(getWorkers, { path: "/api/workers", token: viewer.token })).status).toBe(403);
    await cancelRun(SYSTEM_ACTOR, run.id);
    await settled(run.id);
  });

  it("live rows and the live tail of a check running on a worker reach the server", async () => {
    const s = await makeScenario(h, {
      checkDefaults: [check("slow", "echo first-marker; sleep 0.5; echo second-marker; sleep 4")],
    });
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    const seen = await waitFor(
      async () => {
        const detail = await loadRunDetail(SYSTEM_ACTOR, run.id);
        const row = detail.attempts[0]?.results[0];
        return row?.verdict === "running" && row.logTail?.includes("second-marker") ? row : null;
      },
      { timeoutMs: 60_000, what: "the live tail" },
    );
    const lag = Date.now() - (seen.startedAt?.getTime() ?? 0) - 500;
    console.log(`live tail on the server ~${lag} ms after the line was printed (publish every 500 ms)`);
    const page = await readLogLines(SYSTEM_ACTOR, run.id, "1", "slow", 0, 10);
    expect(page.isLive).toBe(true);
    expect(page.lines.map((l) => l.text)).toContain("first-marker");
    expect((await settled(run.id)).ending).toBe("accepted");
  });

  it("a cancel reaches the worker: its check process ends and the run is rejected", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("forever", "sleep 300")] });
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    await runningCheck(run.id, "forever");
    const pids = await waitFor(() => {
      const found = findProcessesByEnv([`GATEHOUSE_RUN_ID=${run.id}`]);
      return found.length > 0 ? found : null;
    });
    const started = Date.now();
    await cancelRun(SYSTEM_ACTOR, run.id);
    expect(await waitUntilGone(pids, 30_000)).toEqual([]);
    console.log(`cancel to the check's processes gone: ${Date.now() - started} ms`);
    const ended = await settled(run.id);
    expect(ended.ending).toBe("rejected");
    const detail = await loadRunDetail(SYSTEM_ACTOR, run.id);
    expect(detail.attempts[0].status).toBe("finished");
    expect(detail.attempts[0].results[0].verdict).not.toBe("running");
    // The worker settles the gate of the attempt it cut short: stopped (no required check had failed).
    expect([detail.run.gate, detail.attempts[0].gate]).toEqual(["stopped", "stopped"]);
  });

  it("a job for a run that no longer exists is dropped and logged", async () => {
    await sendRunJob(queue, "no-such-run-0001");
    await waitForOutput(w1, "dropped the job for run no-such-run-0001: no such run");
  });

  it("of many claims on one run exactly one wins", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("one", "true")] });
    // A run as dispatch leaves it, claimed here by fake workers racing (the real ones never see its job).
    const { insertRunWithFirstAttempt } = await import("../../db/runs");
    const run = await insertRunWithFirstAttempt({
      data: {
        taskId: s.task.id,
        workId: s.work.id,
        policy: "required",
        maxAttempts: 1,
        checks: [],
        suppressed: [],
        warnings: [],
        agentCommand: null,
        agentEnvPassthrough: [],
        budgetSec: null,
        budgetUsd: null,
        failFast: false,
        proof: null,
        branch: s.task.branch,
        dispatchedById: null,
      },
    });
    const wins = await Promise.all(
      Array.from({ length: 12 }, (_, i) => claimRun({ runId: run.id, worker: { id: `fake-${i}`, name: `fake-${i}` } })),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it("duplicate jobs for one run execute it once", async () => {
    const counter = path.join(h.scratch, "executions");
    const s = await makeScenario(h, { checkDefaults: [check("count", `echo x >> ${counter}; sleep 1`)] });
    const w2 = worker("w2");
    await waitForOutput(w2, "takes runs");
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    await Promise.all([1, 2, 3, 4].map(() => sendRunJob(queue, run.id)));
    expect((await settled(run.id)).ending).toBe("accepted");
    expect(fs.readFileSync(counter, "utf8")).toBe("x\n");
    await stopWorkerProcess(w2);
  });

  it("a worker that joins readies the clone of a Work run lately, and the pack its new checkouts start \
from, before any run of it reaches the worker", async () => {
    const s = await makeScenario(h, { checkDefaults: [check("ok", "true")] });
    const run = await settled((await dispatchTask(SYSTEM_ACTOR, s.task.id)).id);
    expect(run.workerName).toBe(w1.name);
    // The Work just run is the most recently run: the one a warm-up of one Work readies.
    const joining = worker("joining", { GATEHOUSE_WORKER_WARM: "1" });
    await waitForOutput(joining, "readied the clones of 1 Works run lately (1 cloned)");
    const repo = path.join(joining.dataDir, "repos", `${s.work.id}.git`);
    expect(fs.existsSync(path.join(repo, "HEAD"))).toBe(true);
    const packs = fs.readdirSync(path.join(joining.dataDir, "base-packs", s.work.id));
    expect(packs).toEqual([run.startCommit]);
    // Nothing of a run: no checkout, no log.
    expect(fs.existsSync(path.join(joining.dataDir, "worktrees", s.task.id))).toBe(false);
    await stopWorkerProcess(joining);
  });

  // Whichever worker takes a run is the one the test stops; w1 is replaced when it was that one.
  async function holderOf(runId: string): Promise<WorkerProcess> {
    const name = (await findRun({ id: runId }))!.workerName;
    const holder = workers.find((w) => w.name === name);
    if (!holder) throw new Error(`run ${runId} is held by ${name}, not a worker of this test`);
    return holder;
  }

  async function replaceIfW1(stopped: WorkerProcess): Promise<void> {
    if (stopped !== w1) return;
    w1 = worker(`${stopped.name}-next`);
    await waitForOutput(w1, "takes runs");
  }

  it("a worker killed with SIGKILL mid-check: its run ends inconclusive, reason worker lost; its \
check processes are gone", async () => {
    const other = worker("other", { GATEHOUSE_CONCURRENCY: "1" });
    await waitForOutput(other, "takes runs");
    const s = await makeScenario(h, { checkDefaults: [check("forever", "sleep 300")] });
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    await runningCheck(run.id, "forever");
    const doomed = await holderOf(run.id);
    const pids = findProcessesByEnv([`GATEHOUSE_RUN_ID=${run.id}`]);
    expect(pids.length).toBeGreaterThan(0);
    expect(doomed.signal("SIGKILL")).toBe(true);
    const ended = await settled(run.id);
    expect(ended.ending).toBe("inconclusive");
    expect(ended.endingReason).toBe(WORKER_LOST);
    const detail = await loadRunDetail(SYSTEM_ACTOR, run.id);
    expect(detail.attempts[0].status).toBe("finished");
    expect(detail.attempts[0].results[0].verdict).toBe("error");
    expect(detail.attempts[0].results[0].message).toContain("worker lost");
    expect(await waitUntilGone(pids, 20_000)).toEqual([]);
    await replaceIfW1(doomed);
  }, 180_000);

  it("a worker lost before any check started: the run is handed back once and finishes on another worker", async () => {
    // Whichever worker takes the run is killed: another must be there to finish it.
    const spare = worker("spare-for-handback", { GATEHOUSE_CONCURRENCY: "1" });
    await waitForOutput(spare, "takes runs");
    const flag = path.join(h.scratch, "agent-started");
    const s = await makeScenario(h, {
      // The agent sleeps the first time (its worker is killed then), and returns at once the second time.
      agentCommand: `if [ -e ${flag} ]; then exit 0; fi; touch ${flag}; sleep 300`,
      checkDefaults: [check("quick", "echo fine")],
    });
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    await waitFor(() => fs.existsSync(flag), { timeoutMs: 90_000, what: "the agent to start" });
    const victim = await holderOf(run.id);
    expect(victim.signal("SIGKILL")).toBe(true);
    const ended = await settled(run.id);
    expect(ended.ending, ended.endingReason ?? "").toBe("accepted");
    expect(ended.handBacks).toBe(1);
    expect(ended.workerName).not.toBe(victim.name);
    await replaceIfW1(victim);
  }, 180_000);

  it("SIGTERM: the worker stops its runs cleanly (a started check: inconclusive, worker stopped) \
and deregisters", async () => {
    const spare = worker("spare", { GATEHOUSE_CONCURRENCY: "1" });
    await waitForOutput(spare, "takes runs");
    const s = await makeScenario(h, { checkDefaults: [check("long", "sleep 300")] });
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    await runningCheck(run.id, "long");
    const leaving = await holderOf(run.id);
    const pids = findProcessesByEnv([`GATEHOUSE_RUN_ID=${run.id}`]);
    expect(leaving.signal("SIGTERM")).toBe(true);
    expect(await leaving.exited).toBe(0);
    const ended = await settled(run.id);
    expect(ended.ending).toBe("inconclusive");
    expect(ended.endingReason).toBe(WORKER_STOPPED);
    expect(await waitUntilGone(pids, 20_000)).toEqual([]);
    const listed = (await listWorkersWithRuns({ since: new Date(0) })).find((w) => w.name === leaving.name);
    expect(listed?.state).toBe("stopped");
    await replaceIfW1(leaving);
  }, 180_000);
});
