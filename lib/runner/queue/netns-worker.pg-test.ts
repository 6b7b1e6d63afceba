// A worker on another "host": its own network namespace with its own address (lib/testing/netns), reaching
// PostgreSQL and git only over the veth link (PostgreSQL through a forwarder on this side's address, git
// through git daemon there). The test plays the server; the worker runs real runs, then is killed with
// SIGKILL mid-check (worker lost). Root only (ip netns); run by `npm run test:pg`.
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../../auth/actor";
import { findRun } from "../../db/runs";
import { WORKER_LOST } from "../../gates/workers";
import { dispatchTask } from "../../services/runs";
import { loadRunDetail } from "../../services/run-detail";
import { readLogLines } from "../../services/logs";
import { createTask } from "../../services/tasks";
import { createWork } from "../../services/works";
import { makeGitRepo, type TestRepo } from "../../testing/git-repo";
import { describeAsRoot } from "../../testing/needs-root";
import { createNetns, type Netns } from "../../testing/netns";
import { waitFor } from "../../testing/processes";
import { check } from "../../testing/runner-harness";
import {
  startTestServer,
  startWorkerProcess,
  stopWorkerProcess,
  waitForOutput,
  type TestServer,
  type WorkerProcess,
} from "../../testing/worker-process";

describeAsRoot("a worker in its own network namespace", () => {
  let server: TestServer;
  let ns: Netns;
  let worker: WorkerProcess | null = null;
  let gitPort: number;
  const repos: TestRepo[] = [];

  beforeAll(async () => {
    server = await startTestServer({ watchLost: true });
    ns = createNetns();
    const db = new URL(process.env.DATABASE_URL!);
    const pgPort = await ns.forward(db.hostname, Number(db.port || 5432));
    gitPort = await ns.serveGit(path.dirname(makeRepo().dir));
    const nsUrl = new URL(process.env.DATABASE_URL!);
    nsUrl.hostname = ns.hostAddress;
    nsUrl.port = String(pgPort);
    worker = startWorkerProcess(
      "ns-worker",
      { DATABASE_URL: nsUrl.toString() },
      ns.exec(process.execPath, [path.resolve(__dirname, "..", "..", "..", "scripts", "worker.mjs")]),
    );
    await waitForOutput(worker, "takes runs", 110_000);
  }, 120_000);

  afterAll(async () => {
    if (worker) await stopWorkerProcess(worker);
    await ns?.cleanup();
    for (const r of repos) r.cleanup();
    await server?.close();
  });

  function makeRepo(): TestRepo {
    const repo = makeGitRepo({ "README.md": "served over git://\n" });
    repos.push(repo);
    return repo;
  }

  async function scenario(command: string) {
    const repo = makeRepo();
    const work = await createWork(SYSTEM_ACTOR, {
      name: `Netns ${path.basename(repo.dir)}`,
      repoUrl: `git://${ns.hostAddress}:${gitPort}/${path.basename(repo.dir)}`,
      baseBranch: "main",
      requireTests: "off",
      vacuousPolicy: "off",
      protectedPaths: [],
      checkDefaults: [check("where", command)],
    });
    return createTask(SYSTEM_ACTOR, work.id, { title: "Run over there", description: "On the other host." });
  }

  async function settled(runId: string) {
    return waitFor(
      async () => {
        const run = await findRun({ id: runId });
        return run && run.status === "finished" && run.claimedBy === null ? run : null;
      },
      { timeoutMs: 90_000, what: `run ${runId} to end` },
    );
  }

  it("runs a run cloned over git://, in the namespace, its log read from this side", async () => {
    const task = await scenario("ls /sys/class/net; cat README.md");
    const run = await dispatchTask(SYSTEM_ACTOR, task.id);
    const ended = await settled(run.id);
    expect(ended.ending, `${ended.endingReason}\n${worker?.output()}`).toBe("accepted");
    expect(ended.workerName).toBe("ns-worker");
    const lines = (await readLogLines(SYSTEM_ACTOR, run.id, "1", "where", 0, 20)).lines.map((l) => l.text);
    // The namespace has only its loopback and its end of the veth pair; the checkout came over git://.
    expect(lines).toContain("lo");
    expect(lines.some((l) => /^ghw\d+n$/.test(l))).toBe(true);
    expect(lines).toContain("served over git://");
  });

  it("killed with SIGKILL mid-check: the run ends inconclusive, worker lost", async () => {
    const task = await scenario("echo started; sleep 300");
    const run = await dispatchTask(SYSTEM_ACTOR, task.id);
    await waitFor(
      async () => {
        const detail = await loadRunDetail(SYSTEM_ACTOR, run.id);
        return detail.attempts[0]?.results[0]?.logTail?.includes("started") ?? false;
      },
      { timeoutMs: 90_000, what: "the check to start on the namespaced worker" },
    );
    expect(worker!.signal("SIGKILL")).toBe(true);
    await worker!.exited;
    const ended = await settled(run.id);
    expect(ended.ending).toBe("inconclusive");
    expect(ended.endingReason).toBe(WORKER_LOST);
  });
});
