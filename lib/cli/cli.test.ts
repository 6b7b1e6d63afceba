// The real `gatehouse` command as a child process against the real route handlers behind an HTTP server
// (lib/testing/api-server.ts), real SQLite, real git and real runs: listing, dispatch --wait with its
// progress and exit status by ending, logs, gates files, and one-line failures for a bad token, an unknown
// task and a server that is down. Held-out checks stay name-and-verdict-only for an engineer.
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { cancelRun } from "@/lib/services/runs";
import { grant, makePerson, type Person } from "@/lib/testing/access-fixture";
import { startApiServer, type ApiServer } from "@/lib/testing/api-server";
import { CLI_BIN, type CliResult, cliEnv, runCli } from "@/lib/testing/cli-process";
import { gitIn } from "@/lib/testing/git-repo";
import { scratchDir } from "@/lib/testing/scratch";
import { check, createHarness, makeScenario, type Harness, type Scenario } from "@/lib/testing/runner-harness";

let h: Harness;
let api: ApiServer;
let engineer: Person;
let lead: Person;
// Fixed by its agent on attempt 2; a held-out check prints a marker that must never reach an engineer.
let fixes: Scenario;
let env: Record<string, string>;
const HELD_OUT_MARKER = "held-out-output-7c1f";

beforeAll(async () => {
  h = await createHarness();
  api = await startApiServer();
  engineer = await makePerson("engineer");
  lead = await makePerson("lead");
  fixes = await makeScenario(
    h,
    {
      name: "Billing",
      maxGateAttempts: 3,
      // Attempt 1: the agent only looks around; attempt 2 (it has a brief with the failure): it fixes app.txt.
      agentCommand: "if [ -f .looked ]; then echo fixed > app.txt; else touch .looked; fi",
      checkDefaults: [
        check(
          "unit",
          "echo running the unit tests; grep -q fixed app.txt || { echo 'not ok 1 - app.txt is fixed'; exit 1; }",
        ),
        check("acceptance", `echo ${HELD_OUT_MARKER}; true`, { hidden: true, name: "Acceptance (held out)" }),
      ],
    },
    { files: { "app.txt": "broken\n" } },
  );
  for (const p of [engineer]) await grant(fixes.work.id, p, "engineer");
  await grant(fixes.work.id, lead, "lead");
  env = cliEnv(api.url, engineer.token);
});
afterAll(async () => {
  await api?.close();
  await h?.cleanup();
});

const cli = (args: string[], extra: Partial<Parameters<typeof runCli>[1]> = {}) => runCli(args, { env, ...extra });

// The CLI at a real terminal (a pseudo-terminal made by `script`): `typed` is sent once the output matches
// `prompt`, as a person types only once asked. The output is what the terminal showed.
function runAtTerminal(
  args: string[],
  opts: { env: Record<string, string>; prompt: RegExp; typed: string },
): Promise<{ code: number | null; output: string }> {
  const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;
  const command = [process.execPath, CLI_BIN, ...args].map(quote).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], { env: opts.env as NodeJS.ProcessEnv });
    let output = "";
    let isTyped = false;
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (!isTyped && opts.prompt.test(output)) {
        isTyped = true;
        child.stdin.write(opts.typed);
      }
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

