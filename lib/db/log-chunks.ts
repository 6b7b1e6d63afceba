// Logs shipped by workers: each a sequence of byte ranges of the stored (masked) log file.
import { getDb, type DbOrTx } from "./client";

export type LogKey = { runId: string; attemptN: number; name: string };

export async function insertLogChunk(opts: LogKey & { offset: number; bytes: Buffer; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).logChunk.create({
    data: {
      runId: opts.runId,
      attemptN: opts.attemptN,
      name: opts.name,
      offset: BigInt(opts.offset),
      bytes: new Uint8Array(opts.bytes),
    },
    select: { id: true },
  });
}

// The chunks from byte `from` on, in order (a reader appends them to its own copy).
export async function listLogChunks(
  opts: LogKey & { from: number; db?: DbOrTx },
): Promise<{ offset: number; bytes: Buffer }[]> {
  const rows = await (opts.db ?? getDb()).logChunk.findMany({
    where: { runId: opts.runId, attemptN: opts.attemptN, name: opts.name, offset: { gte: BigInt(opts.from) } },
    orderBy: { offset: "asc" },
    select: { offset: true, bytes: true },
  });
  return rows.map((r) => ({ offset: Number(r.offset), bytes: Buffer.from(r.bytes) }));
}
