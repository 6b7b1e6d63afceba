// Recovery after a crash: a separate server process dispatches a run and is SIGKILLed while a check
// runs, leaving the run "running" and the check's processes orphaned. recoverRuns ends the run
// inconclusive ("interrupted") and kills every process carrying GATEHOUSE_RUN_ID=<run>.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../auth/actor";
import { findRun, insertRunWithFirstAttempt } from "../db/runs";
import { resolveChecks } from "../gates/merge-checks";
import { loadRunDetail } from "../services/run-detail";
import { isProcessAlive, killQuietly, waitFor, waitUntilGone } from "../testing/processes";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "../testing/runner-harness";
import { findProcessesByEnv, identify, type ProcessIdentity, signalGroup } from "./process/process-group";
import { INTERRUPTED, recoverRuns } from "./recovery";

const ROOT = path.resolve(__dirname, "..", "..");

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

// A stand-in for the server: configures the runtime on the same data dir and database, dispatches the
// task, prints the run id and stays up until it is killed.
const SERVER_SCRIPT = `
import { configureRuntime, defaultRunnerDeps } from ${JSON.stringify(path.join(ROOT, "lib/runner/runtime.ts"))};
import { dispatchTask } from ${JSON.stringify(path.join(ROOT, "lib/services/runs.ts"))};
import { SYSTEM_ACTOR } from ${JSON.stringify(path.join(ROOT, "lib/auth/actor.ts"))};
(async () => {
  configureRuntime({ ...defaultRunnerDeps(), killGraceMs: 300 });
  const run = await dispatchTask(SYSTEM_ACTOR, process.argv[2]);
  process.stdout.write("RUN " + run.id + "\\n");
  setInterval(() => undefined, 1000);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

function startServer(taskId: string): {
  child: ChildProcess;
  group: ProcessIdentity;
  runId: Promise<string>;
  output: () => string;
} {
  const script = path.join(h.scratch, `server-${Date.now()}.ts`);
  fs.writeFileSync(script, SERVER_SCRIPT);
  const env: NodeJS.ProcessEnv = { ...process.env, GATEHOUSE_DATA_DIR: h.dataDir };
  if (!process.env.DATABASE_URL) delete env.DATABASE_URL;
  // Its own process group, so the whole "server" (and nothing else) can be SIGKILLed at once.
  const child = spawn(process.execPath, ["--import", "tsx", script, taskId], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Identified at once (Node has not reaped it, so the pid is surely this child's): the group is
  // signalled only while this very process still leads it.
  const group = identify(child.pid!);
  if (!group) throw new Error("the server process ended at once");
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const runId = waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`the server process exited early:\n${out}`);
      return /RUN (\S+)/.exec(out)?.[1] ?? null;
    },
    { timeoutMs: 45_000, what: "the server process to dispatch" },
  );
  return { child, group, runId, output: () => out };
}

describe("recoverRuns", () => {
  it("after a crash, a run left running ends inconclusive (interrupted) and the processes it left \
are killed", async () => {
    const pidFile = path.join(h.scratch, "crash.pids");
    const s = await makeScenario(h, {
      checkDefaults: [
        check("long", `sleep 300 & echo "$$ $!" > ${pidFile}; echo started; wait`, { timeoutSec: 600 }),
        check("after", "true"),
      ],
    });
    const server = startServer(s.task.id);
    let pids: number[] = [];
    let runId = "";
    try {
      runId = await server.runId;
      pids = await waitFor(
        // Both pids and the newline: the file exists (empty) before echo has written to it.
        () => {
          const m = fs.existsSync(pidFile) ? /^(\d+) (\d+)\n$/.exec(fs.readFileSync(pidFile, "utf8")) : null;
          return m ? [Number(m[1]), Number(m[2])] : null;
        },
        {
          timeoutMs: 45_000,
          what: "the check to start",
        },
      );
      expect(pids).toHaveLength(2);

      // The crash: the server dies at once, without any clean-up.
      const exited = new Promise((resolve) => server.child.once("exit", resolve));
      expect(signalGroup(server.group, "SIGKILL")).toBe(true);
      await exited;

      // Left behind: the run row says running, and the check's processes live on with the run id in their environment.
      expect((await findRun({ id: runId }))!.status).toBe("running");
      expect(pids.every(isProcessAlive)).toBe(true);
      const marked = findProcessesByEnv([`GATEHOUSE_RUN_ID=${runId}`]);
      for (const pid of pids) expect(marked).toContain(pid);

      const recovery = await recoverRuns(h.executor);
      expect(recovery.interrupted).toEqual([runId]);
      for (const pid of pids) expect(recovery.killedPids).toContain(pid);
      expect(await waitUntilGone(pids)).toEqual([]);
      expect(findProcessesByEnv([`GATEHOUSE_RUN_ID=${runId}`]).filter(isProcessAlive)).toEqual([]);

      const detail = await loadRunDetail(SYSTEM_ACTOR, runId);
      expect(detail.run.status).toBe("finished");
      expect(detail.run.ending).toBe("inconclusive");
      expect(detail.run.endingReason).toBe(INTERRUPTED);
      expect(detail.run.finishedAt).not.toBeNull();
      expect(detail.run.gate).toBe("stopped");
      expect(detail.attempts).toHaveLength(1);
      expect(detail.attempts[0].status).toBe("finished");
      expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict, r.message])).toEqual([
        ["long", "error", "interrupted: the server stopped while this ran"],
        ["after", "error", "interrupted: the server stopped while this ran"],
      ]);

      // Running it again finds nothing to do.
      expect(await recoverRuns(h.executor)).toEqual({ interrupted: [], killedPids: [], requeued: [] });
    } finally {
      if (runId) killQuietly(pids, [`GATEHOUSE_RUN_ID=${runId}`]);
      if (server.child.exitCode === null && server.child.signalCode === null) signalGroup(server.group, "SIGKILL");
    }
  }, 120_000);

  it("queued runs are handed to the executor again; runs waiting for a fix are left alone", async () => {
    const waitingScenario = await makeScenario(h, { checkDefaults: [check("red", "false")] });
    const waiting = await dispatchAndSettle(h, waitingScenario.task.id);
    expect(waiting.run.status).toBe("waiting");

    // A run the last server queued but never started (written directly, as dispatch left it).
    const s = await makeScenario(h, { checkDefaults: [check("ok", "echo fine")] });
    const resolved = resolveChecks(s.work.checkDefaults, null);
    const queued = await insertRunWithFirstAttempt({
      data: {
        taskId: s.task.id,
        workId: s.work.id,
        policy: "required",
        maxAttempts: 1,
        checks: resolved.checks,
        suppressed: [],
        warnings: [],
        agentCommand: null,
        agentEnvPassthrough: [],
        budgetSec: null,
        budgetUsd: null,
        failFast: false,
        branch: s.task.branch,
        dispatchedById: null,
      },
    });
    expect(queued.status).toBe("queued");

    const recovery = await recoverRuns(h.executor);
    expect(recovery.interrupted).toEqual([]);
    expect(recovery.requeued).toEqual([queued.id]);
    await h.executor.whenSettled(queued.id);
    const detail = await loadRunDetail(SYSTEM_ACTOR, queued.id);
    expect(detail.run.ending).toBe("accepted");
    expect(detail.attempts[0].results.map((r) => [r.checkId, r.verdict])).toEqual([["ok", "passed"]]);
    expect((await findRun({ id: waiting.run.id }))!.status).toBe("waiting");
  });
});
