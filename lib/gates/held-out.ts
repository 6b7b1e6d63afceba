import { sameJson } from "./same-json";

// Held-out checks (hidden: true) as someone below lead sees them: their name and verdict, never what they
// run. Pages get the check with its command blanked; the API leaves the command and the rest out.
type Listed = { id: string; name?: string; kind?: string; required?: boolean; hidden?: boolean; source?: string };

function summary<C extends Listed>(check: C) {
  const { id, name, kind, required, source } = check;
  return { id, name, kind, required, ...(source ? { source } : {}), hidden: true as const };
}

// For pages: the same shape, command "" (a page says "its command is shown to leads").
export function withholdHidden<C extends Listed & { command?: string }>(checks: C[], seesHidden: boolean): C[] {
  return seesHidden ? checks : checks.map((c) => (c.hidden ? ({ ...summary(c), command: "" } as C) : c));
}

// For the API: a held-out check is its id, name, kind, required, source and `hidden: true` (typed as the
// check it stands for, so the API's shapes stay one type; its other fields are absent).
export function presentHeldOut<C extends Listed>(checks: C[], seesHidden: boolean): C[] {
  return seesHidden ? checks : checks.map((c) => (c.hidden ? (summary(c) as unknown as C) : c));
}

type Entry = { id: string; hidden?: boolean };

// An engineer's save of a task's checks keeps the task's held-out checks exactly as the lead set them (an
// engineer never saw their commands, so could neither edit nor knowingly drop one); a held-out check the
// engineer adds is refused (null: the id of the first one).
export function keepHeldOutEntries<E extends Entry>(
  current: readonly E[] | null,
  next: readonly E[] | null,
): { entries: E[] | null } | { added: string } {
  const kept = (current ?? []).filter((e) => e.hidden === true);
  const keptIds = new Set(kept.map((e) => e.id));
  const added = (next ?? []).find((e) => e.hidden === true && !keptIds.has(e.id));
  if (added) return { added: added.id };
  const others = (next ?? []).filter((e) => !keptIds.has(e.id));
  if (next === null && kept.length === 0) return { entries: null };
  return { entries: [...others, ...kept] };
}

// The first of the Work's held-out checks that a save below lead would suppress or replace for the task
// (an entry with its id: `disabled`, or a check of its own that runs instead — `true`, say), or null. An
// entry a lead already saved on the task is let through unchanged: the engineer sends back what is there.
export function touchedHeldOutDefault<E extends Entry>(
  defaults: readonly Entry[],
  current: readonly E[] | null,
  next: readonly E[] | null,
): string | null {
  const heldOut = new Set(defaults.filter((d) => d.hidden === true).map((d) => d.id));
  const before = new Map((current ?? []).map((e) => [e.id, e]));
  return (next ?? []).find((e) => heldOut.has(e.id) && !sameJson(before.get(e.id), e))?.id ?? null;
}
