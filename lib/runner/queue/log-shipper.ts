// Ships a run's stored logs from the worker's data dir to the database, as they grow: each new range of a
// log file becomes a chunk (at most 1 MB). The files hold what the masker let through, so secrets are
// masked here, on the worker, before anything leaves it. Log files only ever grow while they are written.
import fs from "node:fs";
import path from "node:path";
import { insertLogChunk, listShippedEnds } from "../../db/log-chunks";
import { attemptDirOf } from "../paths";

const CHUNK_BYTES = 1024 * 1024;

export class LogShipper {
  private readonly shipped = new Map<string, Map<string, number>>();
  private readonly shipping = new Map<string, Promise<void>>();

  constructor(private readonly dataDir: string) {}

  // One pass at a time per run (a tick and the final pass must not send a range twice).
  ship(runId: string): Promise<void> {
    const previous = this.shipping.get(runId) ?? Promise.resolve();
    const next = previous
      .then(() => this.shipOnce(runId))
      .catch((error) => {
        console.error(`gatehouse: shipping the logs of run ${runId} failed: ${(error as Error).message}`);
      });
    this.shipping.set(runId, next);
    return next;
  }

  forget(runId: string): void {
    this.shipped.delete(runId);
    this.shipping.delete(runId);
  }

  private async shipOnce(runId: string): Promise<void> {
    const runDir = path.dirname(attemptDirOf(this.dataDir, runId, 1));
    if (!fs.existsSync(runDir)) return;
    // A run this shipper has not followed yet (a later attempt of a run it shipped before, after a restart)
    // goes on from what the database has: sending a range again would break the chunks' uniqueness.
    let offsets = this.shipped.get(runId);
    if (!offsets) {
      offsets = new Map((await listShippedEnds({ runId })).map((e) => [`${e.attemptN}/${e.name}.log`, e.end]));
      this.shipped.set(runId, offsets);
    }
    for (const n of fs.readdirSync(runDir)) {
      if (!/^[1-9][0-9]*$/.test(n)) continue;
      const dir = path.join(runDir, n);
      for (const file of fs.readdirSync(dir)) {
        if (!file.endsWith(".log")) continue;
        const key = `${n}/${file}`;
        const from = offsets.get(key) ?? 0;
        const size = fs.statSync(path.join(dir, file), { throwIfNoEntry: false })?.size ?? 0;
        if (size <= from) continue;
        const fd = fs.openSync(path.join(dir, file), "r");
        try {
          let offset = from;
          while (offset < size) {
            const length = Math.min(CHUNK_BYTES, size - offset);
            const bytes = Buffer.allocUnsafe(length);
            const read = fs.readSync(fd, bytes, 0, length, offset);
            if (read <= 0) break;
            await insertLogChunk({
              runId,
              attemptN: Number(n),
              name: file.slice(0, -".log".length),
              offset,
              bytes: bytes.subarray(0, read),
            });
            offset += read;
            offsets.set(key, offset);
          }
        } finally {
          fs.closeSync(fd);
        }
      }
    }
  }
}
