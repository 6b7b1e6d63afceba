// Who runs a check (SPEC Part 2), end to end with real git worktrees and real processes: agent checks judged
// from the agent's report, a bad report never crashing the attempt, held-out checks the agent never sees,
// and nothing the agent left running changing the outputs while the checks read them.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runRoute from "@/app/api/runs/[id]/route";
import * as logRoute from "@/app/api/runs/[id]/attempts/[n]/checks/[checkId]/log/route";
import * as taskRoute from "@/app/api/tasks/[id]/route";
import * as workRoute from "@/app/api/works/[id]/route";
import * as worksRoute from "@/app/api/works/route";
import { presentRun } from "../api/present-run";
import { grant, makePerson } from "../testing/access-fixture";
import { callRoute } from "../testing/call-route";
import { processesCarrying } from "../testing/processes";
import {
  check,
  createHarness,
  dispatchAndSettle,
  makeScenario,
  verdictsOf,
  type Harness,
} from "../testing/runner-harness";
import { readAgentReport } from "./agent-report-file";
import { REPORT_MAX_BYTES } from "../gates/agent-report";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.cleanup());

let counter = 0;
function scratchDir(name: string): string {
  const dir = path.join(h.scratch, `${++counter}-${name}`);
  fs.mkdirSync(dir);
  return dir;
}

// An agent command that writes the given report text (a shell heredoc, taken literally).
function reporting(text: string, before = ""): string {
  return `${before}\ncat > "$GATEHOUSE_REPORT_FILE" <<'REPORT'\n${text}\nREPORT\n`;
}

const rowsOf = (detail: Awaited<ReturnType<typeof dispatchAndSettle>>, n: number) =>
  presentRun(detail)
    .attempts.find((a) => a.n === n)!
    .checks.map((c) => [c.checkId, c.executor, c.verdict, c.message]);

