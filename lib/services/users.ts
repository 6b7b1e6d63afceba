// People and their roles: admins create users; admins and a Work's leads set roles on that Work.
import type { Actor } from "../auth/actor";
import { hashPassword } from "../auth/passwords";
import { ZMemberRole, ZUserCreate, ZUserUpdate } from "../auth/schemas";
import type { Role } from "../auth/roles";
import { insertAuditEvent } from "../db/audit";
import { deleteRole, findRole, listMembers, upsertRole } from "../db/memberships";
import {
  countSigninAdmins,
  deleteSessionsOfUser,
  lockAdmins,
  findUser,
  findUserByEmail,
  insertUser,
  listUsers,
  updateUser,
  type UserRecord,
} from "../db/users";
import { findWork } from "../db/works";
import { getDb, isUniqueViolation } from "../db/client";
import { AppError, notFound } from "../errors";
import { auditBy, requireAdmin, requireRole } from "./access";
import { parseInput } from "./validate";
import { AUTOMATION_EMAIL } from "../auth/automation";

export async function createUser(actor: Actor, input: unknown): Promise<UserRecord> {
  requireAdmin(actor);
  const { email, password, name, admin } = parseInput(ZUserCreate, input);
  const taken = () =>
    new AppError("validation", `email: ${email} already has an account`, [
      { path: "email", message: `${email} already has an account` },
    ]);
  if (await findUserByEmail({ email })) throw taken();
  // Two requests for the same email at once both pass the look above: the unique index turns the second away.
  const user = await insertUser({
    data: {
      email,
      name: name ?? email.split("@")[0],
      passwordHash: await hashPassword(password),
      isAdmin: admin ?? false,
    },
  }).catch((error: unknown) => {
    throw isUniqueViolation(error) ? taken() : error;
  });
  await insertAuditEvent({
    event: auditBy(actor, {
      action: "user.create",
      summary: `created user ${email}${user.isAdmin ? " (admin)" : ""}`,
      after: { email, name: user.name, isAdmin: user.isAdmin },
    }),
  });
  return user;
}

export async function listAllUsers(actor: Actor): Promise<UserRecord[]> {
  requireAdmin(actor);
  return listUsers();
}

