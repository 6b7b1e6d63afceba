// Signing in, sessions, API tokens and the first admin. Wrong passwords are slowed per account and
// per client address; every sign-in (and failure) is audited; tokens and sessions are stored hashed.
import type { Actor } from "../auth/actor";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../auth/passwords";
import { ZFirstAdmin, ZPasswordChange, ZSignIn, ZTokenCreate, ZTokenRequest } from "../auth/schemas";
import { FREE_PER_ACCOUNT, keyFailed, keySucceeded, keyWait, remainingWait } from "../auth/throttle";
import { API_TOKEN_PREFIX, newSecret, SESSION_DAYS, sha256 } from "../auth/tokens";
import { getDb } from "../db/client";
import { insertAuditEvent } from "../db/audit";
import {
  clearSigninFailures,
  countUsers,
  deleteSession,
  deleteSessionsOfUser,
  findSessionUser,
  findTokenUser,
  findUserByEmail,
  insertSession,
  insertToken,
  insertUser,
  listTokensOfUser,
  markTokenUsed,
  recordSigninFailure,
  revokeToken,
  touchSession,
  updateUser,
  type TokenRecord,
  type UserRecord,
} from "../db/users";
import { AppError } from "../errors";
import { auditBy } from "./access";
import { parseInput } from "./validate";

function actorOf(user: UserRecord, via: Actor["via"], tokenId: string | null = null): Actor {
  return { userId: user.id, label: user.name, email: user.email, isAdmin: user.isAdmin, via, tokenId };
}

function tooMany(ms: number): AppError {
  return new AppError("too_many", `too many wrong passwords: try again in ${Math.ceil(ms / 1000)} s`);
}

// Password checks of one account, one at a time in this process: each reads the failures the one before it
// recorded, so guesses sent all at once are slowed like guesses sent one after another (in parallel, each read
// the count before any failure was written, and dozens were checked against an allowance of five).
const checking = new Map<string, Promise<unknown>>();
async function oneAtATime<T>(key: string, check: () => Promise<T>): Promise<T> {
  const next = (checking.get(key) ?? Promise.resolve()).catch(() => undefined).then(check);
  checking.set(key, next);
  try {
    return await next;
  } finally {
    if (checking.get(key) === next) checking.delete(key);
  }
}

// Checks an email and password, slowing repeated failures. Returns the user or throws.
function checkPassword(email: string, password: string, address: string | null): Promise<UserRecord> {
  return oneAtATime(email.toLowerCase(), () => checkPasswordNow(email, password, address));
}

async function checkPasswordNow(email: string, password: string, address: string | null): Promise<UserRecord> {
  const addressKey = address ? `addr:${address}` : null;
  const waitAddress = addressKey ? keyWait(addressKey) : 0;
  if (waitAddress > 0) throw tooMany(waitAddress);
  const user = await findUserByEmail({ email });
  // Unknown emails are slowed like accounts, and cost the same scrypt hash, so neither the answer nor
  // its timing says whether an account exists.
  const unknownKey = `unknown:${email}`;
  const wait = user
    ? remainingWait(user.failedSignins, user.lastFailedAt)
    : keyWait(unknownKey, Date.now(), FREE_PER_ACCOUNT, false);
  if (wait > 0) throw tooMany(wait);
  let isRight = false;
  if (user) isRight = await verifyPassword(password, user.passwordHash);
  else await burnPasswordCheck(password);
  if (!user || !isRight) {
    if (addressKey) keyFailed(addressKey);
    if (user) await recordSigninFailure({ id: user.id });
    else keyFailed(unknownKey);
    await insertAuditEvent({
      event: {
        actorId: user?.id ?? null,
        actorLabel: email,
        via: "session",
        action: "auth.signin-failed",
        summary: `wrong email or password for ${email}${address ? ` from ${address}` : ""}`,
      },
    });
    throw new AppError("unauthorized", "wrong email or password");
  }
  if (addressKey) keySucceeded(addressKey);
  if (user.failedSignins > 0) await clearSigninFailures({ id: user.id });
  // Told only to whoever knows the password: to anyone else a disabled account reads as any wrong guess.
  if (user.disabledAt) {
    await insertAuditEvent({
      event: {
        actorId: user.id,
        actorLabel: user.email,
        via: "session",
        action: "auth.signin-refused",
        summary: `refused ${user.email}: the account is disabled${address ? ` (from ${address})` : ""}`,
      },
    });
    throw new AppError("forbidden", "this account is disabled: ask an admin to enable it");
  }
  return user;
}

export async function signIn(
  input: unknown,
  address: string | null,
): Promise<{ user: UserRecord; token: string; expiresAt: Date }> {
  const { email, password } = parseInput(ZSignIn, input);
  const user = await checkPassword(email, password, address);
  const token = newSecret("");
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  await insertSession({ id: sha256(token), userId: user.id, expiresAt });
  await insertAuditEvent({
    event: {
      actorId: user.id,
      actorLabel: user.email,
      via: "session",
      action: "auth.signin",
      summary: address ? `signed in from ${address}` : "signed in",
    },
  });
  return { user, token, expiresAt };
}

export async function signOut(sessionToken: string): Promise<void> {
  await deleteSession({ id: sha256(sessionToken) });
}

// A session cookie's user; sessions slide forward when used (at most one write per hour).
export async function actorFromSession(sessionToken: string): Promise<Actor | null> {
  const id = sha256(sessionToken);
  const found = await findSessionUser({ id });
  if (!found || found.user.disabledAt) return null;
  if (found.expiresAt.getTime() < Date.now()) {
    await deleteSession({ id });
    return null;
  }
  if (Date.now() - found.lastSeenAt.getTime() > 3_600_000)
    await touchSession({ id, expiresAt: new Date(Date.now() + SESSION_DAYS * 86_400_000) });
  return actorOf(found.user, "session");
}

