// A Work's assets, for leads: list, upload (replacing one of the same name), delete; every change audited.
// The caps are checked inside the transaction that stores the file, so two uploads cannot pass them together.
import crypto from "node:crypto";
import type { Actor } from "../auth/actor";
import { deleteAsset, listAssets, upsertAsset, type AssetInfo } from "../db/assets";
import { insertAuditEvent } from "../db/audit";
import { getDb } from "../db/client";
import { findWork } from "../db/works";
import { AppError, notFound } from "../errors";
import { assetUploadProblem, sanitiseAssetName } from "../gates/assets";
import { auditBy, requireRole } from "./access";

async function requireLeadOf(actor: Actor, workId: string): Promise<void> {
  if (!(await findWork({ id: workId }))) throw notFound("Work");
  await requireRole(actor, workId, "lead");
}

function nameOf(raw: string | null): string {
  const name = raw === null ? null : sanitiseAssetName(raw);
  if (name === null) {
    const message = raw === null ? "required: the file's name (?name=…)" : "must contain a letter or digit";
    throw new AppError("validation", `name: ${message}`, [{ path: "name", message }]);
  }
  return name;
}

export async function listWorkAssets(actor: Actor, workId: string): Promise<AssetInfo[]> {
  await requireLeadOf(actor, workId);
  return listAssets({ workId });
}

export async function uploadAsset(
  actor: Actor,
  workId: string,
  rawName: string | null,
  content: Uint8Array,
): Promise<{ asset: AssetInfo; created: boolean }> {
  await requireLeadOf(actor, workId);
  const name = nameOf(rawName);
  const sha256 = crypto.createHash("sha256").update(content).digest("hex");
  return getDb().$transaction(
    async (tx) => {
      const others = (await listAssets({ workId, db: tx })).filter((a) => a.name !== name);
      const problem = assetUploadProblem({ size: content.byteLength, otherSizes: others.map((a) => a.size) });
      if (problem) throw new AppError("validation", `${problem.path}: ${problem.message}`, [problem]);
      const existed = await upsertAsset({ workId, name, content, sha256, userId: actor.userId, db: tx });
      await insertAuditEvent({
        event: auditBy(actor, {
          action: existed ? "asset.replace" : "asset.upload",
          workId,
          summary:
            `${existed ? "replaced" : "uploaded"} asset ${name} (${content.byteLength} bytes, ` +
            `sha256 ${sha256.slice(0, 12)})`,
        }),
        db: tx,
      });
      const asset = (await listAssets({ workId, db: tx })).find((a) => a.name === name)!;
      return { asset, created: !existed };
      // A megabyte written on a loaded machine can outlast Prisma's 5 s default (seen: a 500 under load).
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}

export async function removeAsset(actor: Actor, workId: string, rawName: string): Promise<void> {
  await requireLeadOf(actor, workId);
  const name = nameOf(rawName);
  if (!(await deleteAsset({ workId, name }))) throw notFound(`Asset ${name}`);
  await insertAuditEvent({
    event: auditBy(actor, { action: "asset.delete", workId, summary: `deleted asset ${name}` }),
  });
}
