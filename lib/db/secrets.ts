// Work secrets: names are readable, values only as ciphertext (decrypted by the runner alone).
import { rowsWhere } from "./by-id";
import { getDb, type DbOrTx } from "./client";
import type { Prisma } from "./models";

const nameSelect = { name: true, updatedAt: true, updatedById: true } satisfies Prisma.SecretSelect;
export type SecretName = Prisma.SecretGetPayload<{ select: typeof nameSelect }>;

export async function listSecretNames(opts: { workId: string; db?: DbOrTx }): Promise<SecretName[]> {
  return (opts.db ?? getDb()).secret.findMany({
    where: { workId: opts.workId },
    orderBy: { name: "asc" },
    select: nameSelect,
  });
}

export async function listSealedSecrets(opts: {
  workId: string;
  db?: DbOrTx;
}): Promise<{ name: string; ciphertext: string }[]> {
  // Raw (by-id.ts): every run reads them as it starts.
  return rowsWhere(opts.db ?? getDb(), "Secret", { workId: opts.workId }, { select: ["name", "ciphertext"] });
}

// Returns whether the secret existed before (an update) or not (a new one).
export async function upsertSecret(opts: {
  workId: string;
  name: string;
  ciphertext: string;
  userId: string | null;
  db?: DbOrTx;
}): Promise<boolean> {
  const db = opts.db ?? getDb();
  const existing = await db.secret.findUnique({
    where: { workId_name: { workId: opts.workId, name: opts.name } },
    select: { id: true },
  });
  await db.secret.upsert({
    where: { workId_name: { workId: opts.workId, name: opts.name } },
    create: { workId: opts.workId, name: opts.name, ciphertext: opts.ciphertext, updatedById: opts.userId },
    update: { ciphertext: opts.ciphertext, updatedById: opts.userId },
    select: { id: true },
  });
  return !!existing;
}

export async function deleteSecret(opts: { workId: string; name: string; db?: DbOrTx }): Promise<boolean> {
  const result = await (opts.db ?? getDb()).secret.deleteMany({ where: { workId: opts.workId, name: opts.name } });
  return result.count > 0;
}
