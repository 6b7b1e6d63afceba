import { execFileSync } from "node:child_process";
import { expect, test } from "./support/test";
import {
  BOOTSTRAP_TOKEN,
  describeProcessesWithEnv,
  makeGitRepo,
  processesWithEnv,
  startOwnServer,
} from "./support/own-server";

// Kill the server with SIGKILL while a check runs, start it again: the check's process does not outlive
// the server (its spawner sees the server gone and ends every command), and the run is ended
// inconclusive with reason "interrupted".
test("a run interrupted by a killed server ends inconclusive and leaves no process behind", async () => {
  test.setTimeout(240_000);
  // Beside the port this worker's own server uses, so parallel runs with different E2E_PORTs do not meet.
  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) + 81 : 3291;
  const auth = { authorization: `Bearer ${BOOTSTRAP_TOKEN}`, "content-type": "application/json" };
  const first = await startOwnServer({ port });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${first.url}${path}`, {
      method,
      headers: auth,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  };
  const work = await api("POST", "/api/works", {
    name: "Restart",
    repoUrl: makeGitRepo(),
    baseBranch: "main",
    checkDefaults: [
      {
        id: "long",
        name: "Runs for ten minutes",
        kind: "custom",
        command: "sleep 600",
        required: true,
        timeoutSec: 3600,
      },
    ],
  });
  expect(work.status).toBe(201);
  const task = await api("POST", `/api/works/${work.json.id}/tasks`, { title: "survive a crash" });
  const dispatched = await api("POST", `/api/tasks/${task.json.id}/dispatch`);
  expect(dispatched.status).toBe(202);
  const runId = dispatched.json.runId as string;

  await expect
    .poll(async () => (await api("GET", `/api/runs/${runId}`)).json.attempts?.[0]?.checks?.[0]?.verdict, {
      timeout: 60_000,
    })
    .toBe("running");
  await expect.poll(() => processesWithEnv(`GATEHOUSE_RUN_ID=${runId}`).length).toBeGreaterThan(0);

  // Node signals its child only while it has not reaped it, so this pid is surely the server's.
  first.process.kill("SIGKILL");
  await new Promise((resolve) => first.process.once("exit", resolve));
  // The dead server could not end its check itself; its spawner did, seeing it gone (a failure names what
  // was left behind).
  try {
    await expect.poll(() => describeProcessesWithEnv(`GATEHOUSE_RUN_ID=${runId}`), { timeout: 60_000 }).toEqual([]);
  } catch (error) {
    // What holds the check alive is usually not the check itself: the whole tree says who its parents are.
    throw new Error(`${(error as Error).message}\n\nprocesses:\n${processTree()}`);
  }

  const second = await startOwnServer({ port, dataDir: first.dataDir });
  try {
    const res = await fetch(`${second.url}/api/runs/${runId}`, { headers: auth });
    const run = await res.json();
    expect(run.status).toBe("finished");
    expect(run.ending).toBe("inconclusive");
    expect(run.endingReason).toBe("interrupted");
    expect(run.attempts[0].checks[0].verdict).toBe("error");
    await expect.poll(() => processesWithEnv(`GATEHOUSE_RUN_ID=${runId}`)).toEqual([]);
  } finally {
    second.stop();
  }
});

function processTree(): string {
  return execFileSync("ps", ["-eo", "pid,ppid,pgid,user,stat,args", "--forest"], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.slice(0, 200))
    .join("\n");
}
