// One sandbox for many commands: the checks of an attempt (and its proof re-runs, probes and mutation runs,
// one sandbox per checkout they run in) share a bubblewrap sandbox started once, with a spawner inside it
// that forks each command (spawner.c, `--inside`). Starting bwrap costs more than the checks of a typical
// Work (issue 20: ~5 ms a command); forking inside it costs a fraction of a millisecond. What a command sees
// is the same as under a sandbox of its own (the same plan: the same binds, masks, network and HOME), and
// the spawner gives each command a user and mount namespace of its own on top: a fresh /tmp, /var/tmp and
// /dev/shm, a read-only /dev, and the folder of the sandbox's output pipes covered; and an IPC namespace and
// a session keyring of its own. The commands of one sandbox share its PID
// namespace; they run one after another (the check step runs checks in order), and no process outlives its
// command (the shim inside is a subreaper, as outside). The spawner and its shims are not dumpable, so a
// command cannot trace them or open their descriptors; it can stop or kill them (same uid), which ends its
// own command or the sandbox in error, never in a pass (run-command's forceEnd).
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import readline from "node:readline";
import { config } from "../../config/config";
import { attemptSandboxDirOf, pipeDirOf, sandboxSpawnerPathOf } from "../paths";
import { fifoPoolFor, type ReadEnd } from "../process/fifo-pool";
import type { InsideSandbox } from "../process/run-command";
import { launch, nativeSpawnerPath, SpawnerProtocol, type Launched } from "../process/spawner";
import { giveTo, type RunAsUser } from "../run-as";
import { bwrapArgs, type SandboxPlan } from "./bwrap-args";

type Owner = { dataDir: string; runId: string; n: number; runAs: RunAsUser | null };

const CLOSE_GRACE_MS = 5000;

// The sandboxes of one attempt, one per distinct plan (the plan without its working directory: the
// commands of one checkout share it) and per command running at the same time: two commands never share a
// PID namespace while both run (proof re-runs may run side by side), so one cannot trace the other.
// Closed when the attempt's judging ends.
export class AttemptSandboxes {
  private readonly sessions = new Map<string, Slot[]>();
  private count = 0;

  constructor(
    private readonly bwrap: string,
    private readonly owner: Owner,
  ) {}

  // A sandbox for one command, held until `release` (call it once the command has ended).
  async insideFor(plan: SandboxPlan): Promise<{ inside: InsideSandbox; release: () => void } | { error: string }> {
    const key = JSON.stringify({ ...plan, cwd: null });
    const slots = this.sessions.get(key) ?? [];
    this.sessions.set(key, slots);
    // One that stopped (a command killed its spawner) is left for a new one.
    let slot = slots.find((s) => !s.isBusy && (s.started?.isOpen ?? true));
    if (!slot) {
      const session = SandboxSession.start(this.bwrap, plan, this.owner, this.count++);
      slot = { session, isBusy: false, started: null };
      slots.push(slot);
    }
    const held = slot;
    held.isBusy = true;
    const started = await held.session;
    if ("error" in started) {
      slots.splice(slots.indexOf(held), 1);
      return started;
    }
    held.started = started;
    if (!started.isOpen) {
      held.isBusy = false;
      return this.insideFor(plan);
    }
    return {
      inside: { launcher: started.protocol, takePipe: () => started.takePipe() },
      release: () => {
        held.isBusy = false;
      },
    };
  }

  async close(): Promise<void> {
    const slots = [...this.sessions.values()].flat();
    this.sessions.clear();
    await Promise.all(slots.map(async (s) => ((await s.session) as Partial<SandboxSession>).close?.()));
  }
}

type Slot = { session: Promise<SandboxSession | { error: string }>; isBusy: boolean; started: SandboxSession | null };

class SandboxSession {
  private constructor(
    private readonly owner: Owner,
    readonly protocol: SpawnerProtocol,
    readonly pipeDir: string,
    private readonly outer: Extract<Launched, { pid: number }>,
    private readonly requests: net.Socket,
  ) {}

  get isOpen(): boolean {
    return this.protocol.isOpen;
  }

