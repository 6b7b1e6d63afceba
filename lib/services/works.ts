// Works: create, read, change (with version), list — authorized, validated, audited.
import type { Actor } from "../auth/actor";
import { AppError, notFound } from "../errors";
import { freeKeyPrefix, keyPrefixFor } from "../gates/task-keys";
import { ZWorkCreate, ZWorkPatch } from "../gates/work-schema";
import { SETTING_WORDS, type SettingKey } from "../gates/work-settings";
import { getDb, isUniqueViolation } from "../db/client";
import { insertAuditEvent } from "../db/audit";
import { upsertRole } from "../db/memberships";
import {
  findSealedWebhooks,
  findWork,
  findWorkNamedLike,
  insertWork,
  lockWorkIdentities,
  listKeyPrefixesFrom,
  listWorks,
  updateWorkAtVersion,
  type WorkChanges,
  type WorkRecord,
} from "../db/works";
import { randomUUID } from "node:crypto";
import { sealSecret } from "../auth/secret-box";
import { resolveWebhookSecrets, type Webhook } from "../gates/webhooks";
import { auditBy, requireAdmin, requireRole } from "./access";
import { listSecretNames } from "../db/secrets";
import { unknownSecretIssues, type CheckSource } from "../gates/check-sources";
import type { DbOrTx } from "../db/client";
import { parseInput, refuseIssues } from "./validate";
import { expandAgentPreset } from "./agent-presets";
import { refuseOutOfReachRepositories } from "./work-repositories";
import type { SandboxMount } from "../gates/sandbox-settings";
import { dataDir } from "../config/database-url";
import { findLane, sameLane, type Lane } from "../gates/lanes";
import { listActiveStageRuns } from "../db/runs";
import { installDir } from "../config/install-dir";
import { mountPlatformProblem, realPathOf } from "../runner/sandbox/real-path";

export async function createWork(actor: Actor, input: unknown): Promise<WorkRecord> {
  requireAdmin(actor);
  const data = parseInput(ZWorkCreate, expandAgentPreset(input));
  await refuseOutOfReachRepositories(actor, data, null);
  // A new Work has no secrets yet: a check source naming one is refused (add the secret, then the source).
  refuseIssues(secretIssues(data.checkSources, []));
  refuseIssues(mountIssues(data.sandboxMounts));
  const webhooks = sealedWebhooks(data.webhooks, []);
  return insertWithFreeKeyPrefix(async (tx) => {
    await lockWorkIdentities({ db: tx });
    await refuseTakenName(data.name, null, tx);
    const taken = await listKeyPrefixesFrom({ base: keyPrefixFor(data.name), db: tx });
    const keyPrefix = freeKeyPrefix(data.name, (p) => taken.has(p));
    const work = await insertWork({ data: { ...data, webhooks, keyPrefix }, db: tx });
    if (actor.userId) await upsertRole({ workId: work.id, userId: actor.userId, role: "lead", db: tx });
    await insertAuditEvent({
      event: auditBy(actor, {
        action: "work.create",
        workId: work.id,
        summary: `created Work "${work.name}"`,
        after: settingsOf(work),
      }),
      db: tx,
    });
    return work;
  });
}

// A name another Work has (as a reader sees it: workNameKey) is refused, naming the field: the inbox's filter,
// the CLI's --work and people tell Works apart by name. Read in the saving transaction.
async function refuseTakenName(name: string, exceptId: string | null, db: DbOrTx): Promise<void> {
  const other = await findWorkNamedLike({ name, exceptId: exceptId ?? undefined, db });
  if (other)
    refuseIssues([{ path: "name", message: `another Work is named "${other.name}": give this one a name of its own` }]);
}

