import { describe, expect, it } from "vitest";
import { keepHeldOutEntries } from "./held-out";

const held = { id: "h", hidden: true, command: "secret" };
const mine = { id: "m", command: "true" };

describe("keepHeldOutEntries: an engineer's save keeps the task's held-out checks as the lead set them", () => {
  it.each([
    ["dropped from the list: kept", [held], [mine], { entries: [mine, held] }],
    ["the whole list cleared: kept", [held], null, { entries: [held] }],
    [
      "sent back changed: the stored one wins",
      [held],
      [{ id: "h", hidden: true, command: "weakened" }],
      { entries: [held] },
    ],
    ["sent back as a visible check: the stored one wins", [held], [{ id: "h", command: "true" }], { entries: [held] }],
    ["no held-out checks: the list as sent", [mine], null, { entries: null }],
    ["a held-out check added", null, [{ id: "new", hidden: true, command: "x" }], { added: "new" }],
  ] as const)("%s", (_label, current, next, want) => {
    expect(keepHeldOutEntries<{ id: string; hidden?: boolean; command: string }>(current, next)).toEqual(want);
  });
});
