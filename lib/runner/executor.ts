// Where runs execute. The services only ever talk to this interface: the local executor (SQLite, the
// default) runs up to `concurrency` runs at once in this process, first come first served; the queue
// executor (PostgreSQL, lib/runner/queue) hands them to workers through pg-boss. What pages read about a
// run while it executes comes through the executor's `view`, never from the runner directly.
import { EventEmitter } from "node:events";
import type { DbOrTx } from "../db/client";
import type { StopReason } from "./runner-deps";
import type { RunningCommand } from "./process/process-group";
import { localRunView, type RunView } from "./run-view";

export interface RunExecutor {
  // Queue a run to be advanced (its queued attempt executed). Idempotent while it is queued or active.
  submit(runId: string): void | Promise<void>;
  // Queues a run just inserted, inside the transaction `tx` that inserts it: the run and its queueing are
  // committed together, and nothing is sent before the run is there to be read. False when this executor
  // cannot (then `submit` after the commit).
  enqueueWithin?(runId: string, tx: DbOrTx): Promise<boolean>;
  // Stop a queued or active run; false when this executor does not hold it.
  stop(runId: string, reason: StopReason): boolean | Promise<boolean>;
  // Resolves when the run is neither queued nor active here (for tests and benchmarks).
  whenSettled(runId: string): Promise<void>;
  readonly view: RunView;
}

type Advance = (runId: string, signal: AbortSignal) => Promise<void>;

export class LocalExecutor implements RunExecutor {
  private readonly queue: string[] = [];
  private readonly active = new Map<string, AbortController>();
  private readonly events = new EventEmitter();

  constructor(
    private readonly concurrency: number,
    private readonly advance: Advance,
    readonly view: RunView = localRunView,
  ) {
    this.events.setMaxListeners(0);
  }

  submit(runId: string): void {
    if (this.active.has(runId) || this.queue.includes(runId)) return;
    this.queue.push(runId);
    this.pump();
  }

  stop(runId: string, reason: StopReason): boolean {
    const queuedAt = this.queue.indexOf(runId);
    if (queuedAt !== -1) {
      // Not started yet: run it with an already-aborted signal so it ends the usual way.
      this.queue.splice(queuedAt, 1);
      this.start(runId, reason);
      return true;
    }
    const controller = this.active.get(runId);
    if (!controller) return false;
    controller.abort(reason);
    return true;
  }

  isHolding(runId: string): boolean {
    return this.active.has(runId) || this.queue.includes(runId);
  }

  get activeCount(): number {
    return this.active.size;
  }

  whenSettled(runId: string): Promise<void> {
    if (!this.isHolding(runId)) return Promise.resolve();
    return new Promise((resolve) => {
      const onSettled = (id: string) => {
        if (id !== runId || this.isHolding(runId)) return;
        this.events.off("settled", onSettled);
        resolve();
      };
      this.events.on("settled", onSettled);
    });
  }

  // On shutdown: end every running process group now (the next start records the runs as interrupted).
  killEverything(commands: Iterable<RunningCommand>): void {
    for (const controller of this.active.values()) controller.abort({ kind: "shutdown" } satisfies StopReason);
    for (const command of commands) command.signal("SIGKILL");
  }

  // Stops every queued and active run as a shutdown does and resolves once none is left (a run that ends
  // may dispatch the next, a stage's autoAdvance: that one is stopped too). For tests and benchmarks about to
  // remove the database their runs write to.
  async stopAll(): Promise<void> {
    while (this.active.size > 0 || this.queue.length > 0) {
      const settled = new Promise((resolve) => this.events.once("settled", resolve));
      for (const runId of [...this.queue, ...this.active.keys()]) this.stop(runId, { kind: "shutdown" });
      await settled;
    }
  }

  private pump(): void {
    while (this.active.size < this.concurrency && this.queue.length > 0) this.start(this.queue.shift()!);
  }

  private start(runId: string, abortWith?: StopReason): void {
    const controller = new AbortController();
    if (abortWith) controller.abort(abortWith);
    this.active.set(runId, controller);
    void this.advance(runId, controller.signal)
      .catch((error) => console.error(`gatehouse: run ${runId} failed unexpectedly`, error))
      .finally(() => {
        if (this.active.get(runId) === controller) this.active.delete(runId);
        this.events.emit("settled", runId);
        this.pump();
      });
  }
}