describe("agent checks", () => {
  it("are judged from the report: pass, fail with its message, skipped when left out; dropped \
entries are noted", async () => {
    const s = await makeScenario(h, {
      maxGateAttempts: 1,
      agentCommand: reporting(
        JSON.stringify({
          checks: [
            { id: "smoke", status: "pass", message: "GET /health said OK" },
            { id: "ui", status: "fail", message: "the save button does nothing" },
            { id: "ghost", status: "pass" },
            { id: "build", status: "fail" },
          ],
        }),
      ),
      checkDefaults: [
        check("build", "echo built"),
        check("smoke", "Start the server and open /health: it must say OK.", { executor: "agent" }),
        check("ui", "Click save in the editor; the file must be written.", { executor: "agent", required: false }),
        check("unreported", "Run the load test by hand.", { executor: "agent" }),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(rowsOf(detail, 1)).toEqual([
      ["build", "platform", "passed", "built"],
      ["smoke", "agent", "passed", "GET /health said OK"],
      ["ui", "agent", "failed", "the save button does nothing"],
      ["unreported", "agent", "skipped", "not reported"],
    ]);
    // Not strict: the required agent check nobody reported does not turn the gate red; the optional red one reports.
    expect(detail.attempts[0].gate).toBe("green");
    expect(detail.attempts[0].reportNotes).toEqual([
      '"ghost" is not a check of this run: dropped',
      '"build" is run by Gatehouse, not reported by the agent: dropped',
    ]);
    expect(presentRun(detail).attempts[0].reportNotes).toEqual(detail.attempts[0].reportNotes);
    // The brief lists the agent checks with how to report them, apart from the ones Gatehouse runs.
    const brief = detail.attempts[0].brief!;
    expect(brief).toContain("## Checks you run and report");
    expect(brief).toContain("- smoke — smoke passes (required)");
    expect(brief).toContain("$GATEHOUSE_REPORT_FILE");
    expect(brief.indexOf("- build")).toBeLessThan(brief.indexOf("## Checks you run and report"));
  });

  it("strictEvaluation: a required agent check the agent did not report makes the gate red", async () => {
    const s = await makeScenario(h, {
      maxGateAttempts: 1,
      strictEvaluation: true,
      agentCommand: "echo no report written",
      checkDefaults: [check("smoke", "Open /health.", { executor: "agent" })],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(rowsOf(detail, 1)).toEqual([["smoke", "agent", "skipped", "not reported: the agent wrote no report"]]);
    expect(detail.attempts[0].gate).toBe("red");
    expect(detail.run.ending).toBe("partial");
  });

  it("a failing agent check goes back to the agent with its message; a fresh report file each attempt", async () => {
    const out = scratchDir("agent-loop");
    const s = await makeScenario(h, {
      maxGateAttempts: 2,
      agentCommand: [
        `cp "$GATEHOUSE_BRIEF_FILE" ${out}/brief-$GATEHOUSE_ATTEMPT.md`,
        `test ! -e "$GATEHOUSE_REPORT_FILE" && echo fresh > ${out}/fresh-$GATEHOUSE_ATTEMPT`,
        'if [ "$GATEHOUSE_ATTEMPT" = 1 ]; then s=fail; else s=pass; fi',
        'printf \'{"checks": [{"id": "smoke", "status": "%s", "message": "health said %s"}]}\' $s ' +
          '$s > "$GATEHOUSE_REPORT_FILE"',
        "date +%s%N > touched.txt",
      ].join("\n"),
      checkDefaults: [check("smoke", "Open /health.", { executor: "agent" })],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts.map((a) => [a.n, a.gate])).toEqual([
      [1, "red"],
      [2, "green"],
    ]);
    expect(detail.run.ending).toBe("accepted");
    expect(fs.existsSync(`${out}/fresh-1`) && fs.existsSync(`${out}/fresh-2`)).toBe(true);
    const brief2 = fs.readFileSync(`${out}/brief-2.md`, "utf8");
    expect(brief2).toContain("### smoke — smoke passes: failed");
    expect(brief2).toContain("From your report: health said fail");
  });
});

describe("a report that cannot be read: every agent check is error, the attempt goes on", () => {
  const agentChecks = [
    check("lint", "echo linted"),
    check("smoke", "Open /health.", { executor: "agent" }),
    check("ui", "Click save.", { executor: "agent", required: false }),
  ];
  const outside = () => {
    const dir = scratchDir("outside");
    fs.writeFileSync(path.join(dir, "report.json"), '{"checks": [{"id": "smoke", "status": "pass"}]}');
    return path.join(dir, "report.json");
  };
  it.each<[string, () => string, string]>([
    ["not JSON", () => reporting("smoke: pass"), "report unreadable: not JSON"],
    [
      "50 MB",
      () => `head -c ${50 * 1024 * 1024} /dev/zero | tr '\\0' ' ' > "$GATEHOUSE_REPORT_FILE"`,
      `${50 * 1024 * 1024} bytes, at most ${REPORT_MAX_BYTES} are read`,
    ],
    [
      "10,000 entries",
      () =>
        `node -e 'process.stdout.write(JSON.stringify({checks: Array.from({length: 10000}, (_, i) ` +
        `=> ({id: "c" + i, status: "pass"}))}))' > "$GATEHOUSE_REPORT_FILE"`,
      "report unreadable: 10000 entries, at most 100",
    ],
    [
      "an id twice",
      () => reporting('{"checks": [{"id": "smoke", "status": "pass"}, {"id": "smoke", "status": "fail"}]}'),
      'report unreadable: "smoke" is reported twice',
    ],
    [
      "a wrong shape",
      () => reporting('{"checks": [{"id": "smoke", "status": "ok"}]}'),
      "report unreadable: checks.0.status",
    ],
    [
      "a symlink out of the run's directory",
      () => `ln -s ${outside()} "$GATEHOUSE_REPORT_FILE"`,
      "is a symbolic link: Gatehouse does not follow links",
    ],
    ["a directory", () => `mkdir "$GATEHOUSE_REPORT_FILE"`, "is not a regular file"],
    ["a FIFO (would block a reader)", () => `mkfifo "$GATEHOUSE_REPORT_FILE"`, "is not a regular file"],
    [
      "a hard link to another file",
      () => `ln ${outside()} "$GATEHOUSE_REPORT_FILE"`,
      "is a hard link (another name of a file that may be elsewhere)",
    ],
  ])("%s", async (_label, agentCommand, message) => {
    const s = await makeScenario(h, { maxGateAttempts: 1, agentCommand: agentCommand(), checkDefaults: agentChecks });
    const detail = await dispatchAndSettle(h, s.task.id);
    const rows = rowsOf(detail, 1);
    expect(rows[0]).toEqual(["lint", "platform", "passed", "linted"]);
    expect(rows.slice(1).map((r) => r[2])).toEqual(["error", "error"]);
    for (const r of rows.slice(1)) expect(r[3]).toContain(message);
    // The agent's to fix: the gate is red and the run is not given up as inconclusive.
    expect(detail.attempts[0].gate).toBe("red");
    expect(detail.run.ending).toBe("partial");
  });

  it("readAgentReport: no file is no report", () => {
    const dir = scratchDir("none");
    expect(readAgentReport(dir, path.join(dir, "attempt", "report.json"))).toBeNull();
  });
});

describe("held-out checks", () => {
  const HIDDEN = {
    id: "held-out-zebra",
    name: "Quokka acceptance suite",
    command: "grep -q fixed answer.txt # narwhal-7319",
  };

  it("never reach the agent's brief, failures or environment over two attempts; their verdict counts", async () => {
    const out = scratchDir("hidden");
    const agent = path.join(out, "agent.sh");
    fs.writeFileSync(
      agent,
      [
        "set -u",
        `d=${out}/attempt-$GATEHOUSE_ATTEMPT`,
        'mkdir -p "$d"',
        'env > "$d/env"',
        'cat > "$d/stdin"',
        'cp "$GATEHOUSE_BRIEF_FILE" "$d/brief"',
        // Every path the agent can list around it: the checkout, its HOME, the brief's directory.
        'find . -path ./.git -prune -o -print > "$d/checkout-files" 2>&1',
        'find "$HOME" > "$d/home-files" 2>&1',
        'ls -la "$(dirname "$GATEHOUSE_BRIEF_FILE")" > "$d/brief-dir" 2>&1',
        'cat /proc/self/cmdline /proc/self/environ > "$d/proc" 2>&1',
        // Attempt 2 fixes what the visible check reports (which also satisfies the hidden one).
        'if [ "$GATEHOUSE_ATTEMPT" = 2 ]; then echo fixed > answer.txt; fi',
      ].join("\n"),
    );
    const s = await makeScenario(
      h,
      {
        maxGateAttempts: 2,
        agentCommand: `bash ${agent}`,
        checkDefaults: [
          check("answer", "test -f answer.txt", { name: "The answer exists" }),
          check(HIDDEN.id, HIDDEN.command, { name: HIDDEN.name, hidden: true, kind: "test" }),
        ],
      },
      { task: { title: "Write the answer", description: "Create answer.txt." } },
    );
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(verdictsOf(detail, 1)).toEqual({ answer: "failed", [HIDDEN.id]: "failed" });
    expect(verdictsOf(detail, 2)).toEqual({ answer: "passed", [HIDDEN.id]: "passed" });
    expect(detail.run.ending).toBe("accepted");

    for (const n of [1, 2]) {
      const dir = path.join(out, `attempt-${n}`);
      const seen = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), "latin1"));
      expect(seen.join("\n")).toContain("GATEHOUSE_REPORT_FILE");
      for (const text of seen) {
        expect(text).not.toContain(HIDDEN.id);
        expect(text).not.toContain(HIDDEN.name);
        expect(text).not.toContain(HIDDEN.command);
        expect(text).not.toContain("narwhal");
      }
      expect(detail.attempts[n - 1].brief).not.toContain(HIDDEN.id);
    }
    // Attempt 2's brief did hand back the visible failure.
    expect(fs.readFileSync(path.join(out, "attempt-2", "brief"), "utf8")).toContain("### answer — The answer exists");

    // Viewers (and engineers) see its name and verdict only; leads see the command and the log.
    const [viewer, engineer, lead] = await Promise.all([makePerson("viewer"), makePerson("eng"), makePerson("lead")]);
    await grant(s.work.id, viewer, "viewer");
    await grant(s.work.id, engineer, "engineer");
    await grant(s.work.id, lead, "lead");
    const logParams = { id: detail.run.id, n: "1", checkId: HIDDEN.id };
    for (const person of [viewer, engineer]) {
      const res = await callRoute(runRoute.GET, { token: person.token, params: { id: detail.run.id } });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain("narwhal");
      expect(res.json.checks.find((c) => c.id === HIDDEN.id)).toEqual({
        id: HIDDEN.id,
        name: HIDDEN.name,
        kind: "test",
        required: true,
        source: "inherited",
        hidden: true,
      });
      const row = res.json.attempts[0].checks.find((c) => c.checkId === HIDDEN.id)!;
      expect([row.name, row.verdict, row.hidden, row.logTail, row.message, row.exitCode]).toEqual([
        HIDDEN.name,
        "failed",
        true,
        null,
        null,
        null,
      ]);
      const log = await callRoute(logRoute.GET, { token: person.token, params: logParams });
      expect(log.status).toBe(403);
      expect(log.text).toContain("held-out check");
      // The Work's and the task's definitions too.
      for (const read of [
        callRoute(workRoute.GET, { token: person.token, params: { id: s.work.id } }),
        callRoute(worksRoute.GET, { token: person.token }),
        callRoute(taskRoute.GET, { token: person.token, params: { id: s.task.id } }),
      ]) {
        const res = await read;
        expect(res.status).toBe(200);
        expect(res.text).toContain(HIDDEN.name);
        expect(res.text).not.toContain("narwhal");
      }
    }
    expect((await callRoute(taskRoute.GET, { token: lead.token, params: { id: s.task.id } })).text).toContain(
      "narwhal-7319",
    );
    const asLead = await callRoute(runRoute.GET, { token: lead.token, params: { id: detail.run.id } });
    expect(asLead.text).toContain("narwhal-7319");
    expect((await callRoute(logRoute.GET, { token: lead.token, params: logParams })).status).toBe(200);
  });
});

describe("what the agent leaves running is stopped before the checks", () => {
  it.each([
    ["a background job", (w: string) => `(${w}) &`],
    ["setsid", (w: string) => `setsid bash -c '${w}' > /dev/null 2>&1 < /dev/null &`],
    ["a double fork that closes its descriptors", (w: string) => `( (${w}) > /dev/null 2>&1 < /dev/null & ) &`],
  ])("%s: the check sees the output as the agent left it, and no writer is alive after", async (_label, detach) => {
    const token = `writer-token-${++counter}-${process.pid}`;
    const out = scratchDir("writer");
    // The writer says it runs, waits until the checks have started, then overwrites out.txt again and again.
    const writer =
      `touch ${out}/started; while [ ! -e ${out}/checking ]; do sleep 0.01; done; while :; do echo ` +
      `changed > out.txt; sleep 0.05; done`;
    const s = await makeScenario(h, {
      maxGateAttempts: 1,
      agentCommand: [
        `export WRITER_TOKEN=${token}`,
        "echo agent > out.txt",
        detach(writer),
        // The agent exits once its writer runs (a condition, not a guess).
        `while [ ! -e ${out}/started ]; do sleep 0.01; done`,
        "echo agent done",
      ].join("\n"),
      checkDefaults: [
        check("output", `touch ${out}/checking; test "$(cat out.txt)" = agent && echo "out.txt says agent"`),
        check("still", 'test "$(cat out.txt)" = agent'),
      ],
    });
    const detail = await dispatchAndSettle(h, s.task.id);
    expect(detail.attempts[0].agentMessage).toBe("agent done");
    expect(verdictsOf(detail, 1)).toEqual({ output: "passed", still: "passed" });
    // Had any writer lived on, it would be found here (it loops forever) and out.txt would say "changed".
    expect(processesCarrying(token)).toEqual([]);
    expect(fs.readFileSync(path.join(s.worktree, "out.txt"), "utf8")).toBe("agent\n");
  });
});
