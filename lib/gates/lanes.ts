// Lanes and stages (SPEC "Lanes and stages", issue 26): a Work's lanes are ordered stages, each with its own
// done-checks (every rule of a Work's checks), an optional output file and skill, and an attempt budget. A
// task on a lane stands at one stage; these are the rules and the small questions the run flow asks of them.
import { z } from "zod";
import { CHECK_ID_PATTERN, ZCheckList } from "./check-schema";
import { presentHeldOut } from "./held-out";
import { DEFAULT_ATTEMPTS, MAX_ATTEMPTS, MIN_ATTEMPTS } from "./work-fields";
import { refuseIdsRepeated } from "./duplicate-ids";

const MAX_LANES = 10;
const MAX_STAGES = 10;
const DEFAULT_STAGE_ATTEMPTS = DEFAULT_ATTEMPTS;

const SLUG_RULE = "lowercase letters, digits, - and _ only, starting with a letter or digit, at most 41 characters";

const requiredOr = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "required" : what);

const ZSlug = z.string({ error: requiredOr("must be text") }).regex(CHECK_ID_PATTERN, SLUG_RULE);

const ZName = z
  .string({ error: requiredOr("must be text") })
  .trim()
  .min(1, "required: 1–120 characters")
  .max(120, "at most 120 characters");

// The file a stage writes, relative to the checkout; it must stay inside it (symlinks are refused when read).
const ZStageOutput = z
  .string({ error: "must be text: a file path relative to the checkout" })
  .trim()
  .min(1, "must not be empty (leave it out when the stage writes no one file)")
  .max(500, "at most 500 characters")
  .refine((v) => !/[\0\n\r]/.test(v), "must not contain NUL or line breaks")
  .refine((v) => !v.startsWith("/") && !v.startsWith("~"), "must be relative to the checkout, not absolute")
  .refine((v) => !v.split(/[\\/]/).includes(".."), "must stay inside the checkout: '..' is not allowed")
  .refine((v) => !v.endsWith("/"), "must name a file, not a folder")
  .refine((v) => v.split("/")[0] !== ".gatehouse" && v.split("/")[0] !== ".git", "must not be in .gatehouse/ or .git/");

const strict = (what: string) => (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `unknown field: ${(issue.keys ?? []).join(", ")}` : `must be ${what}`;

const ZStage = z.strictObject(
  {
    id: ZSlug,
    name: ZName,
    output: ZStageOutput.optional(),
    skill: z.string({ error: "must be text (Markdown)" }).max(20_000, "at most 20000 characters").optional(),
    checks: ZCheckList.min(1, "required: at least one check decides when the stage is done"),
    maxAttempts: z
      .number({ error: "must be a whole number from 1 to 5" })
      .int("must be a whole number from 1 to 5")
      .min(MIN_ATTEMPTS, "at least 1 attempt")
      .max(MAX_ATTEMPTS, "at most 5 attempts")
      .optional(),
  },
  { error: strict("a stage {id, name, output?, skill?, checks, maxAttempts?}") },
);
export type Stage = z.output<typeof ZStage>;

// Ids are unique within their list (lanes of a Work, stages of a lane), reported beside the other errors.
const refuseRepeatedIds = (what: string) =>
  refuseIdsRepeated((id, first) => `duplicate id "${id}": already used by ${what} ${first + 1}`);
const EVEN_WITH_OTHER_ERRORS = { when: (payload: { value: unknown }) => Array.isArray(payload.value) };

const ZLane = z.strictObject(
  {
    id: ZSlug,
    name: ZName,
    stages: z
      .array(ZStage, { error: "must be a list of stages" })
      .min(1, "a lane needs at least one stage")
      .max(MAX_STAGES, `at most ${MAX_STAGES} stages a lane`)
      .superRefine(refuseRepeatedIds("stage"), EVEN_WITH_OTHER_ERRORS),
  },
  { error: strict("a lane {id, name, stages}") },
);
export type Lane = z.output<typeof ZLane>;

export const ZLanes = z
  .array(ZLane, { error: "must be a list of lanes" })
  .max(MAX_LANES, `at most ${MAX_LANES} lanes`)
  .superRefine(refuseRepeatedIds("lane"), EVEN_WITH_OTHER_ERRORS);

// A task's lane as its create and patch take it: a lane id of the Work, or null for none.
export const ZTaskLane = ZSlug.nullable();

export function findLane(lanes: readonly Lane[], laneId: string | null | undefined): Lane | null {
  return laneId ? (lanes.find((l) => l.id === laneId) ?? null) : null;
}

// Whether a lane is the same in both lists, whatever order its keys were stored in (PostgreSQL's jsonb
// keeps them in its own order, so text comparison would call every stored lane changed).
export function sameLane(a: Lane | null, b: Lane | null): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : 1)))
      : v,
  );
}

