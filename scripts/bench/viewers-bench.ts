// `npm run bench -- viewers` (issue 27 item 3): 100 simulated live viewers polling one running run once
// a second with If-None-Match, as a browser does, through the PostgreSQL queue with one worker (so the
// server reads the run's rows from the database, as it does with workers). p95 against p50; the load
// average is printed beside it. Also used by `npm run bench -- scale`.
import { execFileSync } from "node:child_process";
import os from "node:os";
import { SYSTEM_ACTOR } from "../../lib/auth/actor";
import { findRun, listResultsOfRun } from "../../lib/db/runs";
import { GET as getRun } from "../../app/api/runs/[id]/route";
import { QueueExecutor } from "../../lib/runner/queue/queue-executor";
import { defaultRunnerDeps, setExecutor } from "../../lib/runner/runtime";
import { cancelRun, dispatchTask } from "../../lib/services/runs";
import { createTask } from "../../lib/services/tasks";
import { createWork } from "../../lib/services/works";
import { createTokenWithPassword } from "../../lib/services/auth";
import { createUser } from "../../lib/services/users";
import { callRoute } from "../../lib/testing/call-route";
import { makeGitRepo } from "../../lib/testing/git-repo";
import { waitFor } from "../../lib/testing/processes";
import { createTestDb } from "../../lib/testing/test-db";
import {
  openTestQueue,
  shareSecretKey,
  startWorkerProcess,
  stopWorkerProcess,
  waitForOutput,
} from "../../lib/testing/worker-process";
import type { BenchRow } from "./runner-bench";

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

// 100 viewers of one running run: each polls once a second for 10 s, with If-None-Match.
export async function pollViewers(workId: string, token: string): Promise<BenchRow> {
  const longTask = await createTask(SYSTEM_ACTOR, workId, {
    title: "watched",
    description: "",
    acceptanceChecks: [
      {
        id: "long",
        name: "long",
        kind: "custom",
        command: "for i in $(seq 60); do echo $i; sleep 1; done",
        required: true,
      },
    ],
  });
  const live = await dispatchTask(SYSTEM_ACTOR, longTask.id);
  await waitFor(async () => (await listResultsOfRun({ runId: live.id })).some((r) => r.verdict === "running"), {
    timeoutMs: 60_000,
    what: "the watched run's check to start",
  }).catch(async (error) => {
    console.error(
      JSON.stringify(await listResultsOfRun({ runId: live.id })),
      JSON.stringify(await findRun({ id: live.id })),
    );
    throw error;
  });
  const times: number[] = [];
  let notModified = 0;
  const cpu = process.cpuUsage();
  const began = performance.now();
  const load = os.loadavg()[0];
  await Promise.all(
    Array.from({ length: 100 }, async (_, viewer) => {
      let etag: string | undefined;
      await new Promise((r) => setTimeout(r, viewer * 10));
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        const res = await callRoute(getRun, {
          path: `/api/runs/${live.id}`,
          params: { id: live.id },
          token,
          headers: etag ? { "if-none-match": etag } : {},
        });
        times.push(performance.now() - t0);
        if (res.status === 304) notModified++;
        etag = res.headers.get("etag") ?? etag;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  const cpuShare = (used.user + used.system) / 1000 / (performance.now() - began);
  await cancelRun(SYSTEM_ACTOR, live.id);
  return {
    name: "100 live viewers polling one running run once a second (10 polls each, ETag revalidation): p95 response",
    subjectMs: pct(times, 0.95),
    baselineMs: pct(times, 0.5),
    ratio: pct(times, 0.95) / pct(times, 0.5),
    extra:
      `p50 ${pct(times, 0.5).toFixed(0)} ms; ${notModified} of ${times.length} answered 304; server CPU ` +
      `${(cpuShare * 100).toFixed(0)}% of one core; load ${load.toFixed(1)}–${os.loadavg()[0].toFixed(1)}`,
  };
}

// A fresh PostgreSQL test database and queue with this process dispatching through it (the benches that
// run real workers: this one and scale-bench.ts); `close` ends the executor and drops both.
export async function openQueueBench() {
  process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/test";
  shareSecretKey();
  const t = await createTestDb();
  const { queue, drop } = await openTestQueue();
  const deps = { ...defaultRunnerDeps(), dataDir: t.dataDir, concurrency: 4 };
  const executor = new QueueExecutor(queue, deps, 30_000);
  setExecutor(executor, deps);
  const close = async () => {
    executor.close();
    await drop();
    await t.cleanup();
  };
  return { deps, close };
}

export async function benchViewers(): Promise<BenchRow[]> {
  const bench = await openQueueBench();
  const repo = makeGitRepo({ "README.md": "viewers\n" });
  // The worker clones as the sandbox user: the repository must be readable by others (mkdtemp makes 0700).
  execFileSync("chmod", ["-R", "a+rX", repo.dir]);
  const worker = startWorkerProcess("viewers-1", { GATEHOUSE_CONCURRENCY: "4", GATEHOUSE_WORKER_LOST_SEC: "30" });
  try {
    const work = await createWork(SYSTEM_ACTOR, {
      name: "Viewers",
      repoUrl: repo.dir,
      baseBranch: "main",
      requireTests: "off",
      vacuousPolicy: "off",
      protectedPaths: [],
      checkDefaults: [],
    });
    await waitForOutput(worker, "takes runs", 120_000);
    try {
      return [await pollViewers(work.id, await viewerToken())];
    } catch (error) {
      console.error(worker.output().slice(-3000));
      throw error;
    }
  } finally {
    await stopWorkerProcess(worker);
    repo.cleanup();
    await bench.close();
  }
}

// A viewer's API token (an admin, so no role is needed on the bench Work).
export async function viewerToken(): Promise<string> {
  const email = `scale-viewer-${process.pid}@example.test`;
  const password = "scale-viewer-password";
  await createUser(SYSTEM_ACTOR, { email, password, name: "viewer", admin: true });
  return (await createTokenWithPassword({ email, password, name: "scale bench" }, "scale-bench")).token;
}
