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

// How far each log of a run has been shipped: per attempt and name, the end of its last chunk (what a
// worker that ships the run again — a later attempt of it, a restart — goes on from).
export async function listShippedEnds(opts: {
  runId: string;
  db?: DbOrTx;
}): Promise<{ attemptN: number; name: string; end: number }[]> {
  const rows = await (opts.db ?? getDb()).$queryRaw<{ attemptN: number; name: string; end: bigint | number }[]>`
    SELECT "attemptN", "name", MAX("offset" + length("bytes")) AS "end" FROM "LogChunk"
    WHERE "runId" = ${opts.runId} GROUP BY "attemptN", "name"`;
  return rows.map((r) => ({ attemptN: Number(r.attemptN), name: r.name, end: Number(r.end) }));
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
