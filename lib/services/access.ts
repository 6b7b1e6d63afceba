// Access checks every service runs before acting. A Work the actor cannot see is "not found";
// one they can see but may not change is "forbidden", with the role it takes.
import type { Actor } from "../auth/actor";
import { aRole, roleAllows, type Role, ROLE_CAN } from "../auth/roles";
import { AppError } from "../errors";
import { findRole } from "../db/memberships";
import type { DbOrTx } from "../db/client";
import type { AuditInsert } from "../db/audit";

export async function requireRole(actor: Actor, workId: string, needed: Role, db?: DbOrTx): Promise<Role | "admin"> {
  if (actor.isAdmin) return "admin";
  if (!actor.userId) throw new AppError("unauthorized", "sign in first");
  const held = await findRole({ workId, userId: actor.userId, db });
  if (!held) throw new AppError("not_found", "Work not found");
  if (!roleAllows(held, needed)) {
    throw new AppError(
      "forbidden",
      `this needs the ${needed} role on this Work (${aRole(needed)} may ${ROLE_CAN[needed]}); you are ` +
        `${aRole(held)}`,
    );
  }
  return held;
}

export function requireAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new AppError("forbidden", "only an admin may do this");
}

export function auditBy(actor: Actor, event: Omit<AuditInsert, "actorId" | "actorLabel" | "via">): AuditInsert {
  return { actorId: actor.userId, actorLabel: actor.email ?? actor.label, via: actor.via, ...event };
}

// The actor's standing on a Work, for showing only what they may do (the services still enforce it).
export async function standingOn(actor: Actor, workId: string): Promise<Role | "admin" | null> {
  if (actor.isAdmin) return "admin";
  if (!actor.userId) return null;
  return findRole({ workId, userId: actor.userId });
}

// Whether the actor sees held-out checks whole (their command and log): leads and admins.
export async function seesHiddenChecks(actor: Actor, workId: string): Promise<boolean> {
  return standingAllows(await standingOn(actor, workId), "lead");
}

export function standingAllows(standing: Role | "admin" | null, needed: Role): boolean {
  return standing === "admin" || roleAllows(standing, needed);
}