// A bash command line (the CLI in a shell pipeline), with the engineer's environment.
function runShell(script: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile("bash", ["-c", script, ...args], { env: env as NodeJS.ProcessEnv }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("gatehouse works / tasks", () => {
  it("lists the Works the token's user has a role on, and a Work's tasks by name", async () => {
    const works = await cli(["works", "--json"]);
    expect(works.code, works.stderr).toBe(0);
    expect(JSON.parse(works.stdout).map((w: { name: string }) => w.name)).toEqual(["Billing"]);
    const tasks = await cli(["tasks", "Billing"]);
    expect(tasks.code, tasks.stderr).toBe(0);
    expect(tasks.stdout).toContain(fixes.task.key);
    expect(tasks.stdout).toContain("Make it pass");
  });
});

describe("gatehouse dispatch --wait", () => {
  it("shows each attempt and each check as it finishes, and exits 0 when the run is accepted", async () => {
    const res = await cli(["dispatch", fixes.task.key, "--wait"]);
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.split("\n");
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    expect(at(/^dispatched .*run #1/)).toBe(0);
    expect(at(/^attempt 1 of 3$/)).toBeGreaterThan(0);
    expect(at(/failed\s+unit passes \(exit 1\) · not ok 1 - app.txt is fixed/)).toBeGreaterThan(at(/^attempt 1 of 3$/));
    expect(at(/^attempt 2 of 3$/)).toBeGreaterThan(at(/failed\s+unit passes/));
    expect(at(/passed\s+unit passes/)).toBeGreaterThan(at(/^attempt 2 of 3$/));
    expect(lines.at(-2)).toMatch(/^run #1 accepted/);
    // The held-out check: its name and verdict, never what it printed.
    expect(res.stdout).toMatch(/passed\s+Acceptance \(held out\)/);
    expect(res.stdout).not.toContain(HELD_OUT_MARKER);
  });

  it("exits 1 on a partial run, 2 on an inconclusive one, 3 on a cancelled one", async () => {
    const partial = await makeScenario(h, { maxGateAttempts: 1, checkDefaults: [check("unit", "exit 1")] });
    const inconclusive = await makeScenario(h, { checkDefaults: [check("unit", "true", { cwd: "no-such-dir" })] });
    const slow = await makeScenario(h, { checkDefaults: [check("slow", "sleep 30")] });
    for (const s of [partial, inconclusive, slow]) await grant(s.work.id, engineer, "engineer");

    const p = await cli(["dispatch", partial.task.id, "--wait"]);
    expect([p.code, p.stdout.trim().split("\n").at(-1)]).toEqual([1, expect.stringMatching(/^run #1 partial/)]);
    const i = await cli(["dispatch", inconclusive.task.id, "--wait"]);
    expect([i.code, i.stdout.trim().split("\n").at(-1)]).toEqual([2, expect.stringMatching(/^run #1 inconclusive/)]);

    let cancelled = false;
    const c = await cli(["dispatch", slow.task.id, "--wait"], {
      onStdout: (text) => {
        const id = /run #1 (\S+)/.exec(text)?.[1];
        if (id && !cancelled && /attempt 1 of/.test(text)) {
          cancelled = true;
          void cancelRun(SYSTEM_ACTOR, id);
        }
      },
    });
    expect([c.code, c.stdout.trim().split("\n").at(-1)]).toEqual([3, expect.stringMatching(/^run #1 cancelled/)]);
  });

  it("--json prints the run as it ended, held-out checks without their output", async () => {
    const res = await cli(["dispatch", fixes.task.key, "--wait", "--json"]);
    expect(res.code, res.stderr).toBe(0);
    const run = JSON.parse(res.stdout);
    expect(run.ending).toBe("accepted");
    const heldOut = run.attempts[0].checks.find((c: { checkId: string }) => c.checkId === "acceptance");
    expect(heldOut).toMatchObject({ verdict: "passed", hidden: true, logTail: null });
    expect(res.stdout).not.toContain(HELD_OUT_MARKER);
  });
});

describe("gatehouse runs / run / logs", () => {
  it("lists a task's runs, shows a run, and prints a check's full log", async () => {
    const runs = await cli(["runs", fixes.task.key, "--json"]);
    expect(runs.code, runs.stderr).toBe(0);
    const listed: { id: string; number: number }[] = JSON.parse(runs.stdout);
    expect(listed.map((r) => r.number)).toEqual([2, 1]);
    // Run #1: red on attempt 1, fixed on attempt 2.
    const latest = listed[1];
    const shown = await cli(["run", latest.id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^run #\d+ .* accepted/);
    const log = await cli(["logs", latest.id, "--attempt", "1", "--check", "unit"]);
    expect(log.code, log.stderr).toBe(0);
    expect(log.stdout).toContain("running the unit tests");
    const all = await cli(["logs", latest.id, "--attempt", "1"]);
    expect(all.stdout).toContain("==> unit (failed) <==");
    expect(all.stdout).not.toContain(HELD_OUT_MARKER);
    const followed = await cli(["logs", latest.id, "--check", "unit", "--follow"]);
    expect(followed.code, followed.stderr).toBe(0);
    expect(followed.stdout).toContain("running the unit tests");
  });
});

describe("gatehouse cancel", () => {
  it("cancels a task's run in progress, so the task can be dispatched again; a run already ended is one \
line", async () => {
    const slow = await makeScenario(h, { checkDefaults: [check("slow", "sleep 30")] });
    await grant(slow.work.id, engineer, "engineer");
    const dispatched = await cli(["dispatch", slow.task.id, "--json"]);
    expect(dispatched.code, dispatched.stderr).toBe(0);
    const { runId } = JSON.parse(dispatched.stdout) as { runId: string };
    const busy = await cli(["dispatch", slow.task.id]);
    expect([busy.code, busy.stderr]).toEqual([1, expect.stringMatching(/already has run #1 .*HTTP 409\)\n$/)]);

    const cancelled = await cli(["cancel", runId]);
    expect(cancelled).toEqual({ code: 0, stdout: `cancelled run #1 ${runId}\n`, stderr: "" });
    const run = JSON.parse((await cli(["run", runId, "--json"])).stdout);
    expect([run.status, run.endingReason]).toEqual(["finished", `cancelled by ${engineer.email}`]);
    const next = await cli(["dispatch", slow.task.id, "--json"]);
    expect(next.code, next.stderr).toBe(0);
    expect((await cli(["cancel", JSON.parse(next.stdout).runId])).code).toBe(0);

    const again = await cli(["cancel", runId]);
    expect(again).toEqual({
      code: 1,
      stdout: "",
      stderr: `gatehouse: run #1 is already cancelled or finished (cancelled by ${engineer.email}) (HTTP 409)\n`,
    });
    const unknown = await cli(["cancel", "no-such-run"]);
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/^gatehouse: .*\(HTTP 404\)\n$/)]);
  });
});

describe("gatehouse gate", () => {
  it("runs the next attempt on the clone's work: red with the failing tail (exit 1), the same again spends \
no attempt, green once fixed in the working tree (exit 0)", async () => {
    const own = await makeScenario(
      h,
      {
        maxGateAttempts: 3,
        checkDefaults: [check("unit", "grep -q fixed app.txt || { echo 'not ok 1 - app.txt is fixed'; exit 1; }")],
      },
      { files: { "app.txt": "broken\n" } },
    );
    await grant(own.work.id, engineer, "engineer");
    const clone = scratchDir("gatehouse-gate-clone-");
    gitIn(clone, "clone", "--quiet", own.repo.dir, ".");
    const attemptsOfRun = async () => {
      const [run] = JSON.parse((await cli(["runs", own.task.id, "--json"])).stdout) as { id: string }[];
      return (JSON.parse((await cli(["run", run.id, "--json"])).stdout) as { attempts: unknown[] }).attempts.length;
    };

    const red = await cli(["gate", own.task.id], { cwd: clone });
    expect(red.code, red.stderr).toBe(1);
    expect(red.stdout, red.stderr).toMatch(/^attempt 1 of 3$/m);
    expect(red.stdout).toMatch(/Gatehouse: the gate is red on attempt 1 of 3/);
    expect(red.stdout).toContain("not ok 1 - app.txt is fixed");
    expect(red.stdout.trim().split("\n").at(-1)).toMatch(/^run #1 is waiting for a fix/);

    const again = await cli(["gate", own.task.id], { cwd: clone });
    expect(again.code, again.stderr).toBe(1);
    expect(again.stdout).toMatch(/^nothing changed since attempt 1 \(commit [0-9a-f]{12}\): its verdict stands/);
    expect(again.stdout).toContain("not ok 1 - app.txt is fixed");
    expect(await attemptsOfRun()).toBe(1);

    fs.writeFileSync(path.join(clone, "app.txt"), "fixed\n");
    const green = await cli(["gate", own.task.id, "--json"], { cwd: clone });
    expect(green.code, green.stderr).toBe(0);
    const run = JSON.parse(green.stdout) as { ending: string; attempts: { n: number; gate: string }[] };
    expect([run.ending, run.attempts.at(-1)]).toEqual(["accepted", expect.objectContaining({ n: 2, gate: "green" })]);
    // The clone is as it was: the fix still uncommitted, HEAD where it was.
    expect(gitIn(clone, "status", "--porcelain")).toBe("M app.txt");
  });
});

describe("a reader that closes the pipe early", () => {
  it("ends `gatehouse logs <run> | head -3` quietly, with a SIGPIPE's status (141), never 0", async () => {
    // A log far larger than a pipe holds, so the CLI is still writing when head has its lines and exits.
    const long = await makeScenario(h, { checkDefaults: [check("long", "seq 1 300000")] });
    await grant(long.work.id, engineer, "engineer");
    const dispatched = await cli(["dispatch", long.task.id, "--wait", "--json"]);
    expect(dispatched.code, dispatched.stderr).toBe(0);
    const runId = JSON.parse(dispatched.stdout).id as string;
    // pipefail: the pipeline's status is the CLI's, not head's — 141, as `seq 1 300000 | head -3` gives, so a
    // script's `dispatch --wait | head -1` never reads as accepted.
    const piped = await runShell(`set -o pipefail; "$0" "$1" logs "$2" --check long | head -3`, [
      process.execPath,
      CLI_BIN,
      runId,
    ]);
    expect(piped).toEqual({ code: 141, stdout: "1\n2\n3\n", stderr: "" });
    const bare = await runShell(`set -o pipefail; seq 1 300000 | head -3`, []);
    expect(bare.code).toBe(piped.code);
  });
});

describe("gatehouse gates", () => {
  it("lints a file naming each problem, and imports then exports a Work's checks as a lead", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-gates-"));
    const good = path.join(dir, "gates.yml");
    fs.writeFileSync(good, "gates:\n  - run: npm test\n    id: unit\n  - npm run lint\n");
    const bad = path.join(dir, "bad.yml");
    fs.writeFileSync(bad, "gates:\n  - run: npm test\n    timeout: forever\n");
    expect((await cli(["gates", "lint", good])).stdout).toContain("2 checks, no problem");
    const linted = await cli(["gates", "lint", bad]);
    expect(linted.code).toBe(1);
    expect(linted.stderr).toMatch(/bad\.yml: .*timeout/);

    const asLead = cliEnv(api.url, lead.token);
    const refused = await runCli(["gates", "import", good, "--work", "Billing"], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/lead role.*HTTP 403/);
    const imported = await runCli(["gates", "import", good, "--work", "Billing"], { env: asLead });
    expect(imported.code, imported.stderr).toBe(0);
    const out = path.join(dir, "out.yml");
    const exported = await runCli(["gates", "export", out, "--work", "Billing"], { env: asLead });
    expect(exported.code, exported.stderr).toBe(0);
    expect(fs.readFileSync(out, "utf8")).toMatch(/run: npm test[\s\S]*run: npm run lint/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("gatehouse gates: a file that cannot be read or written", () => {
  it("is one line naming the file and why", async () => {
    const dir = scratchDir("gatehouse-gates-");
    const target = path.join(dir, "no-such-dir", "CHECKS.yml");
    const exported = await cli(["gates", "export", target, "--work", "Billing"]);
    expect([exported.code, exported.stderr]).toEqual([
      1,
      `gatehouse: cannot write ${target}: its folder does not exist\n`,
    ]);
    const intoFolder = await cli(["gates", "export", dir, "--work", "Billing"]);
    expect([intoFolder.code, intoFolder.stderr]).toEqual([1, `gatehouse: cannot write ${dir}: it is a folder\n`]);
    const missing = path.join(dir, "gates.yml");
    const linted = await cli(["gates", "lint", missing]);
    expect([linted.code, linted.stderr]).toEqual([1, `gatehouse: cannot read ${missing}: no such file\n`]);
  });
});

describe("gatehouse login", () => {
  it("checks the token, stores the server and token for later commands (mode 600), and refuses a \
wrong password", async () => {
    const bare = cliEnv(api.url, "");
    delete bare.GATEHOUSE_URL;
    delete bare.GATEHOUSE_TOKEN;
    const viaPassword = await runCli(["login", api.url, "--email", engineer.email], {
      env: bare,
      input: `${engineer.password}\n`,
    });
    expect(viaPassword.code, viaPassword.stderr).toBe(0);
    expect(viaPassword.stdout).toMatch(/^logged in to http:\/\/127\.0\.0\.1:\d+ \(\d+ Works? visible\)/);
    const stored = path.join(bare.XDG_CONFIG_HOME, "gatehouse", "config.json");
    expect(fs.statSync(stored).mode & 0o777).toBe(0o600);
    const works = await runCli(["works"], { env: bare });
    expect(works.code, works.stderr).toBe(0);
    expect(works.stdout).toContain("Billing");

    const wrong = await runCli(["login", api.url, "--email", engineer.email], { env: bare, input: "not-it\n" });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split("\n")).toHaveLength(1);
    expect(wrong.stderr).toMatch(/^gatehouse: sign-in refused: /);
  });

  it("asks for the password at a terminal, without showing what is typed", async () => {
    const bare = cliEnv(api.url, "");
    delete bare.GATEHOUSE_URL;
    delete bare.GATEHOUSE_TOKEN;
    const res = await runAtTerminal(["login", api.url, "--email", engineer.email], {
      env: bare,
      prompt: /password for .*: $/,
      typed: `${engineer.password}\r`,
    });
    expect(res.code, res.output).toBe(0);
    expect(res.output.replaceAll("\r", "")).toContain(`password for ${engineer.email}: \nlogged in to `);
    expect(res.output).not.toContain(engineer.password);
  });
});

describe("one line and a non-zero exit", () => {
  it("for a bad token, an unknown task and a server that is down", async () => {
    const badToken = await runCli(["works"], { env: cliEnv(api.url, "gh_not-a-real-token-at-all") });
    expect(badToken.code).toBe(1);
    expect(badToken.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^gatehouse: the token was refused/)]);

    const unknown = await cli(["dispatch", "NOPE-999"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim().split("\n")).toEqual([
      `gatehouse: no task "NOPE-999" that you can see (give its id or key)`,
    ]);

    // A port nothing listens on: one a server had a moment ago.
    const gone = await startApiServer();
    await gone.close();
    const down = await runCli(["works"], { env: cliEnv(gone.url, engineer.token) });
    expect(down.code).toBe(1);
    expect(down.stderr.trim().split("\n")).toEqual([`gatehouse: cannot reach ${gone.url}: ECONNREFUSED`]);
  });

  it("for a push the stop hook cannot make, with the whole of git's reason", async () => {
    // A task with no run yet, so the hook has a commit to push.
    const fresh = await makeScenario(h, { checkDefaults: [check("unit", "true")] });
    await grant(fresh.work.id, engineer, "engineer");
    const clone = scratchDir("gatehouse-hook-clone-");
    gitIn(clone, "clone", "--quiet", fresh.repo.dir, ".");
    const res = await cli(["hook", "claude-code", "--task", fresh.task.id, "--remote", "/nonexistent"], {
      cwd: clone,
      input: "{}",
    });
    expect(res.code).toBe(1);
    // git's first line says what is wrong; its last alone ("and the repository exists.") said nothing.
    expect(res.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        new RegExp(
          "^gatehouse: git push failed: fatal: '/nonexistent' does not appear to be a git repository; " +
            ".*the correct access rights and the repository exists\\.$",
        ),
      ),
    ]);
  });
});
