// Ids are the merge key, so a list may hold each id once.
import type { z } from "zod";

export function refuseDuplicateIds(list: readonly { id?: unknown }[], ctx: z.RefinementCtx): void {
  const firstAt = new Map<string, number>();
  list.forEach((entry, index) => {
    if (typeof entry?.id !== "string") return;
    const first = firstAt.get(entry.id);
    if (first === undefined) firstAt.set(entry.id, index);
    else
      ctx.addIssue({
        code: "custom",
        path: [index, "id"],
        message: `duplicate id "${entry.id}": ids must be unique within a list (already used by check ${first + 1})`,
      });
  });
}
