// Auto-merge through a real worker process (`node scripts/worker.mjs` on PostgreSQL): a Work with
// mergePolicy.autoMerge, a run the worker executes and accepts, and the task's branch merged into the
// remote's base branch by the worker — which loads the merge service at start, so a module its loader
// cannot resolve stops it before it takes a run. Run by `npm run test:pg` only (it needs PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../../auth/actor";
import { findRun } from "../../db/runs";
import { findTask } from "../../db/tasks";
import { dispatchTask } from "../../services/runs";
import { gitIn, makeBareRepo } from "../../testing/git-repo";
import { check, makeScenario, type Harness } from "../../testing/runner-harness";
import { waitFor } from "../../testing/processes";
import {
  startTestServer,
  startWorkerProcess,
  stopWorkerProcess,
  waitForOutput,
  type TestServer,
  type WorkerProcess,
} from "../../testing/worker-process";

let server: TestServer;
let h: Harness;
let worker: WorkerProcess;

beforeAll(async () => {
  server = await startTestServer();
  h = server.h;
  worker = startWorkerProcess("merger");
  await waitForOutput(worker, "takes runs", 110_000);
}, 120_000);

afterAll(async () => {
  if (worker) await stopWorkerProcess(worker);
  await server?.close();
});

describe("auto-merge on a worker", () => {
  it("a run the worker accepts is merged into the remote's base branch by the worker", async () => {
    const remote = makeBareRepo({ "README.md": "one\n" });
    const s = await makeScenario(
      h,
      {
        checkDefaults: [check("has-file", "test -f landed.txt")],
        agentCommand: "printf 'landed\\n' > landed.txt && git add -A && git commit -qm 'add landed.txt'",
        mergePolicy: { autoMerge: true },
      },
      { repo: remote },
    );
    const run = await dispatchTask(SYSTEM_ACTOR, s.task.id);
    const ended = await waitFor(
      async () => {
        const r = await findRun({ id: run.id });
        return r?.status === "finished" && r.claimedBy === null ? r : null;
      },
      { timeoutMs: 90_000, what: `run ${run.id} to end` },
    );
    expect(ended.ending, ended.endingReason ?? "").toBe("accepted");
    expect(ended.workerName).toBe("merger");
    const task = await waitFor(
      async () => {
        const t = await findTask({ id: s.task.id });
        return t?.mergedCommit || t?.autoMergeError ? t : null;
      },
      { timeoutMs: 60_000, what: "the auto-merge to be recorded" },
    );
    expect(task.autoMergeError).toBeNull();
    expect(task.mergedBy).toBe("auto-merge after run #1");
    expect(gitIn(remote.dir, "show", "main:landed.txt")).toBe("landed");
    expect(worker.output()).not.toContain("auto-merge failed");
    expect(worker.output()).not.toContain("Cannot find module");
  });
});
