// Runs one command the way the SPEC says a check runs: `bash --noprofile --norc -e -o pipefail -c`,
// in its own process group, with a scrubbed environment, stdout and stderr on one real pipe (so their
// order is the order they were written, and /dev/stdout works), a timeout that ends the whole group
// (SIGTERM, then SIGKILL), and no process left behind once the main one exits (the spawner's shim kills
// and reaps every descendant, however it detached, before it reports the exit).
import fs from "node:fs";
import { fifoPoolFor, type ReadEnd } from "./fifo-pool";
import { PipePoller } from "./pipe-poller";
import { launch, nativeSpawnerPath, type Exit, type Launcher, type RunAs } from "./spawner";
import { LogSink, type LogSummary } from "../output/log-sink";
import type { OutputMasker } from "../output/masker";
import { StreamSearch } from "../output/stream-search";
import { killProcessesByEnv, runningCommands } from "./process-group";
import type { CommandSandbox } from "../sandbox/command-sandbox";

export type CommandSpec = {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  logPath: string;
  capBytes: number;
  masker: OutputMasker;
  // A file whose contents become the command's stdin (otherwise /dev/null).
  stdinFile?: string;
  // Where the FIFOs for output pipes are made.
  pipeDir: string;
  expectStdout?: string;
  signal?: AbortSignal;
  killGraceMs?: number;
  // How long to wait for the output to close after the group is gone before cutting it off.
  closeGraceMs?: number;
  // Run the command as this user (GATEHOUSE_RUN_AS); unset: as the server's user.
  runAs?: RunAs | null;
  // Environment markers (NAME=value) identifying this command's processes: a last sweep for anything
  // still holding the output after the command and all its descendants have ended.
  markers?: string[];
  // Run it inside this sandbox (lib/runner/sandbox): bwrap starts bash, under the same shim, so the shim's
  // guards hold for everything inside; an error refuses the command with it. Unset: no sandbox.
  sandbox?: CommandSandbox | null;
  // Or start it with the spawner inside an attempt's sandbox (lib/runner/sandbox/attempt-sandbox.ts): it is
  // already the sandbox's user, and its output pipe comes from the sandbox's own folder.
  inside?: InsideSandbox | null;
  onSpawn?: (info: { pid: number; sink: LogSink }) => void;
};

// takePipe: an output pipe the spawner inside can open (in the sandbox's own folder, its user's).
export type InsideSandbox = { launcher: Launcher & { isOpen: boolean }; takePipe: () => Promise<ReadEnd> };

export type CommandOutcome = LogSummary & {
  spawnError: string | null;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  isTimedOut: boolean;
  isAborted: boolean;
  durationMs: number;
  isExpectedOutputFound: boolean;
};

const BASH_ARGS = ["--noprofile", "--norc", "-e", "-o", "pipefail", "-c"];

