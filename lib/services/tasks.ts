// Tasks: create, read with effective checks, change (with version) — authorized, validated, audited.
import { branchBesideBaseProblem } from "../gates/task-branch";
import type { Actor } from "../auth/actor";
import { AppError, notFound } from "../errors";
import {
  findUnmatchedSuppressions,
  resolveChecks,
  resolveMaxAttempts,
  type ResolvedChecks,
} from "../gates/merge-checks";
import { defaultBranchFor, taskKey } from "../gates/task-keys";
import { ZTaskCreate, ZTaskPatch } from "../gates/work-schema";
import type { TaskCheckEntry } from "../gates/check-schema";
import { laneProblem, stageAfterLaneChange, stageAttempts, stageToRun, type Stage } from "../gates/lanes";
import { getDb } from "../db/client";
import { insertAuditEvent } from "../db/audit";
import {
  findTask,
  insertTask,
  isBranchTaken,
  listTasks,
  updateTaskAtVersion,
  type TaskChanges,
  type TaskRecord,
} from "../db/tasks";
import { findWork, takeNextTaskNumber, type WorkRecord } from "../db/works";
import { countRunsOfTask } from "../db/run-history";
import { findActiveRunOfTask } from "../db/runs";
import { auditBy, requireRole, standingAllows, standingOn } from "./access";
import { grantingEntriesNeedingLead } from "../gates/grants";
import { keepHeldOutEntries, touchedHeldOutDefault } from "../gates/held-out";
import { parseInput, refuseIssues } from "./validate";
import { expandAgentPreset } from "./agent-presets";
import { changedFields, pick, staleError } from "./works";

export type TaskView = TaskRecord & {
  effective: ResolvedChecks;
  effectiveMaxGateAttempts: number;
  warnings: string[];
};

// What a dispatch would run now: on a lane, its current stage's checks and attempts (the task's own
// overrides do not apply there); otherwise the Work's defaults merged with the task's entries.
function viewTask(task: TaskRecord, work: WorkRecord): TaskView {
  const onStage = currentStageOf(task, work);
  if (onStage)
    return {
      ...task,
      effective: { checks: onStage.checks, suppressed: [], staleSuppressions: [] },
      effectiveMaxGateAttempts: work.checksPolicy === "required" ? onStage.attempts : 1,
      warnings: [],
    };
  const effective = resolveChecks(work.checkDefaults, task.acceptanceChecks);
  return {
    ...task,
    effective,
    effectiveMaxGateAttempts: resolveMaxAttempts(work, task),
    warnings: staleWarnings(effective.staleSuppressions),
  };
}

// What a dispatch of a task on a lane would run now: its current stage's checks and attempts, not the
// Work's (null: the task is on no lane, or its lane or stage is gone and a dispatch is refused).
export function currentStageOf(
  task: TaskRecord,
  work: WorkRecord,
): { stage: Stage; checks: ResolvedChecks["checks"]; attempts: number } | null {
  const toRun = stageToRun(work.lanes, task);
  if ("problem" in toRun || !toRun.stage) return null;
  return {
    stage: toRun.stage,
    checks: resolveChecks(toRun.stage.checks, null).checks,
    attempts: stageAttempts(toRun.stage),
  };
}

export function staleWarnings(ids: string[]): string[] {
  return ids.map(
    (id) => `"${id}" is suppressed by this task but no default has that id any more; the entry is ignored`,
  );
}

function suppressionIssues(work: WorkRecord, entries: TaskCheckEntry[] | null | undefined) {
  return findUnmatchedSuppressions(work.checkDefaults, entries ?? null).map((i) => ({
    path: ["acceptanceChecks", ...i.path].join("."),
    message: i.message,
  }));
}

// Granting environment names to a check, or choosing the agent command, is a lead's call.
async function requireLeadForGrants(
  actor: Actor,
  work: WorkRecord,
  current: TaskRecord | null,
  next: { acceptanceChecks?: TaskCheckEntry[] | null; agentCommand?: string | null },
): Promise<void> {
  const ids =
    next.acceptanceChecks === undefined
      ? []
      : grantingEntriesNeedingLead(work.checkDefaults, current?.acceptanceChecks ?? null, next.acceptanceChecks);
  const isAgentChange = next.agentCommand !== undefined && next.agentCommand !== (current?.agentCommand ?? null);
  if ((ids.length === 0 && !isAgentChange) || standingAllows(await standingOn(actor, work.id), "lead")) return;
  const what =
    ids.length > 0
      ? `giving ${ids.map((id) => `"${id}"`).join(", ")} envPassthrough names (access to secrets and server variables)`
      : "setting the task's agent command";
  throw new AppError(
    "forbidden",
    `${what} needs the lead role on this Work; an engineer may edit checks that grant no names`,
  );
}

