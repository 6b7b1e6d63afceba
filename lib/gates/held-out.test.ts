import { describe, expect, it } from "vitest";
import { keepHeldOutEntries, touchedHeldOutDefault } from "./held-out";

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

describe("touchedHeldOutDefault: a save below lead may not suppress or replace the Work's held-out check", () => {
  const defaults = [{ id: "held", hidden: true }, { id: "unit" }];
  it.each([
    ["suppressed", null, [{ id: "held", disabled: true }], "held"],
    ["replaced by a visible check", null, [{ id: "held", command: "true" }], "held"],
    ["replaced by a held-out check of the task's", null, [{ id: "held", hidden: true, command: "true" }], "held"],
    ["a visible default overridden", null, [{ id: "unit", command: "true" }], null],
    [
      "a lead's suppression sent back as it is",
      [{ id: "held", disabled: true }],
      [{ id: "held", disabled: true }],
      null,
    ],
    [
      "a lead's suppression sent back changed",
      [{ id: "held", disabled: true }],
      [{ id: "held", command: "true" }],
      "held",
    ],
    ["nothing about it", [{ id: "held", disabled: true }], [{ id: "other", command: "x" }], null],
  ] as const)("%s", (_label, current, next, want) => {
    expect(
      touchedHeldOutDefault<{ id: string; hidden?: boolean; disabled?: boolean; command?: string }>(
        defaults,
        current,
        next,
      ),
    ).toBe(want);
  });
});
