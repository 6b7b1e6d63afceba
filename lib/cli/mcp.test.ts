// `gatehouse mcp`, the real command as a stdio MCP server, driven by the SDK's own client against the real
// route handlers, real git and real runs: get_brief, run_gate (push the clone's work — uncommitted changes
// too — run the gate there, wait, verdict and failing tails), report_check (an agent check's verdict that
// goes with the next run_gate) and read_log. Held-out checks: name and verdict only, whatever the role.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { loadRunDetail } from "@/lib/services/run-detail";
import { listRunsOfTask } from "@/lib/db/run-history";
import { grant, makePerson } from "@/lib/testing/access-fixture";
import { startApiServer, type ApiServer } from "@/lib/testing/api-server";
import { CLI_BIN, cliEnv } from "@/lib/testing/cli-process";
import { gitIn } from "@/lib/testing/git-repo";
import { check, createHarness, makeScenario, type Harness, type Scenario } from "@/lib/testing/runner-harness";

let h: Harness;
let api: ApiServer;
let s: Scenario;
let clone: string;
let client: Client;
const HELD_OUT_MARKER = "held-out-secret-output-31b9";

beforeAll(async () => {
  h = await createHarness();
  api = await startApiServer();
  s = await makeScenario(
    h,
    {
      maxGateAttempts: 3,
      checkDefaults: [
        check("unit", "grep -q fixed app.txt || { echo 'not ok 1 - totals the invoice'; exit 1; }", { kind: "test" }),
        {
          id: "smoke",
          name: "The app starts",
          kind: "custom",
          command: "Start it and open /",
          required: true,
          executor: "agent",
        },
        // Passes when grep finds nothing: the brief must say so, or the command reads as the opposite.
        check("no-todo", 'grep -rn "TODO" app.txt', { name: "No TODO left", expectExit: 1, required: false }),
        // A built-in: Gatehouse runs it itself, and the brief says so instead of an empty command.
        {
          id: "has-app",
          name: "app.txt exists",
          kind: "custom",
          required: false,
          use: "file_exists",
          with: { path: "app.txt" },
        },
        check("acceptance", `echo ${HELD_OUT_MARKER}; grep -q fixed app.txt`, {
          hidden: true,
          name: "Acceptance (held out)",
        }),
      ],
    },
    { files: { "app.txt": "broken\n" } },
  );
  // A lead's token: the API would show a lead the held-out check's command and log; the agent never sees them.
  const lead = await makePerson("lead");
  await grant(s.work.id, lead, "lead");
  clone = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-mcp-clone-"));
  gitIn(clone, "clone", "--quiet", s.repo.dir, ".");
  client = new Client({ name: "gatehouse-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, "mcp", "--task", s.task.key],
      env: cliEnv(api.url, lead.token),
      cwd: clone,
      stderr: "pipe",
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await api?.close();
  fs.rmSync(clone, { recursive: true, force: true });
  await h?.cleanup();
});

type ToolText = { content: { type: string; text: string }[]; isError?: boolean };
async function call(name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as ToolText;
  return { text: result.content.map((c) => c.text).join("\n"), isError: !!result.isError };
}

describe("gatehouse mcp", () => {
  it("offers get_brief, run_gate, report_check and read_log", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["get_brief", "read_log", "report_check", "run_gate"]);
  });

  it("get_brief names the task and its checks; a held-out check by name only", async () => {
    const brief = await call("get_brief");
    expect(brief.isError).toBe(false);
    expect(brief.text).toContain(`Task ${s.task.key}: Make it pass`);
    expect(brief.text).toContain("totals the invoice");
    expect(brief.text).toMatch(/smoke "The app starts" — you run it and report it with report_check/);
    expect(brief.text).toContain(
      '- no-todo "No TODO left" (not required; passes on exit code 1): grep -rn "TODO" app.txt',
    );
    expect(brief.text).toContain(
      '- has-app "app.txt exists" (not required): built-in, run by Gatehouse: file_exists path="app.txt"',
    );
    expect(brief.text).toContain('held-out check "Acceptance (held out)"');
    expect(brief.text).not.toContain(HELD_OUT_MARKER);
    expect(brief.text).toContain("No run yet");
  });

  it("report_check takes only the checks the agent runs", async () => {
    const refused = await call("report_check", { id: "unit", status: "pass" });
    expect(refused).toEqual({ isError: true, text: '"unit" is not a check you report; yours: smoke' });
    expect(await call("report_check", { id: "smoke", status: "pass", message: "it served / with 200" })).toEqual({
      isError: false,
      text: "recorded smoke: pass; it goes with the next run_gate",
    });
  });

  it("run_gate gates the working tree as it is (red, with the failing tail), then green once fixed", async () => {
    fs.writeFileSync(path.join(clone, "app.txt"), "still broken\n");
    const red = await call("run_gate");
    expect(red.isError).toBe(false);
    expect(red.text).toMatch(/^Gatehouse: the gate is red on attempt 1 of 3/);
    expect(red.text).toMatch(/- unit "unit passes": failed, exit code 1 — not ok 1 - totals the invoice/);
    expect(red.text).toContain('held-out check "Acceptance (held out)": failed (held out');
    expect(red.text).not.toContain(HELD_OUT_MARKER);
    expect(red.text).toContain("gated your working tree with its uncommitted changes");
    // The clone is left as it was: nothing committed on its branch, the change still uncommitted.
    expect(gitIn(clone, "rev-parse", "HEAD")).toBe(s.repo.head);
    expect(gitIn(clone, "status", "--porcelain")).toBe("M app.txt");

    const [run] = await listRunsOfTask({ taskId: s.task.id, take: 1 });
    const first = (await loadRunDetail(SYSTEM_ACTOR, run.id)).attempts[0];
    expect(first.results.find((r) => r.checkId === "smoke")).toMatchObject({
      verdict: "passed",
      message: "it served / with 200",
    });

    const log = await call("read_log", { check_id: "unit" });
    expect(log.text).toContain("not ok 1 - totals the invoice");
    expect(await call("read_log", { check_id: "acceptance" })).toEqual({
      isError: true,
      text: '"acceptance" is a held-out check: its log is not shown',
    });

    // Asked again with nothing changed: attempt 1's verdict, and no attempt spent on it.
    const again = await call("run_gate");
    expect(again.text).toMatch(/^Gatehouse: the gate is red on attempt 1 of 3/);
    expect(again.text).toMatch(/Nothing has changed since attempt 1 \(commit [0-9a-f]{12}\), so no attempt was spent/);
    expect((await loadRunDetail(SYSTEM_ACTOR, run.id)).attempts).toHaveLength(1);
    // A report to send is something new: the same commit is gated again with it.
    await call("report_check", { id: "smoke", status: "fail", message: "it answered 500" });
    const reported = await call("run_gate");
    expect(reported.text).toMatch(/^Gatehouse: the gate is red on attempt 2 of 3/);
    const second = (await loadRunDetail(SYSTEM_ACTOR, run.id)).attempts[1];
    expect(second.results.find((r) => r.checkId === "smoke")).toMatchObject({ verdict: "failed" });

    fs.writeFileSync(path.join(clone, "app.txt"), "fixed\n");
    gitIn(clone, "commit", "--quiet", "-am", "fix the total");
    await call("report_check", { id: "smoke", status: "pass" });
    const green = await call("run_gate");
    expect(green.text).toMatch(/^Gatehouse: the gate is green on attempt 3 of 3/);
    expect(green.text).toMatch(/run #1 accepted/);
  });

  it("read_log asked for a check or an attempt the run does not have says which there are", async () => {
    // The ids to retry with, held-out checks left out (the agent knows those by name only).
    expect(await call("read_log", { check_id: "nope" })).toEqual({
      isError: true,
      text:
        'gatehouse: attempt 3 of run #1 has no check "nope" ' +
        "(its checks: unit, smoke, no-todo, has-app, _protected, _tests-kept)",
    });
    expect(await call("read_log", { check_id: "Unit Tests", attempt: 1 })).toEqual({
      isError: true,
      text:
        'gatehouse: attempt 1 of run #1 has no check "Unit Tests" ' +
        "(its checks: unit, smoke, no-todo, has-app, _protected)",
    });
    expect(await call("read_log", { check_id: "nope", attempt: 7 })).toEqual({
      isError: true,
      text: "gatehouse: run #1 has no attempt 7 (it has 1, 2, 3)",
    });
    // A check the attempt has but that wrote no log keeps the server's reason.
    expect(await call("read_log", { check_id: "smoke", attempt: 1 })).toEqual({
      isError: true,
      text: expect.stringMatching(/"smoke" has no log in attempt 1 \(reported by the agent, passed\)/),
    });
  });
});
