// Ids are the merge key, so a list may hold each id once.
import type { z } from "zod";

// A refinement that reports every repeat of an id in a list at `[index, "id"]`, in the words `message`
// gives it (the id, and the 0-based index where it was first used).
export function refuseIdsRepeated(message: (id: string, firstIndex: number) => string) {
  return (list: readonly { id?: unknown }[], ctx: z.RefinementCtx): void => {
    const firstAt = new Map<string, number>();
    list.forEach((entry, index) => {
      if (typeof entry?.id !== "string") return;
      const first = firstAt.get(entry.id);
      if (first === undefined) firstAt.set(entry.id, index);
      else ctx.addIssue({ code: "custom", path: [index, "id"], message: message(entry.id, first) });
    });
  };
}

export const refuseDuplicateIds = refuseIdsRepeated(
  (id, first) => `duplicate id "${id}": ids must be unique within a list (already used by check ${first + 1})`,
);