  // One of the platform's FIFOs, moved into the sandbox's pipe folder and given to its user (no mkfifo of
  // its own: the folders are on one filesystem, in the data dir).
  async takePipe(): Promise<ReadEnd> {
    const end = await fifoPoolFor(pipeDirOf(this.owner.dataDir)).takeReadEnd();
    const moved = path.join(this.pipeDir, path.basename(end.path));
    giveTo(end.path, this.owner.runAs);
    fs.renameSync(end.path, moved);
    return { readFd: end.readFd, path: moved };
  }

  static async start(
    bwrap: string,
    plan: SandboxPlan,
    owner: Owner,
    k: number,
  ): Promise<SandboxSession | { error: string }> {
    const { dataDir, runAs } = owner;
    const dir = attemptSandboxDirOf(dataDir, owner.runId, owner.n, k);
    const pipeDir = path.join(dir, "pipes");
    const logPath = path.join(dir, "bwrap.log");
    fs.mkdirSync(dir, { recursive: true, mode: 0o711 });
    fs.mkdirSync(pipeDir, { mode: 0o700 });
    giveTo(pipeDir, runAs);
    fs.writeFileSync(logPath, "", { mode: 0o600 });
    const spawner = ensureSandboxSpawner(dataDir);
    const args = bwrapArgs({
      ...plan,
      binds: [...plan.binds, { path: pipeDir, mode: "rw" }, { path: spawner, mode: "ro" }],
    });
    // The platform's own FIFOs carry the requests and the answers (never bound into the sandbox): this side
    // holds the requests' write end and the answers' read end; bwrap gets the other ends as stdin and stdout.
    const control = fifoPoolFor(pipeDirOf(dataDir));
    const answers = await control.takeReadEnd();
    const requestsEnd = await control.takeReadEnd();
    const requestsFd = fs.openSync(requestsEnd.path, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    const outer = await launch({
      file: bwrap,
      args: [...args, spawner, "--inside", pipeDir],
      cwd: "/",
      env: { PATH: config().hostPath ?? "/usr/bin:/bin" },
      stdinPath: requestsEnd.path,
      outPath: answers.path,
      errPath: logPath,
      runAs,
    });
    fs.rmSync(answers.path, { force: true });
    fs.rmSync(requestsEnd.path, { force: true });
    fs.closeSync(requestsEnd.readFd);
    if ("error" in outer) {
      fs.closeSync(requestsFd);
      fs.closeSync(answers.readFd);
      return { error: `the sandbox could not start: ${outer.error}` };
    }
    const requests = new net.Socket({ fd: requestsFd, readable: false, writable: true });
    requests.on("error", () => undefined);
    const protocol = new SpawnerProtocol(
      (data) => requests.write(data),
      () => outer.signal("SIGKILL"),
    );
    const answerStream = new net.Socket({ fd: answers.readFd, readable: true, writable: false });
    answerStream.on("error", () => undefined);
    readline.createInterface({ input: answerStream }).on("line", (line) => protocol.receive(line));
    answerStream.on("close", () => {
      const said = readLog(logPath);
      protocol.closed(`the sandbox stopped${said ? `: ${said}` : ""}`);
    });
    return new SandboxSession(owner, protocol, pipeDir, outer, requests);
  }

  // Its requests end: the spawner inside ends every command left and exits, and bwrap with it.
  async close(): Promise<void> {
    this.requests.end();
    const timer = setTimeout(() => this.outer.signal("SIGKILL"), CLOSE_GRACE_MS);
    await this.outer.exited;
    clearTimeout(timer);
  }
}

function readLog(file: string): string {
  try {
    return fs.readFileSync(file, "utf8").trim().split("\n").slice(-3).join(" · ");
  } catch {
    return "";
  }
}

// The spawner's copy in the data dir, replaced when the installed one differs (an upgrade).
function ensureSandboxSpawner(dataDir: string): string {
  const target = sandboxSpawnerPathOf(dataDir);
  const source = nativeSpawnerPath();
  const have = fs.statSync(target, { throwIfNoEntry: false });
  const want = fs.statSync(source);
  if (have && have.size === want.size && have.mtimeMs >= want.mtimeMs) return target;
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
  const temp = `${target}.${process.pid}.tmp`;
  fs.copyFileSync(source, temp);
  fs.chmodSync(temp, 0o755);
  fs.renameSync(temp, target);
  return target;
}
