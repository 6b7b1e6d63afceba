// The row types lib/db hands out are Prisma's generated model types. Two clients are generated from the same
// models (prisma/models); their model types are the same (checked below), so one set is used: the SQLite
// client's. What Prisma cannot know is written here, once: what a Json column holds (what the lib/gates
// schemas let in), and that each enum is its lib/gates literal union (lib/gates must not import Prisma).
import type { Role } from "../auth/roles";
import type { Check, TaskCheckEntry } from "../gates/check-schema";
import type { CheckSource, FrozenCheckSource } from "../gates/check-sources";
import type { Gate, Verdict } from "../gates/gate";
import type { Lane } from "../gates/lanes";
import type { EffectiveCheck } from "../gates/merge-checks";
import type { Ending, RunStatus } from "../gates/run-ending";
import type { PROOF_KIND } from "../gates/proof-ids";
import type { MergePolicy } from "../gates/merge-policy";
import type { PushedAttempt } from "../gates/pushed-attempt";
import type { AgentResult } from "../gates/agent-result";
import type { MutationRecord } from "../gates/mutation";
import type { RedTeamRecord } from "../gates/red-team";
import type { ReviewRecord } from "../gates/review";
import type { ChecksPolicy, Profile } from "../gates/work-schema";
import type { NetworkMode, SandboxMount } from "../gates/sandbox-settings";
import type {
  CopiedColumns,
  GroupColumns,
  ProofSettings,
  SandboxSettings,
  SettingKey,
  TaskResolvedColumns,
  WorkSettingValues,
} from "../gates/work-settings";
import type { Webhook } from "../gates/webhooks";
import type { WorkerState } from "../gates/workers";
import type * as Pg from "./generated/postgres/client";
import type * as Lite from "./generated/sqlite/client";

export type { Prisma } from "./generated/sqlite/client";
export type Work = Lite.Work;
export type Task = Lite.Task;
export type Run = Lite.Run;
export type Attempt = Lite.Attempt;
export type CheckResult = Lite.CheckResult;
export type AuditEvent = Lite.AuditEvent;
export type Worker = Lite.Worker;
export type WebhookDelivery = Lite.WebhookDelivery;

// What each model's Json columns hold.
export type WorkJsonFields = {
  checkDefaults: Check[];
  agentEnvPassthrough: string[];
  // null: the defaults in lib/gates/work-schema.ts (lib/db/works.ts fills them in)
  testPatterns: string[] | null;
  protectedPaths: string[] | null;
  checkSources: CheckSource[];
  // null: DEFAULT_MERGE_POLICY (lib/db/works.ts fills it in)
  mergePolicy: MergePolicy | null;
  sandboxMounts: SandboxMount[];
  visibleRefs: string[];
  // Stored with each secret sealed; a WorkRecord (lib/db/works.ts) holds none (secret null, secretSet).
  webhooks: Webhook[];
  lanes: Lane[];
};
export type TaskJsonFields = { acceptanceChecks: TaskCheckEntry[] | null };
export type RunJsonFields = {
  checks: EffectiveCheck[];
  suppressed: string[];
  warnings: string[];
  agentEnvPassthrough: string[];
  // The Work's proof settings frozen at dispatch (null: a run from before proof rows).
  proof: ProofSettings | null;
  // The Work's check sources frozen at dispatch; each commit is set when the run starts.
  checkSources: FrozenCheckSource[];
  // The Work's sandbox settings frozen at dispatch (null: a run from before them; sandboxSettingsOf gives the
  // defaults it ran with).
  sandbox: SandboxSettings | null;
  // The task's lane frozen at dispatch (null: the task was on no lane).
  lane: Lane | null;
};

// The review layer and the mutation floor of an attempt (null: it did not run).
// reportNotes: what the agent's report said that was not taken (each a sentence).
export type AttemptJsonFields = {
  review: ReviewRecord | null;
  mutation: MutationRecord | null;
  redTeam: RedTeamRecord | null;
  reportNotes: string[];
  // An attempt at a pushed commit (null: the runner's own attempt).
  pushed: PushedAttempt | null;
  // What the agent CLI reported about its session (null: none recognised, or no agent step).
  agentResult: AgentResult | null;
};

type WithJson<Row, Json> = Omit<Row, keyof Json> & Json;

