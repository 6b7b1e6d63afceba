// Starting commands: every process Gatehouse runs (checks, agents, git, mkfifo) is started by one
// helper process, the native spawner (native/spawner.c, built at install; there is no other way). The
// server never forks itself: forking a large process cost ~20 ms a command and blocked its event loop,
// and after a fork every page it writes faults once. Each command gets its own session and process
// group, no descriptor but 0, 1 and 2, and a shim that ends whatever it leaves behind (see spawner.c);
// the caller learns its pid (= its process group id), the capacity of its output pipe and its exit, and
// signals its group only through the spawner, which signals nothing but that command's own group.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { config } from "../../config/config";

export type RunAs = { uid: number; gid: number };
export type LaunchRequest = {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdinPath: string | null;
  outPath: string;
  errPath?: string | null;
  runAs?: RunAs | null;
};
export type Exit = { code: number | null; signal: NodeJS.Signals | null };
// pipeBytes: the capacity of the stdout pipe (0: not a pipe). exited resolves once the command's main
// process has exited and every process it left has been killed and reaped. signal() sends a signal to
// the command's process group while its main process lives (afterwards it does nothing). forceEnd (inside
// an attempt's sandbox): ends the whole sandbox, for a command whose shim or spawner a signal cannot reach
// any more (a command can stop them: they run as its uid); exited then resolves with no code.
export type Launched =
  | {
      pid: number;
      pipeBytes: number;
      exited: Promise<Exit>;
      signal: (signal: NodeJS.Signals) => void;
      forceEnd?: () => void;
    }
  | { error: string };

type Pending = { started: (l: Launched) => void; exited?: (e: Exit) => void; isStarted: boolean };

// Who is told of every command as it ends, started here or inside a sandbox: its file, its arguments and
// the milliseconds from the launch request to its exit (`npm run bench`'s breakdown of a run's time).
type LaunchWatcher = (command: { file: string; args: readonly string[] }, ms: number) => void;
const watchers = new Set<LaunchWatcher>();
export function watchLaunches(watcher: LaunchWatcher): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

// Something that starts commands: the platform's spawner, or the spawner inside an attempt's sandbox
// (lib/runner/sandbox/attempt-sandbox.ts), which speaks the same protocol over FIFOs.
export type Launcher = { launch(request: LaunchRequest): Promise<Launched> };

const SIGNAL_NAMES = Object.fromEntries(Object.entries(os.constants.signals).map(([name, n]) => [n, name])) as Record<
  number,
  NodeJS.Signals
>;

export function nativeSpawnerPath(): string {
  return path.join(process.cwd(), "lib", "runner", "process", "native", "gatehouse-spawner");
}

// How spawner.c ends the refusal it answers just before it exits.
const SPAWNER_ENDS = ": the sandbox ends";

// The spawner's protocol (see spawner.c) over one channel: requests written with `send`, answers handed to
// `receive` line by line, and `closed` once the channel ends (what was starting or running cannot be
// followed any more). `forceEnd`, when given, is how a command that no signal ends is given up on.
export class SpawnerProtocol {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private isClosed = false;

  constructor(
    private readonly send: (data: string) => void,
    private readonly forceEnd?: () => void,
  ) {}

  get isOpen(): boolean {
    return !this.isClosed;
  }

  receive(line: string): void {
    const [tag, idText, ...rest] = line.split(" ");
    const id = Number(idText);
    const p = this.pending.get(id);
    if (!p) return;
    if (tag === "P") {
      p.isStarted = true;
      p.started({
        pid: Number(rest[0]),
        pipeBytes: Number(rest[1]) || 0,
        exited: new Promise<Exit>((resolve) => (p.exited = resolve)),
        signal: (signal) => this.signal(id, signal),
        ...(this.forceEnd ? { forceEnd: this.forceEnd } : {}),
      });
      return;
    }
    if (tag === "E" || (tag === "X" && !p.isStarted)) {
      // A sandbox's spawner that refuses because it is ending (a command changed its limits) exits after
      // this answer: closed from here on, so the command is started again in a new sandbox even when the
      // channel's end has not been read yet.
      if (tag === "E" && line.endsWith(SPAWNER_ENDS)) this.isClosed = true;
      p.started({ error: tag === "E" ? rest.join(" ") : "the command's shim was killed before it started" });
    } else if (tag === "X") {
      const code = Number(rest[0]);
      const signal = Number(rest[1]);
      p.exited?.({ code: code < 0 ? null : code, signal: signal > 0 ? (SIGNAL_NAMES[signal] ?? null) : null });
    }
    this.pending.delete(id);
  }

