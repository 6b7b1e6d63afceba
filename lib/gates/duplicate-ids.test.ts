import { describe, expect, it } from "vitest";
import { z } from "zod";
import { refuseDuplicateIds } from "./duplicate-ids";
import { toFieldIssues } from "./field-issues";

const list = z.array(z.looseObject({ id: z.unknown() })).superRefine(refuseDuplicateIds);
const issuesOf = (value: unknown) => {
  const r = list.safeParse(value);
  return r.success ? [] : toFieldIssues(r.error);
};

describe("refuseDuplicateIds", () => {
  it.each<[string, unknown[], string[]]>([
    ["an empty list", [], []],
    ["distinct ids", [{ id: "a" }, { id: "b" }, { id: "c" }], []],
    ["one repeat", [{ id: "a" }, { id: "b" }, { id: "a" }], ["2.id"]],
    ["two repeats of one id", [{ id: "a" }, { id: "a" }, { id: "a" }], ["1.id", "2.id"]],
    ["repeats of two ids", [{ id: "a" }, { id: "b" }, { id: "b" }, { id: "a" }], ["2.id", "3.id"]],
    ["ids differing in case are distinct", [{ id: "a" }, { id: "A" }], []],
    ["entries without a text id are skipped", [{ id: 1 }, { id: 1 }, { id: undefined }, { id: undefined }], []],
  ])("%s → %j", (_label, value, paths) => {
    expect(issuesOf(value).map((i) => i.path)).toEqual(paths);
  });

  it("names the id and the first check using it (counting from 1)", () => {
    expect(issuesOf([{ id: "x" }, { id: "y" }, { id: "y" }])).toEqual([
      { path: "2.id", message: 'duplicate id "y": ids must be unique within a list (already used by check 2)' },
    ]);
  });

  it("always points at the first use, not the previous repeat", () => {
    const messages = issuesOf([{ id: "z" }, { id: "z" }, { id: "z" }]).map((i) => i.message);
    expect(messages.every((m) => m.endsWith("(already used by check 1)"))).toBe(true);
  });
});
