// Starting commands through a spawner helper process: the native one (native/spawner.c, built by
// `npm install` where a C compiler exists: posix_spawn, about as fast as a shell starting a command),
// else the JavaScript one (spawner-child.cjs), else a direct spawn from this process. Forking the
// server itself cost ~20 ms a command and blocked its event loop. Either way a command gets its own
// session and process group, and the caller learns its pid (= its process group id) and its exit.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

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
// pipeBytes: the capacity of the stdout pipe when the spawner set it (0: unknown, the kernel's default).
export type Launched = { pid: number; pipeBytes: number; exited: Promise<Exit> } | { error: string };

type Pending = { started: (l: Launched) => void; exited?: (e: Exit) => void; isStarted: boolean };

const SIGNAL_NAMES = Object.fromEntries(Object.entries(os.constants.signals).map(([name, n]) => [n, name])) as Record<
  number,
  NodeJS.Signals
>;

export function nativeSpawnerPath(): string {
  return path.join(process.cwd(), "lib", "runner", "process", "native", "gatehouse-spawner");
}

class Spawner {
  private child: ChildProcess | null = null;

  // withNative false: the JavaScript spawner even where the native one was built.
  constructor(private readonly withNative: boolean) {}
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  private ensure(): ChildProcess | null {
    if (this.child && this.child.exitCode === null && !this.child.killed) return this.child;
    const native = nativeSpawnerPath();
    const script = path.join(process.cwd(), "lib", "runner", "process", "spawner-child.cjs");
    const [file, args] =
      this.withNative && fs.existsSync(native)
        ? [native, []]
        : fs.existsSync(script)
          ? [process.execPath, [script]]
          : [null, []];
    if (!file) return null;
    const child: ChildProcess = spawn(file, args, {
      stdio: ["pipe", "pipe", "inherit"],
      env: { PATH: process.env.PATH ?? "" } as unknown as NodeJS.ProcessEnv,
    });
    child.stdin!.on("error", () => undefined);
    readline.createInterface({ input: child.stdout! }).on("line", (line) => this.receive(line));
    child.on("exit", () => {
      if (this.child === child) this.child = null;
      // Commands it was starting or watching cannot be followed any more.
      for (const [id, p] of this.pending) {
        if (!p.isStarted) p.started({ error: "the spawner process stopped" });
        else p.exited?.({ code: null, signal: null });
        this.pending.delete(id);
      }
    });
    this.child = child;
    return child;
  }

  private receive(line: string): void {
    const [tag, idText, ...rest] = line.split(" ");
    const id = Number(idText);
    const p = this.pending.get(id);
    if (!p) return;
    if (tag === "E") {
      if (!p.isStarted) p.started({ error: rest.join(" ") });
      this.pending.delete(id);
    } else if (tag === "P") {
      p.isStarted = true;
      p.started({
        pid: Number(rest[0]),
        pipeBytes: Number(rest[1]) || 0,
        exited: new Promise<Exit>((resolve) => (p.exited = resolve)),
      });
    } else if (tag === "X") {
      const code = Number(rest[0]);
      const signal = Number(rest[1]);
      p.exited?.({ code: code < 0 ? null : code, signal: signal > 0 ? (SIGNAL_NAMES[signal] ?? null) : null });
      this.pending.delete(id);
    }
  }

  launch(request: LaunchRequest): Promise<Launched> | null {
    const child = this.ensure();
    if (!child) return null;
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
    return new Promise<Launched>((started) => {
      this.pending.set(id, { started, isStarted: false });
      child.stdin!.write(fields.join("\0") + "\0");
    });
  }
}

const holder = globalThis as unknown as { __gatehouseSpawners?: Map<string, Spawner> };

// Direct spawn from this process: the last resort.
function launchDirect(request: LaunchRequest): Launched {
  let out: number | null = null;
  let err: number | null = null;
  let input: number | null = null;
  try {
    out = fs.openSync(request.outPath, fs.constants.O_WRONLY);
    if (request.errPath) err = fs.openSync(request.errPath, fs.constants.O_WRONLY);
    if (request.stdinPath) input = fs.openSync(request.stdinPath, "r");
    const child = spawn(request.file, request.args, {
      cwd: request.cwd,
      env: request.env as NodeJS.ProcessEnv,
      detached: true,
      stdio: [input ?? "ignore", out, err ?? out],
      ...(request.runAs ?? {}),
    });
    if (!child.pid) return { error: "could not start bash" };
    return {
      pid: child.pid,
      pipeBytes: 0,
      exited: new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal }))),
    };
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    if (out !== null) fs.closeSync(out);
    if (err !== null) fs.closeSync(err);
    if (input !== null) fs.closeSync(input);
  }
}

export async function launch(request: LaunchRequest): Promise<Launched> {
  if (process.env.GATEHOUSE_DIRECT_SPAWN !== "1") {
    // GATEHOUSE_JS_SPAWNER=1 uses the JavaScript spawner (as on a machine without a C compiler).
    const withNative = process.env.GATEHOUSE_JS_SPAWNER !== "1";
    const spawners = (holder.__gatehouseSpawners ??= new Map());
    const key = withNative ? "native" : "js";
    let spawner = spawners.get(key);
    if (!spawner) spawners.set(key, (spawner = new Spawner(withNative)));
    const viaHelper = spawner.launch(request);
    if (viaHelper) return viaHelper;
  }
  return launchDirect(request);
}
