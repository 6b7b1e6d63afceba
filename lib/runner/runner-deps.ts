// What the runner needs from its surroundings, passed in so tests and benchmarks use the real thing
// with their own data dir.
import type { RunRecord } from "../db/runs";
import type { OutputMasker } from "./output/masker";
import type { RunnerSettings } from "./settings";

export type RunnerDeps = RunnerSettings & {
  serverEnv: Readonly<Record<string, string | undefined>>;
  // The Work's secrets (name → value), for envPassthrough and masking.
  loadSecrets: (workId: string) => Promise<Record<string, string>>;
  makeMasker: (secretValues: string[]) => OutputMasker;
  // After a run's ending "accepted" is recorded (the Work's autoMerge), given the run as recorded; never
  // throws, never changes the run.
  afterAccepted?: (run: RunRecord) => Promise<void>;
  // The proof re-runs as before test selection: whole commands, one rule after the other (`npm run bench --
  // proof` measures both ways in one run).
  wholeProofReruns?: boolean;
};

// Why a run's execution was stopped from outside.
export type StopReason = { kind: "cancel"; by: string } | { kind: "shutdown" };
