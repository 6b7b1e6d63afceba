// A Work's and a Task's settings. Create and patch share the field rules (each Work setting once, in the
// registry of work-settings.ts); a patch carries the `version` it was read at (optimistic concurrency).
import { z } from "zod";
import { ZTaskCheckList } from "./check-schema";
import { ZTaskLane } from "./lanes";
import { settingsCreateShape, settingsPatchShape } from "./work-settings";
import { readableKey, refineVisible } from "./visible-text";
import { ZAgentCommand, ZBranchName, ZBudgetSec, ZBudgetUsd, ZMaxGateAttempts, ZRepoUrl } from "./work-fields";

export * from "./work-fields";
export type { ProofSettings } from "./work-settings";

// Two Works may not share a name: compared as a reader sees them — without case, repeated spaces, characters
// that show nothing or compatibility forms ("Billing  api", "Billing\u200b API" and "Ｂｉｌｌｉｎｇ API" are
// "Billing API").
export function workNameKey(name: string): string {
  return readableKey(name);
}

// What makes a Work which Work it is (admins change them); everything else is a setting.
const identityFields = {
  name: z
    .string({ error: "must be text" })
    .trim()
    .min(1, { error: "required: 1–120 characters", abort: true })
    .max(120, "at most 120 characters")
    .superRefine(refineVisible),
  repoUrl: ZRepoUrl,
  baseBranch: ZBranchName.nullable().optional(),
};

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `unknown field: ${(issue.keys ?? []).join(", ")}` : "must be an object";

export const ZVersion = z
  .number({ error: "required: the version you read (a whole number)" })
  .int("must be a whole number")
  .min(1, "must be at least 1");

export const ZWorkCreate = z.strictObject({ ...identityFields, ...settingsCreateShape() }, { error: strictError });
export type WorkCreate = z.infer<typeof ZWorkCreate>;

export const ZWorkPatch = z.strictObject(
  {
    name: identityFields.name.optional(),
    repoUrl: identityFields.repoUrl.optional(),
    baseBranch: identityFields.baseBranch,
    ...settingsPatchShape(),
    version: ZVersion,
  },
  { error: strictError },
);

const taskFields = {
  title: z
    .string({ error: "must be text" })
    .trim()
    .min(1, { error: "required: 1–200 characters", abort: true })
    .max(200, "at most 200 characters")
    .superRefine(refineVisible),
  description: z.string({ error: "must be text" }).max(20_000, "at most 20000 characters"),
  branch: ZBranchName,
  acceptanceChecks: ZTaskCheckList.nullable(),
  maxGateAttempts: ZMaxGateAttempts.nullable(),
  agentCommand: ZAgentCommand.nullable(),
  budgetSec: ZBudgetSec.nullable(),
  budgetUsd: ZBudgetUsd.nullable(),
  // A lane id of the Work (lib/services/tasks.ts checks it is one), or null for none.
  lane: ZTaskLane,
};

export const ZTaskCreate = z.strictObject(
  {
    title: taskFields.title,
    description: taskFields.description.default(""),
    branch: taskFields.branch.optional(),
    acceptanceChecks: taskFields.acceptanceChecks.optional().default(null),
    maxGateAttempts: taskFields.maxGateAttempts.optional().default(null),
    agentCommand: taskFields.agentCommand.optional().default(null),
    budgetSec: taskFields.budgetSec.optional().default(null),
    budgetUsd: taskFields.budgetUsd.optional().default(null),
    lane: taskFields.lane.optional().default(null),
  },
  { error: strictError },
);

export const ZTaskPatch = z.strictObject(
  {
    title: taskFields.title.optional(),
    description: taskFields.description.optional(),
    branch: taskFields.branch.optional(),
    acceptanceChecks: taskFields.acceptanceChecks.optional(),
    maxGateAttempts: taskFields.maxGateAttempts.optional(),
    agentCommand: taskFields.agentCommand.optional(),
    budgetSec: taskFields.budgetSec.optional(),
    budgetUsd: taskFields.budgetUsd.optional(),
    lane: taskFields.lane.optional(),
    version: ZVersion,
  },
  { error: strictError },
);