// A row as queried (any select or omit that keeps the Json columns), with its Json columns typed. Only a type:
// the values are what was written, and only lib/db writes them, from values the schemas validated.
function jsonTyped<Json>() {
  return <Row extends { [K in keyof Json]: Lite.Prisma.JsonValue }>(row: Row) => row as unknown as WithJson<Row, Json>;
}
export const workJson = jsonTyped<WorkJsonFields>();
export const taskJson = jsonTyped<TaskJsonFields>();
export const runJson = jsonTyped<RunJsonFields>();
export const attemptJson = jsonTyped<AttemptJsonFields>();

// ---- compile-time checks (a mismatch fails `tsc`) ---------------------------------------------------

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;

// Each Prisma enum is its domain union, value for value.
/** @public compile-time check, never imported */
export type EnumsMatchDomain = [
  Expect<Same<Lite.RunStatus, RunStatus>>,
  Expect<Same<Lite.Gate, Gate>>,
  Expect<Same<Lite.Ending, Ending>>,
  Expect<Same<Lite.Verdict, Verdict>>,
  Expect<Same<Lite.ChecksPolicy, ChecksPolicy>>,
  Expect<Same<Lite.Profile, Profile>>,
  Expect<Same<Lite.CheckKind, Check["kind"] | typeof PROOF_KIND>>,
  Expect<Same<Lite.Role, Role>>,
  Expect<Same<Lite.WorkerState, WorkerState>>,
  Expect<Same<Lite.Network, NetworkMode>>,
];

// The registry of Work settings (lib/gates/work-settings.ts) and the models agree, so a setting cannot be
// added to one and forgotten in the other:
// - every Work column is the Work's identity, bookkeeping, or a setting of the registry, and every setting
//   of the registry is a column;
// - a setting's stored value is what its schema lets in (null lists and merge policy: the defaults);
// - every Run column is the run's own, or frozen from a setting, and every column the registry freezes into
//   exists on Run.
type WorkOwnColumns =
  | "id"
  | "name"
  | "repoUrl"
  | "baseBranch"
  | "keyPrefix"
  | "nextTaskNumber"
  | "version"
  | "createdAt"
  | "updatedAt";
type RunOwnColumns =
  | "id"
  | "taskId"
  | "workId"
  | "number"
  | "status"
  | "gate"
  | "ending"
  | "endingReason"
  | "agentCaveat"
  | "suppressed"
  | "warnings"
  | "branch"
  | "startCommit"
  | "spentMs"
  | "budgetFromMs"
  | "bestAttempt"
  | "bestCommit"
  | "needsDecision"
  | "decision"
  | "decisionReason"
  | "decidedById"
  | "decidedAt"
  | "dispatchedById"
  | "createdAt"
  | "startedAt"
  | "finishedAt"
  | "updatedAt"
  | "claimedBy"
  | "workerName"
  | "handBacks"
  | "sandboxMode"
  | "supersededById"
  | "stage";
type StoredWork = WithJson<Lite.Work, WorkJsonFields>;
type StoredAsValidated<K extends SettingKey> = K extends "testPatterns" | "protectedPaths" | "mergePolicy"
  ? Exclude<StoredWork[K], null>
  : StoredWork[K];
/** @public compile-time check, never imported */
export type SettingsMatchModels = [
  Expect<Same<Exclude<keyof Lite.Work, WorkOwnColumns>, SettingKey>>,
  Expect<Same<{ [K in SettingKey]: StoredAsValidated<K> }, WorkSettingValues>>,
  Expect<Same<Exclude<keyof Lite.Run, RunOwnColumns>, CopiedColumns | GroupColumns | TaskResolvedColumns>>,
];

// The PostgreSQL client's rows are the SQLite client's (client.ts types the client as the SQLite one).
/** @public compile-time check, never imported */
export type ClientsAgree = [
  Expect<Same<Pg.Work, Lite.Work>>,
  Expect<Same<Pg.Task, Lite.Task>>,
  Expect<Same<Pg.Run, Lite.Run>>,
  Expect<Same<Pg.Attempt, Lite.Attempt>>,
  Expect<Same<Pg.CheckResult, Lite.CheckResult>>,
  Expect<Same<Pg.AuditEvent, Lite.AuditEvent>>,
  Expect<Same<Pg.Membership, Lite.Membership>>,
  Expect<Same<Pg.User, Lite.User>>,
  Expect<Same<Pg.Session, Lite.Session>>,
  Expect<Same<Pg.ApiToken, Lite.ApiToken>>,
  Expect<Same<Pg.Secret, Lite.Secret>>,
  Expect<Same<Pg.Worker, Lite.Worker>>,
  Expect<Same<Pg.LogChunk, Lite.LogChunk>>,
  Expect<Same<Pg.WebhookDelivery, Lite.WebhookDelivery>>,
];