// A bearer token's user; use is recorded (last-used time, and an audit entry at most once an hour).
export async function actorFromBearer(token: string): Promise<Actor | null> {
  const found = await findTokenUser({ tokenHash: sha256(token) });
  if (!found || found.token.revokedAt) return null;
  // Its holder has the token: telling them why it stopped working tells no one else anything.
  if (found.user.disabledAt)
    throw new AppError("unauthorized", "this API token's account is disabled: an admin can enable it again");
  const last = found.token.lastUsedAt?.getTime() ?? 0;
  if (Date.now() - last > 60_000) await markTokenUsed({ id: found.token.id });
  if (Date.now() - last > 3_600_000) {
    await insertAuditEvent({
      event: {
        actorId: found.user.id,
        actorLabel: found.user.email,
        via: "token",
        action: "auth.token-used",
        summary: `used API token "${found.token.name}" (…${found.token.hint})`,
      },
    });
  }
  return actorOf(found.user, "token", found.token.id);
}

async function issueToken(
  user: Pick<UserRecord, "id" | "email">,
  name: string,
  via: string,
): Promise<{ token: string; record: TokenRecord }> {
  const token = newSecret(API_TOKEN_PREFIX);
  const record = await insertToken({
    data: { userId: user.id, name, tokenHash: sha256(token), hint: token.slice(-4) },
  });
  await insertAuditEvent({
    event: {
      actorId: user.id,
      actorLabel: user.email,
      via,
      action: "auth.token-created",
      summary: `created API token "${name}" (…${record.hint})`,
    },
  });
  return { token, record };
}

// POST /api/auth/token: email, password and a name for the token.
export async function createTokenWithPassword(
  input: unknown,
  address: string | null,
): Promise<{ token: string; record: TokenRecord }> {
  const { email, password, name } = parseInput(ZTokenRequest, input);
  const user = await checkPassword(email, password, address);
  return issueToken(user, name, "token");
}

export async function createTokenForActor(
  actor: Actor,
  input: unknown,
): Promise<{ token: string; record: TokenRecord }> {
  const { name } = parseInput(ZTokenCreate, input);
  if (!actor.userId || !actor.email) throw new AppError("unauthorized", "sign in first");
  return issueToken({ id: actor.userId, email: actor.email }, name, actor.via);
}

export async function listTokensOfActor(actor: Actor): Promise<TokenRecord[]> {
  if (!actor.userId) return [];
  return listTokensOfUser({ userId: actor.userId });
}

export async function revokeTokenOfActor(actor: Actor, tokenId: string): Promise<void> {
  if (!actor.userId) throw new AppError("unauthorized", "sign in first");
  const ok = await revokeToken({ id: tokenId, userId: actor.isAdmin ? undefined : actor.userId });
  if (!ok) throw new AppError("not_found", "token not found (or already revoked)");
  await insertAuditEvent({
    event: auditBy(actor, { action: "auth.token-revoked", summary: `revoked an API token (${tokenId})` }),
  });
}

// One's own new password, given the current one (slowed and audited like a sign-in when it is wrong). Every
// other session of the person ends; the browser that asked (`keepSessionToken`) stays signed in. API tokens
// are not passwords and keep working.
export async function changeOwnPassword(
  actor: Actor,
  input: unknown,
  opts: { address: string | null; keepSessionToken: string | null },
): Promise<{ endedSessions: number }> {
  if (!actor.userId || !actor.email) throw new AppError("unauthorized", "sign in first");
  const { currentPassword, newPassword } = parseInput(ZPasswordChange, input);
  const notYours = () =>
    new AppError("validation", "currentPassword: not your current password", [
      { path: "currentPassword", message: "not your current password" },
    ]);
  await checkPassword(actor.email, currentPassword, opts.address).catch((error: unknown) => {
    throw error instanceof AppError && error.code === "unauthorized" ? notYours() : error;
  });
  if (newPassword === currentPassword)
    throw new AppError("validation", "newPassword: is your current password", [
      { path: "newPassword", message: "is your current password" },
    ]);
  const passwordHash = await hashPassword(newPassword);
  const userId = actor.userId;
  return getDb().$transaction(async (db) => {
    await updateUser({ id: userId, db, data: { passwordHash } });
    const exceptId = opts.keepSessionToken ? sha256(opts.keepSessionToken) : undefined;
    const endedSessions = await deleteSessionsOfUser({ userId, exceptId, db });
    await insertAuditEvent({
      db,
      event: auditBy(actor, {
        action: "auth.password-changed",
        summary:
          endedSessions === 0
            ? "changed their password"
            : `changed their password; ${endedSessions} other ${endedSessions === 1 ? "session" : "sessions"} ended`,
      }),
    });
    return { endedSessions };
  });
}

export async function needsFirstAdmin(): Promise<boolean> {
  return (await countUsers()) === 0;
}

// The first-run flow: only while no user exists.
export async function createFirstAdmin(input: unknown): Promise<UserRecord> {
  const { email, name, password } = parseInput(ZFirstAdmin, input);
  const passwordHash = await hashPassword(password);
  return getDb().$transaction(async (tx) => {
    if ((await countUsers({ db: tx })) > 0) throw new AppError("conflict", "an admin already exists: sign in instead");
    const user = await insertUser({ data: { email, name, passwordHash, isAdmin: true }, db: tx });
    await insertAuditEvent({
      event: {
        actorId: user.id,
        actorLabel: email,
        via: "session",
        action: "user.create",
        summary: `created the first admin ${email}`,
      },
      db: tx,
    });
    return user;
  });
}
