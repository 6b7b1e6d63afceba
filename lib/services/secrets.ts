// A Work's secrets, for leads: names are listed, values are write-only (never returned, never logged).
import type { Actor } from "../auth/actor";
import { sealSecret } from "../auth/secret-box";
import { ZSecretName, ZSecretValue } from "../auth/schemas";
import { ZEnvName } from "../gates/env-names";
import { insertAuditEvent } from "../db/audit";
import { deleteSecret, listSecretNames, upsertSecret, type SecretName } from "../db/secrets";
import { findWork } from "../db/works";
import { AppError, notFound } from "../errors";
import { auditBy, requireRole } from "./access";
import { parseInput } from "./validate";

async function requireLeadOf(actor: Actor, workId: string): Promise<void> {
  if (!(await findWork({ id: workId }))) throw notFound("Work");
  await requireRole(actor, workId, "lead");
}

// A name to set a secret under; to delete one, any name a secret could have been stored under before
// (ZEnvName: the runner's own names were refused for new secrets later).
function parseName(name: string, schema: typeof ZEnvName = ZSecretName): string {
  const parsed = schema.safeParse(name);
  if (!parsed.success)
    throw new AppError("validation", `name: ${parsed.error.issues[0].message}`, [
      { path: "name", message: parsed.error.issues[0].message },
    ]);
  return name;
}

export async function listSecrets(actor: Actor, workId: string): Promise<SecretName[]> {
  await requireLeadOf(actor, workId);
  return listSecretNames({ workId });
}

export async function setSecret(
  actor: Actor,
  workId: string,
  name: string,
  input: unknown,
): Promise<{ name: string; created: boolean }> {
  await requireLeadOf(actor, workId);
  parseName(name);
  const { value } = parseInput(ZSecretValue, input);
  const existed = await upsertSecret({ workId, name, ciphertext: sealSecret(value), userId: actor.userId });
  await insertAuditEvent({
    event: auditBy(actor, {
      action: existed ? "secret.update" : "secret.create",
      workId,
      summary: `${existed ? "changed" : "set"} secret ${name}`,
    }),
  });
  return { name, created: !existed };
}

export async function removeSecret(actor: Actor, workId: string, name: string): Promise<void> {
  await requireLeadOf(actor, workId);
  parseName(name, ZEnvName);
  if (!(await deleteSecret({ workId, name }))) throw notFound(`Secret ${name}`);
  await insertAuditEvent({
    event: auditBy(actor, { action: "secret.delete", workId, summary: `deleted secret ${name}` }),
  });
}