// An admin's change to another person: admin rights, disabled or enabled, a new password. Disabling or a new
// password ends the person's sessions (each browser signs in again); a disabled person's API tokens are
// refused until they are enabled again. All of it is written together, with one audit entry per change.
export async function updateUserByAdmin(actor: Actor, userId: string, input: unknown): Promise<UserRecord> {
  requireAdmin(actor);
  const change = parseInput(ZUserUpdate, input);
  const before = await findUser({ id: userId });
  if (!before) throw notFound("User");
  if (before.email === AUTOMATION_EMAIL)
    throw new AppError(
      "conflict",
      "the automation account is GATEHOUSE_BOOTSTRAP_TOKEN's: it has no password and is turned off by unsetting " +
        "that setting (or revoking its token), not here",
    );
  if (userId === actor.userId) {
    if (change.admin === false) throw new AppError("conflict", "you cannot remove your own admin rights");
    if (change.disabled === true) throw new AppError("conflict", "you cannot disable your own account");
    if (change.password !== undefined)
      throw new AppError("conflict", "change your own password with your current one (POST /api/auth/password)");
  }
  const passwordHash = change.password === undefined ? undefined : await hashPassword(change.password);
  const isDisabled = change.disabled ?? before.disabledAt !== null;
  const events: { action: string; summary: string; before?: object; after?: object }[] = [];
  if (change.admin !== undefined && change.admin !== before.isAdmin)
    events.push({
      action: "user.admin",
      summary: `${change.admin ? "made" : "removed"} ${before.email} ${change.admin ? "an admin" : "as admin"}`,
      before: { isAdmin: before.isAdmin },
      after: { isAdmin: change.admin },
    });
  if (isDisabled !== (before.disabledAt !== null))
    events.push({
      action: isDisabled ? "user.disable" : "user.enable",
      summary: isDisabled
        ? `disabled ${before.email}: cannot sign in, sessions ended, API tokens refused`
        : `enabled ${before.email} again`,
      before: { disabled: !isDisabled },
      after: { disabled: isDisabled },
    });
  if (passwordHash) events.push({ action: "user.password-reset", summary: `set a new password for ${before.email}` });
  return getDb().$transaction(async (db) => {
    // Two admins taking each other's rights at once must not leave none: every admin's row is held first (on
    // PostgreSQL the second such change waits here for the first, then sees it), the actor must still be an
    // admin who can sign in, and after the change at least one admin must be left who can.
    await lockAdmins({ db });
    const self = actor.userId ? await findUser({ id: actor.userId, db }) : null;
    if (actor.userId && (!self?.isAdmin || self.disabledAt))
      throw new AppError("forbidden", "you are no longer an admin who can sign in");
    const user = await updateUser({
      id: userId,
      db,
      data: {
        ...(change.admin === undefined ? {} : { isAdmin: change.admin }),
        ...(isDisabled === (before.disabledAt !== null) ? {} : { disabledAt: isDisabled ? new Date() : null }),
        // A new password also lifts the wait wrong guesses put on the account.
        ...(passwordHash ? { passwordHash, failedSignins: 0, lastFailedAt: null } : {}),
      },
    });
    if ((await countSigninAdmins({ db })) === 0)
      throw new AppError("conflict", "at least one admin must be left who can sign in");
    if ((isDisabled && !before.disabledAt) || passwordHash) await deleteSessionsOfUser({ userId, db });
    for (const event of events) await insertAuditEvent({ db, event: auditBy(actor, event) });
    return user;
  });
}

export async function setMemberRole(
  actor: Actor,
  workId: string,
  userId: string,
  input: unknown,
): Promise<{ userId: string; role: Role }> {
  if (!(await findWork({ id: workId }))) throw notFound("Work");
  await requireRole(actor, workId, "lead");
  const { role } = parseInput(ZMemberRole, input);
  const user = await findUser({ id: userId });
  if (!user) throw notFound("User");
  const before = await findRole({ workId, userId });
  await upsertRole({ workId, userId, role });
  await insertAuditEvent({
    event: auditBy(actor, {
      action: "member.role",
      workId,
      summary: `${user.email}: ${before ?? "no role"} → ${role}`,
      before: { role: before },
      after: { role },
    }),
  });
  return { userId, role };
}

export async function removeMember(actor: Actor, workId: string, userId: string): Promise<void> {
  if (!(await findWork({ id: workId }))) throw notFound("Work");
  await requireRole(actor, workId, "lead");
  const before = await findRole({ workId, userId });
  if (!before) throw notFound("Membership");
  await deleteRole({ workId, userId });
  const user = await findUser({ id: userId });
  await insertAuditEvent({
    event: auditBy(actor, {
      action: "member.remove",
      workId,
      summary: `removed ${user?.email ?? userId} (${before})`,
      before: { role: before },
      after: { role: null },
    }),
  });
}

export async function listWorkMembers(actor: Actor, workId: string) {
  if (!(await findWork({ id: workId }))) throw notFound("Work");
  await requireRole(actor, workId, "viewer");
  return listMembers({ workId });
}

// The Access page adds people by email.
export async function setMemberRoleByEmail(
  actor: Actor,
  workId: string,
  email: string,
  input: unknown,
): Promise<{ userId: string; role: Role }> {
  const user = await findUserByEmail({ email: email.trim().toLowerCase() });
  if (!user)
    throw new AppError("validation", `email: no account has ${email}; an admin adds people first`, [
      { path: "email", message: `no account has ${email}; an admin adds people first` },
    ]);
  return setMemberRole(actor, workId, user.id, input);
}
