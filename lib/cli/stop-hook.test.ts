// `gatehouse hook codex|claude-code` as the agent runs it (the real command, the hook's JSON payload on
// stdin), against the real route handlers and real runs: it blocks on red with the failures, never loops
// forever (after a block with nothing changed it lets the agent stop; a run whose attempts are spent ends
// the loop, saying why), and a server that is down is one line and a non-zero exit.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grant, makePerson, type Person } from "@/lib/testing/access-fixture";
import { startApiServer, type ApiServer } from "@/lib/testing/api-server";
import { cliEnv, runCli } from "@/lib/testing/cli-process";
import { gitIn } from "@/lib/testing/git-repo";
import { getDb } from "@/lib/db/client";
import { check, createHarness, makeScenario, type Harness, type Scenario } from "@/lib/testing/runner-harness";

let h: Harness;
let api: ApiServer;
let s: Scenario;
let engineer: Person;
let clone: string;

beforeAll(async () => {
  h = await createHarness();
  api = await startApiServer();
  s = await makeScenario(
    h,
    {
      maxGateAttempts: 2,
      checkDefaults: [check("unit", "grep -q fixed app.txt || { echo 'app.txt: not fixed'; exit 1; }")],
    },
    { files: { "app.txt": "broken\n" } },
  );
  engineer = await makePerson("engineer");
  await grant(s.work.id, engineer, "engineer");
  clone = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-hook-clone-"));
  gitIn(clone, "clone", "--quiet", s.repo.dir, ".");
});
afterAll(async () => {
  await api?.close();
  fs.rmSync(clone, { recursive: true, force: true });
  await h?.cleanup();
});

async function stop(payload: Record<string, unknown>, url = api.url) {
  const res = await runCli(["hook", "codex", "--task", s.task.key], {
    env: cliEnv(url, engineer.token),
    cwd: clone,
    input: JSON.stringify({ hook_event_name: "Stop", cwd: clone, ...payload }),
  });
  return { ...res, answer: res.code === 0 ? JSON.parse(res.stdout) : null };
}

// The task's runs with their attempts counted, newest first.
async function runsOfTask() {
  const runs = await getDb().run.findMany({
    where: { taskId: s.task.id },
    orderBy: { number: "desc" },
    select: { number: true, _count: { select: { attempts: true } } },
  });
  return runs.map((r) => ({ number: r.number, attempts: r._count.attempts }));
}

describe("the stop hook", () => {
  it("blocks on red, lets the agent stop when nothing changed after a block, and gives up when the \
attempts are spent", async () => {
    fs.writeFileSync(path.join(clone, "app.txt"), "almost\n");
    const first = await stop({ stop_hook_active: false });
    expect(first.code, first.stderr).toBe(0);
    expect(first.answer.decision).toBe("block");
    expect(first.answer.reason).toMatch(/the gate is red on attempt 1 of 2/);
    expect(first.answer.reason).toContain("app.txt: not fixed");
    expect(first.answer.reason).toContain("1 attempt left");

    // A later turn ends with nothing changed (the agent only answered a question): sent back once more with
    // attempt 1's failures, and no attempt is spent on the same commit.
    const again = await stop({ stop_hook_active: false });
    expect(again.answer.decision).toBe("block");
    expect(again.answer.reason).toContain("app.txt: not fixed");
    expect(again.answer.reason).toMatch(
      /Nothing has changed since attempt 1 \(commit [0-9a-f]{12}\), so no attempt was spent/,
    );
    expect(again.answer.reason).toContain("1 attempt left");
    expect(again.stderr).toMatch(/nothing changed since attempt 1 of run #1 \(gate red\); sent back to the agent/);
    expect((await runsOfTask()).map((r) => r.attempts)).toEqual([1]);

    // Sent back, the agent changed nothing and tries to stop again: it may (no attempt is spent on it).
    const unchanged = await stop({ stop_hook_active: true });
    expect(unchanged.answer).toEqual({
      systemMessage: expect.stringMatching(
        /nothing changed since attempt 1 of run #1 \(gate red\); letting the agent stop/,
      ),
    });

    // It changes something, still wrong: attempt 2 of 2 is red, the run ends partial, the loop ends.
    fs.writeFileSync(path.join(clone, "app.txt"), "nearly\n");
    const spent = await stop({ stop_hook_active: true });
    expect(spent.answer.decision).toBeUndefined();
    expect(spent.answer.systemMessage).toMatch(/run #1 partial: .*not sending the agent back/);
    // What the hook told the person watching is this attempt's, not attempt 1's again.
    expect(spent.stderr).toContain("attempt 2 of 2");
    expect(spent.stderr).not.toContain("attempt 1 of 2");
    expect(spent.stderr.match(/failed +unit passes/g)).toHaveLength(1);

    // The run has ended at this commit: a stop with nothing changed starts no new run.
    const after = await stop({ stop_hook_active: false });
    expect(after.answer.systemMessage).toMatch(
      /nothing changed since attempt 2 of run #1 \(gate red\); letting the agent stop/,
    );
    expect((await runsOfTask()).map((r) => r.attempts)).toEqual([2]);

    // A run that ended inconclusive (something around the work failed, not the work) decided nothing: once
    // the machine is mended, a stop with nothing changed gates that commit again, in a new run.
    await getDb().run.updateMany({ where: { taskId: s.task.id }, data: { ending: "inconclusive" } });
    const regated = await stop({ stop_hook_active: false });
    expect(regated.answer.decision).toBe("block");
    expect(regated.answer.reason).toMatch(/the gate is red on attempt 1 of 2 .*\(run #2\)/);
    expect((await runsOfTask()).map((r) => r.attempts)).toEqual([1, 2]);
  });

  it("a server that is down: one line on stderr and a non-zero exit (the agent is not trapped)", async () => {
    const gone = await startApiServer();
    await gone.close();
    const res = await stop({}, gone.url);
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split("\n")).toEqual([`gatehouse: cannot reach ${gone.url}: ECONNREFUSED`]);
  });
});
