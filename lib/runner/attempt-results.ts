// An attempt's check results while it runs. They live in memory — the dashboard reads them from here —
// and are written to the database behind the checks: at most once a second while they change, and at
// the end. Per check that is no database write at all, which keeps a run of many quick checks close to
// the speed of running the commands. (After a crash, recovery writes the frozen checks as interrupted.)
import { insertResults, resultRecordOf, upsertResults, type QueuedResult, type ResultRecord } from "../db/runs";
import type { EffectiveCheck } from "../gates/merge-checks";

const WRITE_BEHIND_MS = 1000;

// One result row per frozen check, all with the same outcome (queued, skipped, error…).
export function rowsFor(
  checks: readonly Pick<EffectiveCheck, "id" | "name" | "kind" | "required">[],
  outcome: Partial<QueuedResult>,
): QueuedResult[] {
  return checks.map((c) => ({ ...outcome, checkId: c.id, name: c.name, kind: c.kind, required: c.required }));
}

type Row = QueuedResult & { checkId: string };

export class AttemptResults {
  private readonly rows: Row[];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private hasWritten = false;
  private isClosed = false;
  // The rows as last handed to the database, and as last saved there: a write of the same rows is not sent
  // again (a run whose check sleeps is published every half second, its rows unchanged).
  private lastQueued: string | null = null;
  private lastSaved: string | null = null;

  constructor(
    readonly runId: string,
    readonly attempt: { id: string; n: number },
    checks: readonly EffectiveCheck[],
  ) {
    this.rows = rowsFor(checks, { verdict: "queued" });
  }

  open(): void {
    live.set(keyOf(this.runId, this.attempt.n), this);
    this.scheduleWrite();
  }

  private scheduleWrite(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.write();
    }, WRITE_BEHIND_MS).unref();
  }

  // A row no frozen check defines (a proof row), after the checks' rows.
  add(row: QueuedResult): void {
    if (this.rows.some((r) => r.checkId === row.checkId)) this.update(row.checkId, row);
    else this.rows.push({ ...row });
    this.scheduleWrite();
  }

  update(checkId: string, changes: Partial<QueuedResult>): void {
    const row = this.rows.find((r) => r.checkId === checkId);
    if (!row) return;
    Object.assign(row, changes);
    this.scheduleWrite();
  }

  // With workers: the rows as they stand, running checks with their live tails, written now (the web
  // server reads them from the database). Queued behind earlier writes, so the final write stays last.
  publish(liveOf: (checkId: string) => { tail: string; bytes: number } | undefined): void {
    if (this.isClosed) return;
    void this.write((r) => {
      const live = r.verdict === "running" ? liveOf(r.checkId) : undefined;
      return live ? { ...r, logTail: live.tail, logBytes: live.bytes } : { ...r };
    });
  }

  private write(copy: (row: Row) => Row = (r) => ({ ...r })): Promise<void> {
    const snapshot = this.rows.map(copy);
    const written = JSON.stringify(snapshot);
    if (written === this.lastQueued) return this.writing;
    this.lastQueued = written;
    const isFirst = !this.hasWritten;
    this.hasWritten = true;
    const save = () =>
      isFirst
        ? insertResults({
            attemptId: this.attempt.id,
            runId: this.runId,
            logAttempt: this.attempt.n,
            results: snapshot,
          })
        : upsertResults({
            attemptId: this.attempt.id,
            runId: this.runId,
            logAttempt: this.attempt.n,
            results: snapshot,
          });
    this.writing = this.writing
      .then(save)
      .then(() => {
        this.lastSaved = written;
      })
      .catch((error) => {
        // Not saved: the next write of these rows is sent again.
        if (this.lastQueued === written) this.lastQueued = null;
        console.error(`gatehouse: could not save results of run ${this.runId} attempt ${this.attempt.n}`, error);
      });
    return this.writing;
  }

  // Writes what stands now and stops being the live copy.
  async close(): Promise<void> {
    this.isClosed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // The rows as they stand are in the database once this resolves, even when an earlier write of them failed.
    await this.writing;
    if (JSON.stringify(this.rows) !== this.lastSaved) {
      this.lastQueued = null;
      await this.write();
    }
    live.delete(keyOf(this.runId, this.attempt.n));
  }

  view(): ResultRecord[] {
    return this.rows.map((r, position) =>
      resultRecordOf(r, position, {
        id: `${this.attempt.id}:${r.checkId}`,
        attemptId: this.attempt.id,
        runId: this.runId,
        logAttempt: this.attempt.n,
      }),
    );
  }
}

const holder = globalThis as unknown as { __gatehouseLiveResults?: Map<string, AttemptResults> };
holder.__gatehouseLiveResults ??= new Map<string, AttemptResults>();
const live = holder.__gatehouseLiveResults;
const keyOf = (runId: string, n: number) => `${runId}/${n}`;

export function findLiveResults(runId: string, n: number): AttemptResults | undefined {
  return live.get(keyOf(runId, n));
}

export function liveResultsOfRun(runId: string): AttemptResults[] {
  return [...live.values()].filter((r) => r.runId === runId);
}