// Works created at once take turns (lockWorkIdentities); should two still pick the same free prefix, the
// unique index refuses the second, which then picks again (a few tries; more would mean something is wrong).
async function insertWithFreeKeyPrefix<T>(create: (tx: DbOrTx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await getDb().$transaction(create);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

export async function readWork(actor: Actor, workId: string): Promise<WorkRecord> {
  const work = await findWork({ id: workId });
  if (!work) throw notFound("Work");
  await requireRole(actor, workId, "viewer");
  return work;
}

export async function listVisibleWorks(actor: Actor): Promise<WorkRecord[]> {
  return listWorks({ memberUserId: actor.isAdmin ? null : actor.userId });
}

// Which repository a Work is (and its name and base branch) is an admin's call; leads edit how it is checked.
// Pages ask this to offer the change (or say who makes it); updateWork enforces it.
export function canChangeWorkIdentity(actor: Actor): boolean {
  return actor.isAdmin;
}

// Everything a lead edits; name, repository and base branch only by admins.
export async function updateWork(actor: Actor, workId: string, input: unknown): Promise<WorkRecord> {
  const current = await findWork({ id: workId });
  if (!current) throw notFound("Work");
  await requireRole(actor, workId, "lead");
  const { version, ...patch } = parseInput(ZWorkPatch, expandAgentPreset(input));
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as WorkChanges;
  if (changes.sandboxMounts) refuseIssues(mountIssues(changes.sandboxMounts));
  const identity = (["name", "repoUrl", "baseBranch"] as const).filter(
    (k) => k in changes && JSON.stringify(changes[k]) !== JSON.stringify(current[k]),
  );
  if (identity.length > 0 && !canChangeWorkIdentity(actor))
    throw new AppError(
      "forbidden",
      `changing ${identity.join(", ")} of a Work needs an admin; a lead edits its checks, policy, ` +
        `attempts, agent command and budget`,
    );
  await refuseOutOfReachRepositories(actor, changes, workId);
  // Nothing to change: no new version (others editing would get a needless conflict).
  if (Object.keys(changes).length === 0) {
    if (version !== current.version) throw staleError("Work", version, current);
    return current;
  }
  return getDb().$transaction(async (tx) => {
    if (identity.includes("name") && changes.name) {
      await lockWorkIdentities({ db: tx });
      await refuseTakenName(changes.name, workId, tx);
    }
    if (changes.checkSources) await refuseUnknownSecrets(workId, changes.checkSources, tx);
    // A webhook sent without its secret keeps the one stored (read in the saving transaction).
    if (changes.webhooks)
      changes.webhooks = sealedWebhooks(
        changes.webhooks,
        (await findSealedWebhooks({ workId, db: tx }))?.webhooks ?? [],
      );
    if (changes.lanes) await refuseLaneEditsUnderActiveRuns(workId, current.lanes, changes.lanes, tx);
    const updated = await updateWorkAtVersion({ id: workId, version, changes, db: tx });
    if (!updated) throw staleError("Work", version, await findWork({ id: workId, db: tx }));
    const changed = changedFields(current, updated, Object.keys(changes) as (keyof WorkRecord)[]);
    // A new webhook secret changes nothing the record shows (it is never shown): said in the summary alone.
    const secretsSet = (patch.webhooks ?? []).flatMap((h, i) => (h.secret ? [`webhooks.${i}.secret`] : []));
    const said = [...changed, ...secretsSet.filter(() => !changed.includes("webhooks"))];
    if (said.length > 0) {
      await insertAuditEvent({
        event: auditBy(actor, {
          action: "work.update",
          workId,
          summary: `changed ${said.map(workFieldWords).join(", ")}`,
          before: pick(current, changed),
          after: pick(updated, changed),
        }),
        db: tx,
      });
    }
    return updated;
  });
}

// A changed field as the Work's History and the audit trail say it (webhooks.0.secret: a new webhook secret).
const IDENTITY_WORDS: Record<string, string> = { name: "name", repoUrl: "repository", baseBranch: "base branch" };
function workFieldWords(field: string): string {
  const secret = /^webhooks\.(\d+)\.secret$/.exec(field);
  if (secret) return `webhook ${Number(secret[1]) + 1}'s secret`;
  return IDENTITY_WORDS[field] ?? SETTING_WORDS[field as SettingKey] ?? field;
}

// Each new webhook secret sealed before it is stored, the others kept; a new webhook without one is refused.
function sealedWebhooks(next: readonly Webhook[], stored: readonly { id: string; secret: string }[]): Webhook[] {
  const resolved = resolveWebhookSecrets(next, stored, { newId: () => randomUUID(), seal: sealSecret });
  if ("issues" in resolved) refuseIssues(resolved.issues);
  return "hooks" in resolved ? resolved.hooks : [];
}

function secretIssues(sources: readonly CheckSource[], names: readonly string[]) {
  return unknownSecretIssues(sources, names).map((i) => ({
    path: ["checkSources", ...i.path].join("."),
    message: i.message,
  }));
}

// A mount must not hand a sandboxed command the platform itself (the rule needs the server's configuration and
// its file system: lib/runner/sandbox/real-path.ts, as each sandbox checks again when it starts).
function mountIssues(mounts: readonly SandboxMount[]) {
  const platform = { dataDir: realPathOf(dataDir()), installDir: realPathOf(installDir()) };
  return mounts.flatMap((m, i) => {
    const message = mountPlatformProblem(m.path, platform);
    return message ? [{ path: `sandboxMounts.${i}.path`, message }] : [];
  });
}

// A lane that a run is working through is not changed under it (its task would advance into stages that
// are not the ones it was dispatched with); the other lanes may change.
async function refuseLaneEditsUnderActiveRuns(
  workId: string,
  before: readonly Lane[],
  after: readonly Lane[],
  db: DbOrTx,
): Promise<void> {
  const changed = new Set(before.filter((l) => !sameLane(l, findLane(after, l.id))).map((l) => l.id));
  if (changed.size === 0) return;
  const busy = (await listActiveStageRuns({ workId, db })).find((r) => r.lane && changed.has(r.lane.id));
  if (!busy?.lane) return;
  const message =
    `lane "${busy.lane.id}" cannot change while ${busy.task.key} runs its stage ${busy.stage} ` +
    `(run #${busy.number}); wait for it to end or cancel it`;
  const at = after.findIndex((l) => l.id === busy.lane?.id);
  throw new AppError("busy", `lanes: ${message}`, [{ path: at >= 0 ? `lanes.${at}` : "lanes", message }]);
}

// A check source's secret must be one of the Work's (read in the saving transaction).
async function refuseUnknownSecrets(workId: string, sources: readonly CheckSource[], db: DbOrTx): Promise<void> {
  if (!sources.some((s) => s.secret !== undefined)) return;
  const names = (await listSecretNames({ workId, db })).map((s) => s.name);
  refuseIssues(secretIssues(sources, names));
}

// A save based on an old version: refused, with the version now saved so the editor can show it.
export function staleError(what: string, yours: number, current: { version: number } | null): AppError {
  if (current === null) return notFound(what);
  return new AppError(
    "conflict",
    `This ${what} was changed by someone else since you opened it (you edited version ${yours}; it ` +
      `is now at version ${current.version}). Nothing was saved: look at their version, then ` +
      `apply your change to it.`,
    [],
    { current },
  );
}

export function changedFields<T extends object>(before: T, after: T, keys: (keyof T)[]): (keyof T & string)[] {
  return keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])) as (keyof T & string)[];
}

export function pick<T extends object>(value: T, keys: (keyof T)[]): Partial<T> {
  return Object.fromEntries(keys.map((k) => [k, value[k]])) as Partial<T>;
}

function settingsOf(work: WorkRecord) {
  const { id: _id, createdAt: _c, updatedAt: _u, version: _v, ...settings } = work;
  return settings;
}
