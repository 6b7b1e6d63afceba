// Users, sessions and API tokens: one query or command per function.
import { getDb, type DbOrTx } from "./client";
import type { Prisma } from "./models";

const userSelect = {
  id: true,
  email: true,
  name: true,
  isAdmin: true,
  disabledAt: true,
  createdAt: true,
} satisfies Prisma.UserSelect;
const userWithSecretSelect = {
  ...userSelect,
  passwordHash: true,
  failedSignins: true,
  lastFailedAt: true,
} satisfies Prisma.UserSelect;
export type UserRecord = Prisma.UserGetPayload<{ select: typeof userSelect }>;
export type UserWithSecret = Prisma.UserGetPayload<{ select: typeof userWithSecretSelect }>;

export async function countUsers(opts: { db?: DbOrTx } = {}): Promise<number> {
  return (opts.db ?? getDb()).user.count();
}

export async function findUserByEmail(opts: { email: string; db?: DbOrTx }): Promise<UserWithSecret | null> {
  return (opts.db ?? getDb()).user.findUnique({
    where: { email: opts.email },
    select: userWithSecretSelect,
  });
}

export async function findUser(opts: { id: string; db?: DbOrTx }): Promise<UserRecord | null> {
  return (opts.db ?? getDb()).user.findUnique({ where: { id: opts.id }, select: userSelect });
}

export async function listUsers(opts: { db?: DbOrTx } = {}): Promise<UserRecord[]> {
  return (opts.db ?? getDb()).user.findMany({ orderBy: { createdAt: "asc" }, select: userSelect });
}

export async function insertUser(opts: {
  data: { email: string; name: string; passwordHash: string; isAdmin: boolean };
  db?: DbOrTx;
}): Promise<UserRecord> {
  return (opts.db ?? getDb()).user.create({ data: opts.data, select: userSelect });
}

export async function updateUser(opts: {
  id: string;
  data: Partial<{
    name: string;
    isAdmin: boolean;
    passwordHash: string;
    disabledAt: Date | null;
    failedSignins: number;
    lastFailedAt: Date | null;
  }>;
  db?: DbOrTx;
}): Promise<UserRecord> {
  return (opts.db ?? getDb()).user.update({ where: { id: opts.id }, data: opts.data, select: userSelect });
}

export async function recordSigninFailure(opts: { id: string; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).user.update({
    where: { id: opts.id },
    data: { failedSignins: { increment: 1 }, lastFailedAt: new Date() },
    select: { id: true },
  });
}

export async function clearSigninFailures(opts: { id: string; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).user.update({
    where: { id: opts.id },
    data: { failedSignins: 0, lastFailedAt: null },
    select: { id: true },
  });
}

export async function insertSession(opts: { id: string; userId: string; expiresAt: Date; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).session.create({
    data: { id: opts.id, userId: opts.userId, expiresAt: opts.expiresAt },
    select: { id: true },
  });
}

export async function findSessionUser(opts: {
  id: string;
  db?: DbOrTx;
}): Promise<{ user: UserRecord; expiresAt: Date; lastSeenAt: Date } | null> {
  const row = await (opts.db ?? getDb()).session.findUnique({
    where: { id: opts.id },
    select: { expiresAt: true, lastSeenAt: true, user: { select: userSelect } },
  });
  return row;
}

export async function touchSession(opts: { id: string; expiresAt: Date; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).session.updateMany({
    where: { id: opts.id },
    data: { lastSeenAt: new Date(), expiresAt: opts.expiresAt },
  });
}

export async function deleteSession(opts: { id: string; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).session.deleteMany({ where: { id: opts.id } });
}

// Ends every session of a person (disabled, or given a new password): each browser signs in again; but
// the one `exceptId` names (the browser that changed its own password stays signed in).
export async function deleteSessionsOfUser(opts: { userId: string; exceptId?: string; db?: DbOrTx }): Promise<number> {
  const where = { userId: opts.userId, ...(opts.exceptId ? { id: { not: opts.exceptId } } : {}) };
  return (await (opts.db ?? getDb()).session.deleteMany({ where })).count;
}

const tokenSelect = {
  id: true,
  userId: true,
  name: true,
  hint: true,
  isBootstrap: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} satisfies Prisma.ApiTokenSelect;
export type TokenRecord = Prisma.ApiTokenGetPayload<{ select: typeof tokenSelect }>;

export async function insertToken(opts: {
  data: { userId: string; name: string; tokenHash: string; hint: string; isBootstrap?: boolean };
  db?: DbOrTx;
}): Promise<TokenRecord> {
  return (opts.db ?? getDb()).apiToken.create({ data: opts.data, select: tokenSelect });
}

export async function findTokenUser(opts: {
  tokenHash: string;
  db?: DbOrTx;
}): Promise<{ token: TokenRecord; user: UserRecord } | null> {
  const row = await (opts.db ?? getDb()).apiToken.findUnique({
    where: { tokenHash: opts.tokenHash },
    select: { ...tokenSelect, user: { select: userSelect } },
  });
  if (!row) return null;
  const { user, ...token } = row;
  return { token, user };
}

export async function listTokensOfUser(opts: { userId: string; db?: DbOrTx }): Promise<TokenRecord[]> {
  return (opts.db ?? getDb()).apiToken.findMany({
    where: { userId: opts.userId },
    orderBy: { createdAt: "desc" },
    select: tokenSelect,
  });
}

export async function markTokenUsed(opts: { id: string; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).apiToken.update({
    where: { id: opts.id },
    data: { lastUsedAt: new Date() },
    select: { id: true },
  });
}

export async function revokeToken(opts: { id: string; userId?: string; db?: DbOrTx }): Promise<boolean> {
  const result = await (opts.db ?? getDb()).apiToken.updateMany({
    where: { id: opts.id, revokedAt: null, ...(opts.userId ? { userId: opts.userId } : {}) },
    data: { revokedAt: new Date() },
  });
  return result.count > 0;
}

export async function revokeBootstrapTokensExcept(opts: { tokenHash: string; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).apiToken.updateMany({
    where: { isBootstrap: true, revokedAt: null, NOT: { tokenHash: opts.tokenHash } },
    data: { revokedAt: new Date() },
  });
}

export async function restoreToken(opts: { id: string; db?: DbOrTx }): Promise<void> {
  await (opts.db ?? getDb()).apiToken.update({
    where: { id: opts.id },
    data: { revokedAt: null },
    select: { id: true },
  });
}

// Holds every admin's row until the transaction ends (an admin's change to admins waits for another's).
export async function lockAdmins(opts: { db: DbOrTx }): Promise<void> {
  await opts.db.user.updateMany({ where: { isAdmin: true }, data: { updatedAt: new Date() } });
}

// Admins who can sign in (not disabled).
export async function countSigninAdmins(opts: { db?: DbOrTx } = {}): Promise<number> {
  return (opts.db ?? getDb()).user.count({ where: { isAdmin: true, disabledAt: null } });
}