  closed(why: string): void {
    this.isClosed = true;
    for (const [id, p] of this.pending) {
      if (!p.isStarted) p.started({ error: why });
      else p.exited?.({ code: null, signal: null });
      this.pending.delete(id);
    }
  }

  // Asks the command's shim to signal the command's group; nothing once the command has ended.
  private signal(id: number, signal: NodeJS.Signals): void {
    const n = os.constants.signals[signal];
    if (!this.pending.has(id) || this.isClosed || !Number.isInteger(n) || n <= 0) return;
    this.send(`K\0${id}\0${n}\0`);
  }

  launch(request: LaunchRequest): Promise<Launched> {
    if (this.isClosed) return Promise.resolve({ error: "the spawner process stopped" });
    const id = this.nextId++;
    const env = Object.entries(request.env).map(([k, v]) => `${k}=${v}`);
    const user = request.runAs ? `${request.runAs.uid}:${request.runAs.gid}` : "";
    const fields = [
      "S",
      String(id),
      request.cwd,
      request.outPath,
      request.errPath ?? "",
      request.stdinPath ?? "",
      user,
      request.file,
      String(request.args.length + 1),
      request.file,
      ...request.args,
      String(env.length),
      ...env,
    ];
    if (fields.some((f) => f.includes("\0")))
      return Promise.resolve({ error: "a NUL character cannot be passed to a command" });
    const asked = watchers.size > 0 ? performance.now() : 0;
    const launched = new Promise<Launched>((started) => {
      this.pending.set(id, { started, isStarted: false });
      this.send(`${fields.join("\0")}\0`);
    });
    if (asked)
      void launched.then((l) => {
        if ("exited" in l)
          void l.exited.then(() => {
            for (const watch of watchers) watch(request, performance.now() - asked);
          });
      });
    return launched;
  }
}

// The platform's spawner: a child of the server, started at the first command and again if it stops.
class Spawner implements Launcher {
  private child: { process: ChildProcess; protocol: SpawnerProtocol } | null = null;

  private ensure(): SpawnerProtocol | { error: string } {
    const current = this.child;
    if (current && current.process.exitCode === null && !current.process.killed) return current.protocol;
    const file = nativeSpawnerPath();
    if (!fs.existsSync(file))
      return {
        error: `the native spawner ${file} is missing (npm install, or node scripts/build-native.mjs, builds it)`,
      };
    const child: ChildProcess = spawn(file, [], {
      stdio: ["pipe", "pipe", "inherit"],
      env: { PATH: config().hostPath ?? "" } as unknown as NodeJS.ProcessEnv,
    });
    child.stdin!.on("error", () => undefined);
    child.on("error", () => undefined);
    const protocol = new SpawnerProtocol((data) => child.stdin!.write(data));
    readline.createInterface({ input: child.stdout! }).on("line", (line) => protocol.receive(line));
    child.on("exit", () => {
      if (this.child?.process === child) this.child = null;
      protocol.closed("the spawner process stopped");
    });
    this.child = { process: child, protocol };
    return protocol;
  }

  launch(request: LaunchRequest): Promise<Launched> {
    const protocol = this.ensure();
    if ("error" in protocol) return Promise.resolve(protocol);
    return protocol.launch(request);
  }
}

const holder = globalThis as unknown as { __gatehouseSpawner?: Spawner };

export function launch(request: LaunchRequest): Promise<Launched> {
  holder.__gatehouseSpawner ??= new Spawner();
  return holder.__gatehouseSpawner.launch(request);
}
