// The `gatehouse` command: thin commands over the JSON API (lib/cli/api-client.ts), configured by
// GATEHOUSE_URL and GATEHOUSE_TOKEN or what `gatehouse login` stored. Every failure is one line on stderr
// and a non-zero exit; `dispatch --wait` exits by how the run ended (see endings.ts).
import os from "node:os";
import { Command, Option } from "commander";
// Only the version is bundled from package.json (esbuild keeps the JSON fields that are imported).
import { version } from "../../package.json";
import { ApiClient, type RunJson } from "./api-client";
import { CliError } from "./cli-error";
import { loadConfig, storeConfig } from "./config";
import { describeFailures } from "./agent-feedback";
import { describeEnd, exitCodeOf } from "./endings";
import { findTask, findWork } from "./find-task";
import { gateAtHead } from "./gate-at-head";
import { exportGatesFile, importGatesFile, lintGatesFile } from "./gates-commands";
import { printLogs } from "./logs-command";
import { readAll, readPassword } from "./read-input";
import { answerStop, parseHookPayload } from "./stop-hook";
import { formatEvent, type RunEvent, watchRun } from "./watch-run";

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const err = (line: string): void => void process.stderr.write(`${line}\n`);
const printJson = (value: unknown): void => out(JSON.stringify(value, null, 2));

function printRun(run: RunJson): void {
  out(`run #${run.number} ${run.id} · ${run.status} · gate ${run.gate}${run.ending ? ` · ${run.ending}` : ""}`);
  if (run.endingReason) out(`  ${run.endingReason}`);
  for (const a of run.attempts) {
    out(`attempt ${a.n} of ${run.maxAttempts} · ${a.gate}${a.commit ? ` · ${a.commit.slice(0, 12)}` : ""}`);
    if (a.agent) out(formatEvent({ kind: "agent", n: a.n, agent: a.agent }) ?? "");
    for (const c of a.checks) out(formatEvent({ kind: "check", n: a.n, check: c }) ?? "");
  }
}

// A followed run's progress, a line per event as it happens; nothing with --json (the JSON is the output).
const printEvents =
  (isJson?: boolean) =>
  (event: RunEvent): void => {
    const line = isJson ? null : formatEvent(event);
    if (line) out(line);
  };

// A count on the command line is a whole number ≥ 1, else one line naming the option: parseInt read "abc" as
// NaN and "0" as nothing given, and `logs --attempt abc` showed the last attempt with exit 0.
const wholeNumber =
  (option: string) =>
  (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
      throw new CliError(`${option}: must be a whole number ≥ 1, not "${value}"`);
    return n;
  };

// Stdin as piped in (a hook's payload); nothing at a terminal, where no one is piping.
const readStdin = async (): Promise<string> => (process.stdin.isTTY ? "" : readAll(process.stdin));

