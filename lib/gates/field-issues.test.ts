import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeIssues, issuesByField, toFieldIssues, type FieldIssue } from "./field-issues";

function errorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const result = schema.safeParse(value);
  if (result.success) throw new Error("expected a failure");
  return result.error;
}

const schema = z.object({
  name: z.string({ error: "must be text" }),
  checkDefaults: z.array(z.object({ timeoutSec: z.number().min(1, "at least 1 second") })),
});

describe("toFieldIssues", () => {
  it("joins a nested path with dots, indexes included", () => {
    const error = errorOf(schema, {
      name: "w",
      checkDefaults: [{ timeoutSec: 1 }, { timeoutSec: 1 }, { timeoutSec: 0 }],
    });
    expect(toFieldIssues(error)).toEqual([{ path: "checkDefaults.2.timeoutSec", message: "at least 1 second" }]);
  });

  it("gives the empty path for an issue about the value as a whole", () => {
    expect(toFieldIssues(errorOf(z.string({ error: "must be text" }), 1))).toEqual([
      { path: "", message: "must be text" },
    ]);
  });

  it("puts a prefix in front of every path", () => {
    const error = errorOf(schema, { name: 1, checkDefaults: [{ timeoutSec: 0 }] });
    expect(toFieldIssues(error, ["work", 3])).toEqual([
      { path: "work.3.name", message: "must be text" },
      { path: "work.3.checkDefaults.0.timeoutSec", message: "at least 1 second" },
    ]);
  });

  it("a prefix alone names a whole-value issue", () => {
    expect(toFieldIssues(errorOf(z.string({ error: "must be text" }), 1), ["acceptanceChecks"])).toEqual([
      { path: "acceptanceChecks", message: "must be text" },
    ]);
  });

  it("keeps every issue, in order", () => {
    const error = errorOf(schema, { name: 2, checkDefaults: [{ timeoutSec: 0 }, { timeoutSec: -1 }] });
    expect(toFieldIssues(error).map((i) => i.path)).toEqual([
      "name",
      "checkDefaults.0.timeoutSec",
      "checkDefaults.1.timeoutSec",
    ]);
  });
});

describe("describeIssues", () => {
  it.each<[string, FieldIssue[], string]>([
    ["no issues", [], "invalid input"],
    [
      "one issue with a path",
      [{ path: "checkDefaults.2.timeoutSec", message: "at least 1 second" }],
      "checkDefaults.2.timeoutSec: at least 1 second",
    ],
    ["one issue without a path", [{ path: "", message: "unknown field: foo" }], "unknown field: foo"],
    [
      "two issues",
      [
        { path: "name", message: "must be text" },
        { path: "repoUrl", message: "must not start with '-'" },
      ],
      "name: must be text (and 1 more)",
    ],
    [
      "three issues, the first without a path",
      [
        { path: "", message: "unknown field: x" },
        { path: "a", message: "m" },
        { path: "b", message: "m" },
      ],
      "unknown field: x (and 2 more)",
    ],
  ])("%s → %j", (_label, issues, expected) => {
    expect(describeIssues(issues)).toBe(expected);
  });
});

describe("issuesByField", () => {
  const fields = ["name", "repoUrl", "baseBranch"] as const;

  it.each<[string, FieldIssue[], ReturnType<typeof issuesByField<(typeof fields)[number]>>]>([
    ["no issues", [], { byField: {}, rest: [] }],
    [
      "each field its own issue",
      [
        { path: "repoUrl", message: "must not start with '-'" },
        { path: "baseBranch", message: "must not contain '..' or '//'" },
      ],
      { byField: { repoUrl: "must not start with '-'", baseBranch: "must not contain '..' or '//'" }, rest: [] },
    ],
    [
      "a field's first issue, a nested path included",
      [
        { path: "name.0", message: "first" },
        { path: "name", message: "second" },
      ],
      { byField: { name: "first" }, rest: [] },
    ],
    [
      "issues no field names kept, in order (a prefix of another word is not the field)",
      [
        { path: "version", message: "must be at least 1" },
        { path: "nameless", message: "unknown field: nameless" },
        { path: "", message: "must be an object" },
      ],
      {
        byField: {},
        rest: [
          { path: "version", message: "must be at least 1" },
          { path: "nameless", message: "unknown field: nameless" },
          { path: "", message: "must be an object" },
        ],
      },
    ],
  ])("%s", (_case, issues, expected) => {
    expect(issuesByField(issues, fields)).toEqual(expected);
  });
});