// Held-out checks are the lead's. Below lead, a task's checks as saved keep the task's held-out entries as a
// lead set them, add none, and neither suppress nor replace one of the Work's: an engineer (or an agent
// holding an engineer's token) could otherwise swap the check the agent never sees for `true`.
async function heldOutAsTheLeadSetThem<E extends TaskCheckEntry>(
  actor: Actor,
  work: WorkRecord,
  current: E[] | null,
  next: E[] | null,
): Promise<E[] | null> {
  if (standingAllows(await standingOn(actor, work.id), "lead")) return next;
  const kept = keepHeldOutEntries(current, next);
  if ("added" in kept)
    throw new AppError("forbidden", `adding the held-out check "${kept.added}" needs the lead role on this Work`);
  const touched = touchedHeldOutDefault(work.checkDefaults, current, kept.entries);
  if (touched)
    throw new AppError(
      "forbidden",
      `suppressing or replacing the Work's held-out check "${touched}" needs the lead role on this Work`,
    );
  return kept.entries;
}

export async function createTask(actor: Actor, workId: string, input: unknown): Promise<TaskView> {
  const work = await findWork({ id: workId });
  if (!work) throw notFound("Work");
  await requireRole(actor, workId, "engineer");
  const data = parseInput(ZTaskCreate, expandAgentPreset(input));
  refuseIssues(suppressionIssues(work, data.acceptanceChecks));
  refuseIssues(laneIssues(work, data.lane));
  refuseIssues(baseBranchIssues(work, data.branch));
  await requireLeadForGrants(actor, work, null, data);
  if (data.acceptanceChecks !== undefined)
    data.acceptanceChecks = await heldOutAsTheLeadSetThem(actor, work, null, data.acceptanceChecks);
  const task = await getDb().$transaction(async (tx) => {
    const number = await takeNextTaskNumber({ workId, db: tx });
    const key = taskKey(work.keyPrefix, number);
    // freeDefaultBranch only returns a branch no task has; a branch given by hand is checked here.
    const branch = data.branch ?? (await freeDefaultBranch(workId, key, tx));
    if (data.branch !== undefined && (await isBranchTaken({ workId, branch, db: tx }))) {
      throw new AppError(
        "validation",
        `branch: "${branch}" is already the branch of another task of this Work; two tasks never share a branch`,
        [
          {
            path: "branch",
            message: `"${branch}" is already the branch of another task of this Work; two tasks never share a branch`,
          },
        ],
      );
    }
    const stage = stageAfterLaneChange(work.lanes, { lane: null, stage: null }, data.lane);
    const created = await insertTask({ data: { ...data, stage, workId, number, key, branch }, db: tx });
    await insertAuditEvent({
      event: auditBy(actor, {
        action: "task.create",
        workId,
        taskId: created.id,
        summary: `created ${key} "${created.title}"`,
        after: {
          acceptanceChecks: created.acceptanceChecks,
          maxGateAttempts: created.maxGateAttempts,
          ...(created.lane ? { lane: created.lane, stage: created.stage } : {}),
        },
      }),
      db: tx,
    });
    return created;
  });
  return viewTask(task, work);
}

// The branch derived from the key, or the next free variant when a task took that name by hand.
async function freeDefaultBranch(
  workId: string,
  key: string,
  db: Parameters<typeof isBranchTaken>[0]["db"],
): Promise<string> {
  const base = defaultBranchFor(key);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await isBranchTaken({ workId, branch: candidate, db }))) return candidate;
  }
}

export async function readTask(actor: Actor, taskId: string): Promise<{ task: TaskView; work: WorkRecord }> {
  const task = await findTask({ id: taskId });
  if (!task) throw notFound("Task");
  await requireRole(actor, task.workId, "viewer");
  const work = (await findWork({ id: task.workId }))!;
  return { task: viewTask(task, work), work };
}

export async function listTasksOfWork(actor: Actor, workId: string): Promise<TaskView[]> {
  const work = await findWork({ id: workId });
  if (!work) throw notFound("Work");
  await requireRole(actor, workId, "viewer");
  return (await listTasks({ workId })).map((t) => viewTask(t, work));
}