// `env`: the environment the CLI was started with (scripts/gatehouse.mjs reads it; lib/ reads no process.env).
export function buildProgram(env: NodeJS.ProcessEnv): Command {
  const client = () => new ApiClient(loadConfig(env));
  const program = new Command("gatehouse")
    .description(
      "Gatehouse from the terminal, CI and agents: dispatch, wait for the gate, read logs, gate an agent's stop",
    )
    .version(version, "-V, --version", "the installed Gatehouse's version")
    .showHelpAfterError()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  program
    .command("login")
    .argument("<url>", "the Gatehouse server, e.g. http://localhost:3000")
    .option("--token <token>", "an API token (from the API tokens page)")
    .option("--email <email>", "sign in with this email; the password is asked for at a terminal, else read from stdin")
    .description("store the server and a token in ~/.config/gatehouse/config.json")
    .action(async (url: string, opts: { token?: string; email?: string }) => {
      const base = url.replace(/\/+$/, "");
      let token = opts.token;
      if (!token) {
        if (!opts.email)
          throw new CliError(
            "give --token <token>, or --email <email> (the password is asked for, or read from stdin)",
          );
        const password = await readPassword(`password for ${opts.email}: `, {
          input: process.stdin,
          output: process.stderr,
        });
        token = await new ApiClient({ url: base, token: "" }).signIn({
          email: opts.email,
          password,
          name: `gatehouse CLI on ${os.hostname()}`,
        });
      }
      const works = await new ApiClient({ url: base, token }).works();
      out(
        `logged in to ${base} (${works.length} Work${works.length === 1 ? "" : "s"} visible); ` +
          `stored in ${storeConfig({ url: base, token }, env)}`,
      );
    });

  program
    .command("works")
    .description("the Works you have a role on")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const works = await client().works();
      if (opts.json) return printJson(works);
      for (const w of works) out(`${w.id}  ${w.name}  ${w.repoUrl}`);
    });

  program
    .command("tasks")
    .argument("<work>", "a Work's id or name")
    .option("--json", "print JSON")
    .description("a Work's tasks")
    .action(async (workRef: string, opts: { json?: boolean }) => {
      const api = client();
      const tasks = await api.tasks((await findWork(api, workRef)).id);
      if (opts.json) return printJson(tasks);
      for (const t of tasks) out(`${t.key}  ${t.id}  ${t.title}`);
    });

  program
    .command("dispatch")
    .argument("<task>", "a task's id or key")
    .option("--work <work>", "the Work, when the key is not unique")
    .option(
      "--wait",
      "follow the run and exit by its ending: 0 accepted, 1 rejected or partial, 2 inconclusive, 3 cancelled",
    )
    .option("--json", "print JSON (with --wait: the run as it ended)")
    .description("start a run of the task")
    .action(async (ref: string, opts: { work?: string; wait?: boolean; json?: boolean }) => {
      const api = client();
      const { task } = await findTask(api, ref, opts.work);
      const started = await api.dispatch(task.id);
      if (!opts.wait)
        return opts.json ? printJson(started) : out(`dispatched ${task.key}: run #${started.number} ${started.runId}`);
      if (!opts.json) out(`dispatched ${task.key}: run #${started.number} ${started.runId}`);
      const run = await watchRun(api, started.runId, {
        onEvent: printEvents(opts.json),
      });
      if (opts.json) printJson(run);
      else out(describeEnd(run));
      process.exitCode = exitCodeOf(run);
    });

  program
    .command("gate")
    .argument("<task>", "a task's id or key")
    .option("--work <work>", "the Work, when the key is not unique")
    .option("--remote <remote>", "push to this remote or URL (default: the clone's remote for the Work's repository)")
    .option("--json", "print JSON (the run, with the gated attempt last)")
    .description(
      "run the next attempt on this clone's work (HEAD, or the working tree with its uncommitted changes): push " +
        "it to the task's branch, run the gate there and wait; exits 0 green, 1 red, or by the run's ending",
    )
    .action(async (ref: string, opts: { work?: string; remote?: string; json?: boolean }) => {
      const api = client();
      const { task, work } = await findTask(api, ref, opts.work);
      const outcome = await gateAtHead(api, {
        task,
        work,
        cwd: process.cwd(),
        env,
        remote: opts.remote,
        onEvent: printEvents(opts.json),
      });
      const { run, attempt } = outcome;
      if (opts.json) printJson(run);
      else {
        if (outcome.isStanding)
          out(
            `nothing changed since attempt ${attempt.n} (commit ${outcome.commit.slice(0, 12)}): its verdict ` +
              "stands, and no attempt was spent",
          );
        out(describeFailures(run, attempt));
        out(describeEnd(run));
      }
      process.exitCode = attempt.gate === "green" || attempt.gate === "off" ? 0 : exitCodeOf(run);
    });

  program
    .command("runs")
    .argument("<task>", "a task's id or key")
    .option("--work <work>", "the Work, when the key is not unique")
    .option("--json", "print JSON")
    .description("the task's runs, newest first")
    .action(async (ref: string, opts: { work?: string; json?: boolean }) => {
      const api = client();
      const runs = await api.runsOf((await findTask(api, ref, opts.work)).task.id);
      if (opts.json) return printJson(runs);
      for (const r of runs) out(`#${r.number}  ${r.id}  ${r.status}  gate ${r.gate}${r.ending ? `  ${r.ending}` : ""}`);
    });

  program
    .command("run")
    .argument("<id>", "a run's id")
    .option("--json", "print JSON")
    .description("a run: its attempts and every check's verdict")
    .action(async (id: string, opts: { json?: boolean }) => {
      const run = await client().run(id);
      if (opts.json) printJson(run);
      else printRun(run);
    });

  program
    .command("cancel")
    .argument("<run>", "a run's id (`gatehouse runs <task>` lists them)")
    .option("--json", "print JSON (the run as cancelled)")
    .description("cancel a run in progress, waiting for a fix included, so its task can be dispatched again")
    .action(async (id: string, opts: { json?: boolean }) => {
      const run = await client().cancel(id);
      if (opts.json) printJson(run);
      else out(`cancelled run #${run.number} ${run.id}`);
    });

  program
    .command("logs")
    .argument("<run>", "a run's id")
    .option("--check <id>", "one check's log (_agent: the agent's)")
    .addOption(new Option("--attempt <n>", "the attempt (default: the last)").argParser(wholeNumber("--attempt")))
    .option("--follow", "follow the log while it is written")
    .description("the full log of a run's checks")
    .action(async (runId: string, opts: { check?: string; attempt?: number; follow?: boolean }) => {
      await printLogs(client(), {
        runId,
        checkId: opts.check,
        attempt: opts.attempt,
        follow: opts.follow,
        write: (t) => process.stdout.write(t),
      });
    });

  const gates = program.command("gates").description("gates files (YAML or a Markdown runbook)");
  gates
    .command("lint")
    .argument("<file>", "the file (- for stdin)")
    .description("check a gates file as the server would; exit 1 naming each problem")
    .action(async (file: string) => {
      const { checks, problems } = await lintGatesFile(file);
      for (const p of problems) err(`${file}: ${p}`);
      if (problems.length > 0) process.exitCode = 1;
      else out(`${file}: ${checks.length} check${checks.length === 1 ? "" : "s"}, no problem`);
    });
  gates
    .command("import")
    .argument("<file>", "the file (- for stdin)")
    .requiredOption("--work <work>", "the Work whose checks it replaces")
    .description("replace a Work's checks with the file's (lead)")
    .action(async (file: string, opts: { work: string }) => {
      const work = await importGatesFile(client(), file, opts.work);
      out(`imported ${file} into ${work.name} (version ${work.version})`);
    });
  gates
    .command("export")
    .argument("<file>", "where to write it (- for stdout; .md: a Markdown runbook)")
    .requiredOption("--work <work>", "the Work")
    .addOption(
      new Option("--format <format>", "yaml or markdown (default: by the file's name)").choices(["yaml", "markdown"]),
    )
    .description("write a Work's checks as a gates file")
    .action(async (file: string, opts: { work: string; format?: string }) => {
      const { work, count } = await exportGatesFile(client(), file, opts.work, opts.format);
      if (file !== "-") err(`wrote ${count} check${count === 1 ? "" : "s"} of ${work.name} to ${file}`);
    });

  program
    .command("hook")
    .addArgument(new Command().createArgument("<agent>", "whose Stop hook protocol").choices(["claude-code", "codex"]))
    .requiredOption("--task <task>", "the task's id or key")
    .option("--work <work>", "the Work, when the key is not unique")
    .option("--remote <remote>", "push to this remote or URL (default: the clone's remote for the Work's repository)")
    .description("the agent's Stop hook: push, run the gate, send the agent back with the failures while it is red")
    .action(async (_agent: string, opts: { task: string; work?: string; remote?: string }) => {
      const payload = parseHookPayload(await readStdin());
      const api = client();
      const { task, work } = await findTask(api, opts.task, opts.work);
      const answer = await answerStop(api, {
        task,
        work,
        payload,
        cwd: process.cwd(),
        env,
        remote: opts.remote,
        log: err,
      });
      err(answer.note);
      out(JSON.stringify(answer.stdout));
    });

  program
    .command("mcp")
    .requiredOption("--task <task>", "the task's id or key")
    .option("--work <work>", "the Work, when the key is not unique")
    .option("--remote <remote>", "push to this remote or URL (default: the clone's remote for the Work's repository)")
    .description("an MCP server on stdio: get_brief, run_gate, report_check, read_log")
    .action(async (opts: { task: string; work?: string; remote?: string }) => {
      // Loaded only when asked for: the MCP SDK is most of the CLI's startup, which every other command (a
      // Stop hook's at each stop of the agent) would pay. mcp-server.ts imports the SDK itself dynamically, so
      // the bundle keeps it out of its start as well.
      const { serveMcp } = await import("./mcp-server");
      const api = client();
      const { task, work } = await findTask(api, opts.task, opts.work);
      await serveMcp(api, { task, work, cwd: process.cwd(), env, remote: opts.remote });
    });
  return program;
}

// A reader that closes the pipe early (`gatehouse logs <run> | head`) has had all it wanted: the CLI stops
// quietly instead of dying of an unhandled EPIPE with its stack (Node ignores SIGPIPE, so the write fails
// instead of ending the process as it ends a C program). Its status is a C program's killed by SIGPIPE, 141,
// never 0: `dispatch --wait | head -1` has not waited for the run's ending, and 0 would say "accepted".
const SIGPIPE_STATUS = 128 + 13;

function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(SIGPIPE_STATUS);
    err(`gatehouse: cannot write the output: ${error.code ?? error.message}`);
    process.exit(1);
  });
}

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  endQuietlyWhenStdoutCloses();
  try {
    await buildProgram(env).parseAsync(argv);
  } catch (error) {
    if (error instanceof CliError) {
      err(`gatehouse: ${error.message}`);
      process.exitCode = error.exitCode;
      return;
    }
    err(`gatehouse: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  }
}
