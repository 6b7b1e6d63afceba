// The JSON shapes of the API (field names exactly as the SPEC's).
import type { AssetInfo } from "../db/assets";
import type { DeliveryRecord } from "../db/webhook-deliveries";
import type { WorkRecord } from "../db/works";
import { presentHeldOut } from "../gates/held-out";
import { pickSettings } from "../gates/work-settings";
import { presentLanes } from "../gates/lanes";
import { deliveryFailureReason } from "../gates/webhook-failure";
import type { TaskView } from "../services/tasks";

// seesHidden: whether the reader sees held-out checks whole (leads and admins; see lib/gates/held-out.ts).
export function presentWork(work: WorkRecord, seesHidden = true) {
  return {
    id: work.id,
    name: work.name,
    repoUrl: work.repoUrl,
    baseBranch: work.baseBranch,
    keyPrefix: work.keyPrefix,
    // Every setting of the registry (lib/gates/work-settings.ts), held-out checks shown as the reader may see them.
    ...pickSettings(work),
    checkDefaults: presentHeldOut(work.checkDefaults, seesHidden),
    lanes: presentLanes(work.lanes, seesHidden),
    version: work.version,
    createdAt: work.createdAt,
    updatedAt: work.updatedAt,
  };
}

export function presentTask(task: TaskView, seesHidden = true) {
  return {
    id: task.id,
    workId: task.workId,
    key: task.key,
    title: task.title,
    description: task.description,
    branch: task.branch,
    acceptanceChecks: task.acceptanceChecks && presentHeldOut(task.acceptanceChecks, seesHidden),
    maxGateAttempts: task.maxGateAttempts,
    agentCommand: task.agentCommand,
    budgetSec: task.budgetSec,
    budgetUsd: task.budgetUsd,
    // The lane the task is on (null: none) and the stage it stands at.
    lane: task.lane,
    stage: task.stage,
    version: task.version,
    effectiveChecks: presentHeldOut(task.effective.checks, seesHidden),
    suppressed: task.effective.suppressed,
    effectiveMaxGateAttempts: task.effectiveMaxGateAttempts,
    warnings: task.warnings,
    mergedCommit: task.mergedCommit,
    // The task branch's commit the merge took in: a branch whose head is past it has work not merged yet.
    mergedHead: task.mergedHead,
    mergedAt: task.mergedAt,
    mergedBy: task.mergedBy,
    autoMergeError: task.autoMergeError,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
}

export function presentAsset(asset: AssetInfo) {
  return { name: asset.name, size: asset.size, sha256: asset.sha256, createdAt: asset.createdAt };
}

// One webhook request as the delivery log shows it (the body is what was signed and sent).
export function presentDelivery(d: DeliveryRecord) {
  return {
    id: d.id,
    webhookId: d.webhookId,
    webhookIndex: d.webhookIndex,
    url: d.url,
    event: d.event,
    runId: d.runId,
    deliveryId: d.deliveryId,
    // The event's first delivery when this one was sent again by Redeliver; null otherwise.
    redeliveryOf: d.redeliveryOf,
    attempt: d.attempt,
    maxAttempts: d.maxAttempts,
    state: d.state,
    statusCode: d.statusCode,
    error: d.error,
    // Why a failed request failed, in words (lib/gates/webhook-failure.ts); null unless failed.
    reason: deliveryFailureReason(d),
    durationMs: d.durationMs,
    dueAt: d.dueAt,
    sentAt: d.sentAt,
    createdAt: d.createdAt,
    body: d.body,
  };
}
