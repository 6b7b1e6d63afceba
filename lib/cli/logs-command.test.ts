// `gatehouse logs` asked for a check the attempt does not have: the real command against the real route
// handlers and a real run. The server only knows "not found"; the command names the attempt and its checks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grant, makePerson } from "@/lib/testing/access-fixture";
import { startApiServer, type ApiServer } from "@/lib/testing/api-server";
import { cliEnv, runCli } from "@/lib/testing/cli-process";
import { check, createHarness, dispatchAndSettle, makeScenario, type Harness } from "@/lib/testing/runner-harness";

let h: Harness;
let api: ApiServer;
let env: Record<string, string>;
let runId: string;

beforeAll(async () => {
  h = await createHarness();
  api = await startApiServer();
  const s = await makeScenario(h, {
    maxGateAttempts: 1,
    checkDefaults: [
      check("unit", "echo 'not ok 1 - totals'; exit 1"),
      check("acceptance", "true", { hidden: true, name: "Acceptance (held out)" }),
    ],
  });
  const engineer = await makePerson("engineer");
  await grant(s.work.id, engineer, "engineer");
  env = cliEnv(api.url, engineer.token);
  runId = (await dispatchAndSettle(h, s.task.id)).run.id;
});
afterAll(async () => {
  await api?.close();
  await h?.cleanup();
});

describe("gatehouse logs --check with an id the attempt does not have", () => {
  it("names the check and the attempt and lists the attempt's checks, in one line", async () => {
    const expected = 'gatehouse: attempt 1 of run #1 has no check "bogus" (its checks: unit, acceptance)';
    for (const args of [
      ["logs", runId, "--check", "bogus"],
      ["logs", runId, "--check", "bogus", "--attempt", "1"],
      ["logs", runId, "--check", "bogus", "--follow"],
    ]) {
      const res = await runCli(args, { env });
      expect([res.code, res.stderr.trim().split("\n")], args.join(" ")).toEqual([1, [expected]]);
    }
  });

  it("still prints a check it has, and says which attempts there are for one it has not", async () => {
    const log = await runCli(["logs", runId, "--check", "unit"], { env });
    expect([log.code, log.stdout]).toEqual([0, expect.stringContaining("not ok 1 - totals")]);
    const none = await runCli(["logs", runId, "--check", "unit", "--attempt", "7"], { env });
    expect(none.stderr.trim()).toBe("gatehouse: run #1 has no attempt 7 (it has 1)");
  });
});
