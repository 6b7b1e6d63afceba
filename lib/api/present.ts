// The JSON shapes of the API (field names exactly as the SPEC's).
import type { WorkRecord } from "../db/works";
import type { TaskView } from "../services/tasks";

export function presentWork(work: WorkRecord) {
  return {
    id: work.id,
    name: work.name,
    repoUrl: work.repoUrl,
    baseBranch: work.baseBranch,
    keyPrefix: work.keyPrefix,
    checkDefaults: work.checkDefaults,
    checksPolicy: work.checksPolicy,
    maxGateAttempts: work.maxGateAttempts,
    agentCommand: work.agentCommand,
    agentEnvPassthrough: work.agentEnvPassthrough,
    budgetSec: work.budgetSec,
    failFast: work.failFast,
    testPatterns: work.testPatterns,
    requireTests: work.requireTests,
    protectedPaths: work.protectedPaths,
    vacuousPolicy: work.vacuousPolicy,
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

export function presentTask(task: TaskView) {
  return {
    id: task.id,
    workId: task.workId,
    key: task.key,
    title: task.title,
    description: task.description,
    branch: task.branch,
    acceptanceChecks: task.acceptanceChecks,
    maxGateAttempts: task.maxGateAttempts,
    agentCommand: task.agentCommand,
    budgetSec: task.budgetSec,
    version: task.version,
    effectiveChecks: task.effective.checks,
    suppressed: task.effective.suppressed,
    effectiveMaxGateAttempts: task.effectiveMaxGateAttempts,
    warnings: task.warnings,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
}
