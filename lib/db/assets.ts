// Work assets: one query or command per function. Contents are read only by the runner.
import { rowsWhere } from "./by-id";
import { getDb, type DbOrTx } from "./client";
import type { Prisma } from "./models";

const listSelect = {
  name: true,
  size: true,
  sha256: true,
  createdAt: true,
  createdById: true,
} satisfies Prisma.WorkAssetSelect;
export type AssetInfo = Prisma.WorkAssetGetPayload<{ select: typeof listSelect }>;

export async function listAssets(opts: { workId: string; db?: DbOrTx }): Promise<AssetInfo[]> {
  return (opts.db ?? getDb()).workAsset.findMany({
    where: { workId: opts.workId },
    orderBy: { name: "asc" },
    select: listSelect,
  });
}

export async function listAssetContents(opts: {
  workId: string;
  db?: DbOrTx;
}): Promise<{ name: string; content: Uint8Array }[]> {
  // Raw (by-id.ts): every run reads them as it starts.
  return rowsWhere(opts.db ?? getDb(), "WorkAsset", { workId: opts.workId }, { select: ["name", "content"] });
}

// Returns whether an asset of that name existed before (a replacement).
export async function upsertAsset(opts: {
  workId: string;
  name: string;
  content: Uint8Array;
  sha256: string;
  userId: string | null;
  db?: DbOrTx;
}): Promise<boolean> {
  const db = opts.db ?? getDb();
  const where = { workId_name: { workId: opts.workId, name: opts.name } };
  const existing = await db.workAsset.findUnique({ where, select: { id: true } });
  const data = {
    content: opts.content as Uint8Array<ArrayBuffer>,
    size: opts.content.byteLength,
    sha256: opts.sha256,
    createdById: opts.userId,
  };
  await db.workAsset.upsert({
    where,
    create: { workId: opts.workId, name: opts.name, ...data },
    update: { ...data, createdAt: new Date() },
  });
  return existing !== null;
}

export async function deleteAsset(opts: { workId: string; name: string; db?: DbOrTx }): Promise<boolean> {
  const result = await (opts.db ?? getDb()).workAsset.deleteMany({ where: { workId: opts.workId, name: opts.name } });
  return result.count > 0;
}
