// Merging a Work's check defaults with a task's entries into the effective checks a dispatch freezes.
import { DEFAULT_TIMEOUT_SEC, isDisabledEntry, type Check, type TaskCheckEntry } from "./check-schema";

export type CheckSource = "inherited" | "overridden" | "added";
export type EffectiveCheck = Check & { source: CheckSource };

export type ResolvedChecks = {
  checks: EffectiveCheck[];
  // Defaults suppressed for this task.
  suppressed: string[];
  // Disabled entries whose id matches no default any more (left stale by a later edit of the defaults).
  staleSuppressions: string[];
};

// Same id replaces the default in place; disabled suppresses it; new ids follow the defaults in task order.
export function resolveChecks(defaults: readonly Check[], entries: readonly TaskCheckEntry[] | null): ResolvedChecks {
  if (entries === null) {
    return { checks: defaults.map((c) => ({ ...c, source: "inherited" })), suppressed: [], staleSuppressions: [] };
  }
  const byId = new Map(entries.map((e) => [e.id, e]));
  const defaultIds = new Set(defaults.map((d) => d.id));
  const checks: EffectiveCheck[] = [];
  const suppressed: string[] = [];
  for (const def of defaults) {
    const entry = byId.get(def.id);
    if (!entry) checks.push({ ...def, source: "inherited" });
    else if (isDisabledEntry(entry)) suppressed.push(def.id);
    else checks.push({ ...stripDisabled(entry), source: "overridden" });
  }
  const staleSuppressions: string[] = [];
  for (const entry of entries) {
    if (defaultIds.has(entry.id)) continue;
    if (isDisabledEntry(entry)) staleSuppressions.push(entry.id);
    else checks.push({ ...stripDisabled(entry), source: "added" });
  }
  return { checks, suppressed, staleSuppressions };
}

function stripDisabled(entry: Check & { disabled?: false }): Check {
  const { disabled: _ignored, ...check } = entry;
  return check;
}

// A disabled entry must suppress an existing default when it is saved (stale ones are only warned about later).
export function findUnmatchedSuppressions(
  defaults: readonly Check[],
  entries: readonly TaskCheckEntry[] | null,
): { path: (string | number)[]; message: string }[] {
  if (!entries) return [];
  const defaultIds = new Set(defaults.map((d) => d.id));
  return entries.flatMap((entry, index) =>
    isDisabledEntry(entry) && !defaultIds.has(entry.id)
      ? [
          {
            path: [index, "id"],
            message: `"${entry.id}" matches no check in the Work's defaults, so there is nothing to suppress`,
          },
        ]
      : [],
  );
}

export function timeoutOf(check: Pick<Check, "timeoutSec">): number {
  return check.timeoutSec ?? DEFAULT_TIMEOUT_SEC;
}

// Task null inherits the Work's budget of attempts.
export function resolveMaxAttempts(
  work: { maxGateAttempts: number },
  task: { maxGateAttempts: number | null },
): number {
  return task.maxGateAttempts ?? work.maxGateAttempts;
}

export function resolveInherited<T>(workValue: T, taskValue: T | null): T {
  return taskValue ?? workValue;
}