const AUDITED_TASK_FIELDS = [
  "acceptanceChecks",
  "maxGateAttempts",
  "agentCommand",
  "budgetSec",
  "budgetUsd",
  "title",
  "description",
  "branch",
  "lane",
  "stage",
] as const;
// How the task's History says each field (the before/after keep the API's names).
const TASK_FIELD_WORDS: Record<(typeof AUDITED_TASK_FIELDS)[number], string> = {
  acceptanceChecks: "checks",
  maxGateAttempts: "attempts",
  agentCommand: "agent command",
  budgetSec: "time budget",
  budgetUsd: "cost budget",
  title: "title",
  description: "description",
  branch: "branch",
  lane: "lane",
  stage: "stage",
};
const fieldWords = (field: string) => TASK_FIELD_WORDS[field as keyof typeof TASK_FIELD_WORDS] ?? field;

// A task's branch is refused where it would be the base branch or in its place (lib/gates/task-branch.ts);
// with no base branch set, the checkout refuses it against the repository's default branch.
function baseBranchIssues(work: WorkRecord, branch: string | undefined) {
  const problem = branch !== undefined && work.baseBranch ? branchBesideBaseProblem(branch, work.baseBranch) : null;
  return problem ? [{ path: "branch", message: problem }] : [];
}

function laneIssues(work: WorkRecord, laneId: string | null | undefined) {
  const problem = laneId === undefined ? null : laneProblem(work.lanes, laneId);
  return problem ? [{ path: "lane", message: problem }] : [];
}

export async function updateTask(actor: Actor, taskId: string, input: unknown): Promise<TaskView> {
  const current = await findTask({ id: taskId });
  if (!current) throw notFound("Task");
  await requireRole(actor, current.workId, "engineer");
  const work = (await findWork({ id: current.workId }))!;
  const { version, ...patch } = parseInput(ZTaskPatch, expandAgentPreset(input));
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as TaskChanges;
  refuseIssues(suppressionIssues(work, changes.acceptanceChecks));
  refuseIssues(laneIssues(work, changes.lane));
  refuseIssues(baseBranchIssues(work, changes.branch));
  if (changes.lane === current.lane) delete changes.lane;
  else if (changes.lane !== undefined) changes.stage = stageAfterLaneChange(work.lanes, current, changes.lane);
  await requireLeadForGrants(actor, work, current, changes);
  if (changes.acceptanceChecks !== undefined)
    changes.acceptanceChecks = await heldOutAsTheLeadSetThem(
      actor,
      work,
      current.acceptanceChecks,
      changes.acceptanceChecks,
    );
  // Nothing to change: no new version (others editing would get a needless conflict).
  if (Object.keys(changes).length === 0) {
    if (version !== current.version) throw staleError("task", version, current);
    return viewTask(current, work);
  }
  const updated = await getDb().$transaction(async (tx) => {
    if (changes.lane !== undefined) {
      const active = await findActiveRunOfTask({ taskId, db: tx });
      if (active) {
        const message = `cannot move ${current.key} to another lane while run #${active.number} is ${active.status}`;
        throw new AppError("busy", `lane: ${message}`, [{ path: "lane", message }]);
      }
    }
    if (changes.branch !== undefined && changes.branch !== current.branch) {
      if ((await countRunsOfTask({ taskId, db: tx })) > 0) {
        throw new AppError(
          "validation",
          `branch: cannot change after the task's first run (its worktree is on "${current.branch}")`,
          [
            {
              path: "branch",
              message: `cannot change after the task's first run (its worktree is on "${current.branch}")`,
            },
          ],
        );
      }
      if (await isBranchTaken({ workId: current.workId, branch: changes.branch, exceptTaskId: taskId, db: tx })) {
        throw new AppError(
          "validation",
          `branch: "${changes.branch}" is already the branch of another task of this Work`,
          [{ path: "branch", message: `"${changes.branch}" is already the branch of another task of this Work` }],
        );
      }
    }
    const next = await updateTaskAtVersion({ id: taskId, version, changes, db: tx });
    if (!next) throw staleError("task", version, await findTask({ id: taskId, db: tx }));
    const changed = changedFields(
      current,
      next,
      AUDITED_TASK_FIELDS.filter((k) => k in changes),
    );
    if (changed.length > 0) {
      await insertAuditEvent({
        event: auditBy(actor, {
          action: "task.update",
          workId: current.workId,
          taskId,
          summary: `changed ${changed.map(fieldWords).join(", ")} of ${current.key}`,
          before: pick(current, changed),
          after: pick(next, changed),
        }),
        db: tx,
      });
    }
    return next;
  });
  return viewTask(updated, work);
}
