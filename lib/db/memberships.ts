// Per-Work roles: one query or command per function.
import type { Role } from "../auth/roles";
import { rowsWhere } from "./by-id";
import { getDb, type DbOrTx } from "./client";

export async function findRole(opts: { workId: string; userId: string; db?: DbOrTx }): Promise<Role | null> {
  // Raw (lib/db/by-id.ts): asked inside every dispatch's transaction, which on PostgreSQL is no Prisma client.
  const [row] = await rowsWhere<{ role: Role }>(
    opts.db ?? getDb(),
    "Membership",
    { workId: opts.workId, userId: opts.userId },
    { select: ["role"] },
  );
  return row?.role ?? null;
}

export async function upsertRole(opts: { workId: string; userId: string; role: Role; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).membership.upsert({
    where: { workId_userId: { workId: opts.workId, userId: opts.userId } },
    create: { workId: opts.workId, userId: opts.userId, role: opts.role },
    update: { role: opts.role },
  });
}

export async function deleteRole(opts: { workId: string; userId: string; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).membership.deleteMany({ where: { workId: opts.workId, userId: opts.userId } });
}

export async function listMembers(opts: {
  workId: string;
  db?: DbOrTx;
}): Promise<{ userId: string; email: string; name: string; role: Role }[]> {
  const rows = await (opts.db ?? getDb()).membership.findMany({
    where: { workId: opts.workId },
    orderBy: { createdAt: "asc" },
    select: { role: true, user: { select: { id: true, email: true, name: true } } },
  });
  return rows.map((r) => ({ userId: r.user.id, email: r.user.email, name: r.user.name, role: r.role }));
}