function stageIndex(lane: Lane, stageId: string | null | undefined): number {
  return stageId ? lane.stages.findIndex((s) => s.id === stageId) : -1;
}

function findStage(lane: Lane, stageId: string | null | undefined): Stage | null {
  return lane.stages[stageIndex(lane, stageId)] ?? null;
}

// The stage after this one, or null when it is the lane's last.
export function nextStage(lane: Lane, stageId: string): Stage | null {
  const i = stageIndex(lane, stageId);
  return i < 0 ? null : (lane.stages[i + 1] ?? null);
}

export function stageAttempts(stage: Stage): number {
  return stage.maxAttempts ?? DEFAULT_STAGE_ATTEMPTS;
}

// Why a task cannot be put on this lane (null: it can): the lane must be one of the Work's.
export function laneProblem(lanes: readonly Lane[], laneId: string | null): string | null {
  if (laneId === null) return null;
  if (findLane(lanes, laneId)) return null;
  return lanes.length === 0
    ? `no lane "${laneId}": this Work has no lanes (add one in its settings)`
    : `no lane "${laneId}": use one of ${lanes.map((l) => l.id).join(", ")}`;
}

// Where a task stands after its lane is set: the first stage of a new lane; its own stage when the lane is
// unchanged and still has it; nothing off a lane.
export function stageAfterLaneChange(
  lanes: readonly Lane[],
  current: { lane: string | null; stage: string | null },
  laneId: string | null,
): string | null {
  const lane = findLane(lanes, laneId);
  if (!lane) return null;
  if (current.lane === laneId && findStage(lane, current.stage)) return current.stage;
  return lane.stages[0].id;
}

// What a dispatch of a task runs: its lane's current stage (frozen with the whole lane), nothing for a task
// on no lane, or why it cannot run (its lane or stage was removed from the Work since).
export type StageToRun = { lane: Lane; stage: Stage } | { lane: null; stage: null } | { problem: string };
export function stageToRun(
  lanes: readonly Lane[],
  task: { key: string; lane: string | null; stage: string | null },
): StageToRun {
  if (task.lane === null) return { lane: null, stage: null };
  const lane = findLane(lanes, task.lane);
  if (!lane) return { problem: `${task.key} is on lane "${task.lane}", which this Work no longer has: move it` };
  const stage = findStage(lane, task.stage);
  if (!stage)
    return {
      problem: `${task.key} stands at stage "${task.stage}", which lane "${lane.id}" no longer has: move it`,
    };
  return { lane, stage };
}

// The lanes as a reader may see them: held-out stage checks as their names only below lead.
export function presentLanes(lanes: readonly Lane[], seesHidden: boolean): Lane[] {
  return lanes.map((lane) => ({
    ...lane,
    stages: lane.stages.map((s) => ({ ...s, checks: presentHeldOut(s.checks, seesHidden) })),
  }));
}

// The lane, stage and place in it that a run ran (null: a run of a task on no lane, or a lane since edited
// out from under it — the run froze its lane, so that cannot happen to a run's own copy).
export function stageOfRun(run: { lane: Lane | null; stage: string | null }) {
  if (!run.lane || !run.stage) return null;
  const i = stageIndex(run.lane, run.stage);
  if (i < 0) return null;
  return {
    lane: { id: run.lane.id, name: run.lane.name },
    stage: run.lane.stages[i],
    position: { n: i + 1, of: run.lane.stages.length },
  };
}
