// The gate of an attempt from its check verdicts, under the run's policy.
import type { ChecksPolicy } from "./work-schema";

// hollow: a test check that would pass, but whose output shows that no test ran (see test-summary.ts).
export const VERDICTS = ["queued", "running", "passed", "failed", "hollow", "timeout", "error", "skipped"] as const;
export type Verdict = (typeof VERDICTS)[number];
// stopped: the attempt ended (cancelled, interrupted, nothing could be judged) before its gate was decided,
// and no required check had failed by then. A finished attempt or run is never "pending" or "running".
export const GATES = ["pending", "running", "green", "red", "off", "stopped"] as const;
export type Gate = (typeof GATES)[number];

export type VerdictOfCheck = { required: boolean; verdict: Verdict };

export function isFinishedVerdict(verdict: Verdict): boolean {
  return verdict !== "queued" && verdict !== "running";
}

export function isBlockingVerdict(verdict: Verdict): boolean {
  return verdict === "failed" || verdict === "hollow" || verdict === "timeout" || verdict === "error";
}

// Required checks decide; the others only report. Under policy off the gate is "off".
export function computeGate(policy: ChecksPolicy, results: readonly VerdictOfCheck[]): Gate {
  if (policy === "off") return "off";
  if (results.some((r) => !isFinishedVerdict(r.verdict))) {
    return results.some((r) => r.verdict !== "queued") ? "running" : "pending";
  }
  // Green only when every required check passed: a required check skipped or not run is not a pass.
  return results.every((r) => !r.required || r.verdict === "passed") ? "green" : "red";
}

// An attempt cut short: red when a required check had already failed (nothing later can make it green),
// otherwise stopped — its required checks were not all run to the end, so it is neither green nor red.
export function gateOfStoppedAttempt(results: readonly VerdictOfCheck[]): Gate {
  return results.some((r) => r.required && isBlockingVerdict(r.verdict)) ? "red" : "stopped";
}

// The gate a run or attempt keeps once it has ended: one still undecided (pending, running) was stopped.
export function endedGate(gate: Gate): Gate {
  return gate === "pending" || gate === "running" ? "stopped" : gate;
}

// What a gate chip says: a run that ended inconclusive (it could not clone, a required check could not run)
// proved nothing either way, so its chip says so rather than the gate its last attempt left (often a green
// "nothing required" for an attempt that never ran a check).
export type ShownGate = Gate | "inconclusive";
export function gateShown(gate: Gate, ending: string | null | undefined): ShownGate {
  return ending === "inconclusive" ? "inconclusive" : gate;
}

// A green gate with nothing required is green by default only; the UI must say so.
export function isNothingRequired(checks: readonly { required: boolean }[]): boolean {
  return !checks.some((c) => c.required);
}

export function countRequiredPassed(results: readonly VerdictOfCheck[]): number {
  return results.filter((r) => r.required && r.verdict === "passed").length;
}

export type VerdictInput = {
  timedOut: boolean;
  exitCode: number | null;
  expectExit?: number;
  expectStdout?: string;
  stdoutFound: boolean;
};

// passed: exit code = expectExit (default 0) and expectStdout found when set.
export function decideVerdict(input: VerdictInput): "passed" | "failed" | "timeout" {
  if (input.timedOut) return "timeout";
  if (input.exitCode === null) return "failed";
  if (input.exitCode !== (input.expectExit ?? 0)) return "failed";
  if (input.expectStdout !== undefined && !input.stdoutFound) return "failed";
  return "passed";
}
