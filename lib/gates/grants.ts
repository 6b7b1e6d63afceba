// Giving a check environment names (envPassthrough: secrets, server variables) is a lead's call, like
// editing secrets. An engineer may edit a task's checks, but an entry that grants names and is new or
// changed (other than copying the Work's default as it is) needs a lead. So does the agent command.
import type { Check, TaskCheckEntry } from "./check-schema";
import { sameJson as same } from "./same-json";

// Ids of entries in `next` that grant names and are not already approved (saved as they are, or the default).
export function grantingEntriesNeedingLead(
  defaults: readonly Check[],
  current: readonly TaskCheckEntry[] | null,
  next: readonly TaskCheckEntry[] | null,
): string[] {
  const ids: string[] = [];
  for (const entry of next ?? []) {
    if (entry.disabled === true || !entry.envPassthrough?.length) continue;
    const { disabled: _d, ...check } = entry;
    const def = defaults.find((d) => d.id === entry.id);
    if (def && same(check, def)) continue;
    const saved = current?.find((e) => e.id === entry.id);
    if (saved && same(saved, entry)) continue;
    ids.push(entry.id);
  }
  return ids;
}
