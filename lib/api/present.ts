// The JSON shapes of the API (field names exactly as the SPEC's).
import type { AssetInfo } from "../db/assets";
import type { WorkRecord } from "../db/works";
import { presentHeldOut } from "../gates/held-out";
import type { TaskView } from "../services/tasks";

// seesHidden: whether the reader sees held-out checks whole (leads and admins; see lib/gates/held-out.ts).
export function presentWork(work: WorkRecord, seesHidden = true) {
  return {
    id: work.id,
    name: work.name,
    repoUrl: work.repoUrl,
    baseBranch: work.baseBranch,
    keyPrefix: work.keyPrefix,
    checkDefaults: presentHeldOut(work.checkDefaults, seesHidden),
    checksPolicy: work.checksPolicy,
    maxGateAttempts: work.maxGateAttempts,
    agentCommand: work.agentCommand,
    agentEnvPassthrough: work.agentEnvPassthrough,
    budgetSec: work.budgetSec,
    budgetUsd: work.budgetUsd,
    failFast: work.failFast,
    strictEvaluation: work.strictEvaluation,
    testPatterns: work.testPatterns,
    requireTests: work.requireTests,
    protectedPaths: work.protectedPaths,
    vacuousPolicy: work.vacuousPolicy,
    checkSources: work.checkSources,
    mergePolicy: work.mergePolicy,
    resultsDir: work.resultsDir,
    profile: work.profile,
    reviewCommand: work.reviewCommand,
    mutationCommand: work.mutationCommand,
    mutationReport: work.mutationReport,
    redTeamCommand: work.redTeamCommand,
    redTeamTestCommand: work.redTeamTestCommand,
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
    version: task.version,
    effectiveChecks: presentHeldOut(task.effective.checks, seesHidden),
    suppressed: task.effective.suppressed,
    effectiveMaxGateAttempts: task.effectiveMaxGateAttempts,
    warnings: task.warnings,
    mergedCommit: task.mergedCommit,
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