export async function runCommand(spec: CommandSpec): Promise<CommandOutcome> {
  const started = performance.now();
  // The log file is made while the command starts (a check's first output waits in the pipe meanwhile).
  const sinkOpened = LogSink.open(spec.logPath, spec.capBytes);
  // Awaited at once where the command is not started after all (its rejection is then this call's).
  sinkOpened.catch(() => {});
  const search = spec.expectStdout !== undefined ? new StreamSearch(spec.expectStdout) : null;
  const killGraceMs = spec.killGraceMs ?? 2000;
  const closeGraceMs = spec.closeGraceMs ?? 1000;

  const fail = async (message: string): Promise<CommandOutcome> => {
    const sink = await sinkOpened;
    sink.write(Buffer.from(`[gatehouse] ${message}\n`));
    const summary = sink.finish();
    return {
      ...summary,
      message,
      spawnError: message,
      exitCode: null,
      signal: null,
      isTimedOut: false,
      isAborted: false,
      durationMs: Math.round(performance.now() - started),
      isExpectedOutputFound: false,
    };
  };

  if (!isDirectory(spec.cwd)) return fail(`working directory ${spec.cwd} does not exist`);
  if (spec.signal?.aborted) return { ...(await fail("cancelled before it started")), isAborted: true };
  if (spec.sandbox && "error" in spec.sandbox) return fail(spec.sandbox.error);
  const bash = [...BASH_ARGS, spec.command];
  // Sandboxed, the main process is the spawner's waiter around bwrap (see spawner.c): the command inside
  // still gets a timeout's SIGTERM and its grace before the SIGKILL.
  const { inside } = spec;
  const program =
    spec.sandbox && !inside
      ? {
          file: nativeSpawnerPath(),
          args: ["--sandbox-wait", spec.sandbox.bwrap, ...spec.sandbox.args, "bash", ...bash],
        }
      : { file: "bash", args: bash };

  let pipe: ReadEnd;
  try {
    pipe = await (inside ? inside.takePipe() : fifoPoolFor(spec.pipeDir).takeReadEnd());
  } catch (error) {
    return fail(`could not create the output pipe: ${(error as Error).message}`);
  }
  const launched = await (inside?.launcher.launch.bind(inside.launcher) ?? launch)({
    ...program,
    cwd: spec.cwd,
    env: spec.env,
    stdinPath: spec.stdinFile ?? null,
    outPath: pipe.path,
    runAs: inside ? null : spec.runAs,
  });
  fs.rmSync(pipe.path, { force: true });
  if ("error" in launched) {
    fs.closeSync(pipe.readFd);
    return fail(`could not start: ${launched.error}`);
  }
  let sink: LogSink;
  try {
    sink = await sinkOpened;
  } catch (error) {
    // No log to write to: the command that just started is ended (and reaped) before the failure is passed on.
    launched.signal("SIGKILL");
    await launched.exited;
    fs.closeSync(pipe.readFd);
    throw error;
  }
  return new Promise((resolve) => {
    let isTimedOut = false;
    let isAborted = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let hasExited = false;
    let isSettled = false;
    const timers: NodeJS.Timeout[] = [];

    let isOutputClosed = false;
    // Only the command holds the write end: the output ends when the command and what it left behind do.
    const output = new PipePoller(
      pipe.readFd,
      (chunk) => {
        search?.push(chunk);
        sink.write(spec.masker.push(chunk));
      },
      () => {
        isOutputClosed = true;
        if (hasExited) settle();
      },
    );
    runningCommands.add(launched);
    spec.onSpawn?.({ pid: launched.pid, sink });

    const endGroup = () => {
      launched.signal("SIGTERM");
      timers.push(
        setTimeout(() => {
          launched.signal("SIGKILL");
          // Still running a grace after the SIGKILL: its shim or spawner was stopped (inside a sandbox they
          // run as the command's uid): the sandbox is ended instead.
          if (launched.forceEnd) timers.push(setTimeout(() => launched.forceEnd?.(), killGraceMs));
        }, killGraceMs),
      );
    };
    timers.push(
      setTimeout(
        () => {
          if (hasExited) return;
          isTimedOut = true;
          endGroup();
        },
        Math.max(1, spec.timeoutMs),
      ),
    );
    const onAbort = () => {
      if (hasExited) return;
      isAborted = true;
      endGroup();
    };
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    // An abort while the command was being started fired no event here: act on it now.
    if (spec.signal?.aborted) onAbort();

    const settle = () => {
      if (isSettled) return;
      isSettled = true;
      runningCommands.delete(launched);
      for (const t of timers) clearTimeout(t);
      spec.signal?.removeEventListener("abort", onAbort);
      sink.write(spec.masker.end());
      const summary = sink.finish();
      resolve({
        ...summary,
        spawnError: null,
        exitCode,
        signal: exitSignal,
        isTimedOut,
        isAborted,
        durationMs: Math.round(performance.now() - started),
        isExpectedOutputFound: search?.found ?? false,
      });
    };

    output.poll();
    void launched.exited.then(({ code, signal }: Exit) => {
      hasExited = true;
      exitCode = code;
      exitSignal = signal;
      // By now the shim has killed and reaped everything the main process left. Take its last output now
      // rather than on the next poll.
      output.poll();
      if (isOutputClosed) return settle();
      // Only a process outside the command's tree can still hold the output open (one it was handed to):
      // cut it off, and end it if it carries the command's markers.
      timers.push(
        setTimeout(() => {
          if (isSettled) return;
          if (spec.markers?.length) killProcessesByEnv(spec.markers);
          output.destroy();
          settle();
        }, closeGraceMs),
      );
    });
  });
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
