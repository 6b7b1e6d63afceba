import { describe, expect, it } from "vitest";
import { diffSettings, showValue } from "./settings-diff";

const check = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `${id} check`,
  kind: "test",
  command: `run ${id}`,
  required: true,
  ...extra,
});

describe("diffSettings: plain fields", () => {
  it("unchanged settings give no lines", () => {
    const s = {
      checksPolicy: "required",
      maxGateAttempts: 3,
      checkDefaults: [check("a"), check("b")],
      acceptanceChecks: null,
    };
    expect(diffSettings(s, structuredClone(s))).toEqual([]);
    expect(diffSettings({}, {})).toEqual([]);
    expect(diffSettings(null, null)).toEqual([]);
  });

  it("a scalar change is one line, before → after", () => {
    expect(
      diffSettings({ checksPolicy: "warn", maxGateAttempts: 3 }, { checksPolicy: "required", maxGateAttempts: 3 }),
    ).toEqual([{ path: "checksPolicy", change: "changed", before: "warn", after: "required" }]);
  });

  it("numbers, booleans and null are shown as JSON; a missing field as (not set)", () => {
    expect(
      diffSettings(
        { maxGateAttempts: 3, failFast: false, budgetSec: null },
        { maxGateAttempts: 5, failFast: true, budgetSec: 600 },
      ),
    ).toEqual([
      { path: "maxGateAttempts", change: "changed", before: "3", after: "5" },
      { path: "failFast", change: "changed", before: "false", after: "true" },
      { path: "budgetSec", change: "changed", before: "null", after: "600" },
    ]);
    expect(diffSettings({}, { agentCommand: "claude -p" })).toEqual([
      { path: "agentCommand", change: "changed", before: "(not set)", after: "claude -p" },
    ]);
    expect(diffSettings({ agentCommand: "claude -p" }, {})).toEqual([
      { path: "agentCommand", change: "changed", before: "claude -p", after: "(not set)" },
    ]);
  });

  it("a null side (creation or deletion) compares against nothing", () => {
    expect(diffSettings(null, { checksPolicy: "warn" })).toEqual([
      { path: "checksPolicy", change: "changed", before: "(not set)", after: "warn" },
    ]);
    expect(diffSettings({ checksPolicy: "warn" }, null)).toEqual([
      { path: "checksPolicy", change: "changed", before: "warn", after: "(not set)" },
    ]);
  });

  it("showValue", () => {
    expect(showValue(null)).toBe("null");
    expect(showValue(undefined)).toBe("(not set)");
    expect(showValue("text")).toBe("text");
    expect(showValue(["A", "B"])).toBe('["A","B"]');
    expect(showValue(0)).toBe("0");
  });
});

describe("diffSettings: check lists compared by id", () => {
  it("an added check", () => {
    const added = check("lint", { kind: "lint" });
    expect(diffSettings({ checkDefaults: [check("unit")] }, { checkDefaults: [check("unit"), added] })).toEqual([
      { path: "checkDefaults.lint", change: "added", after: JSON.stringify(added) },
    ]);
  });

  it("a removed check", () => {
    const gone = check("unit");
    expect(diffSettings({ checkDefaults: [gone, check("lint")] }, { checkDefaults: [check("lint")] })).toEqual([
      { path: "checkDefaults.unit", change: "removed", before: JSON.stringify(gone) },
    ]);
  });

  it("a changed field is one line naming the check and the field", () => {
    expect(
      diffSettings(
        { checkDefaults: [check("unit"), check("lint")] },
        { checkDefaults: [check("unit", { command: "npm test" }), check("lint")] },
      ),
    ).toEqual([{ path: "checkDefaults.unit.command", change: "changed", before: "run unit", after: "npm test" }]);
  });

  it("several changed fields of one check are one line each; set and unset fields show (not set)", () => {
    const lines = diffSettings(
      { checkDefaults: [check("unit", { timeoutSec: 60, required: true })] },
      { checkDefaults: [check("unit", { required: false, envPassthrough: ["API_KEY"] })] },
    );
    expect(lines).toHaveLength(3);
    expect(lines).toEqual(
      expect.arrayContaining([
        { path: "checkDefaults.unit.required", change: "changed", before: "true", after: "false" },
        { path: "checkDefaults.unit.timeoutSec", change: "changed", before: "60", after: "(not set)" },
        { path: "checkDefaults.unit.envPassthrough", change: "changed", before: "(not set)", after: '["API_KEY"]' },
      ]),
    );
  });

  it("a check moved is reported as the new order, without field lines", () => {
    expect(
      diffSettings(
        { checkDefaults: [check("a"), check("b"), check("c")] },
        { checkDefaults: [check("c"), check("a"), check("b")] },
      ),
    ).toEqual([{ path: "checkDefaults order", change: "moved", before: "a, b, c", after: "c, a, b" }]);
  });

  it("adding at the front or removing does not count as a move", () => {
    expect(
      diffSettings(
        { checkDefaults: [check("a"), check("b")] },
        { checkDefaults: [check("new"), check("a"), check("b")] },
      ).map((l) => l.change),
    ).toEqual(["added"]);
    expect(
      diffSettings(
        { checkDefaults: [check("a"), check("b"), check("c")] },
        { checkDefaults: [check("a"), check("c")] },
      ).map((l) => l.change),
    ).toEqual(["removed"]);
  });

  it("added, changed, removed and moved together", () => {
    const lines = diffSettings(
      { checkDefaults: [check("a"), check("b"), check("gone")] },
      { checkDefaults: [check("b", { name: "B!" }), check("new"), check("a")] },
    );
    expect(lines).toEqual([
      { path: "checkDefaults.b.name", change: "changed", before: "b check", after: "B!" },
      { path: "checkDefaults.new", change: "added", after: JSON.stringify(check("new")) },
      { path: "checkDefaults.gone", change: "removed", before: JSON.stringify(check("gone")) },
      { path: "checkDefaults order", change: "moved", before: "a, b", after: "b, a" },
    ]);
  });

  it("task entries: a suppression ({id, disabled}) replacing a full entry is field changes", () => {
    const lines = diffSettings(
      { acceptanceChecks: [check("unit")] },
      { acceptanceChecks: [{ id: "unit", disabled: true }] },
    );
    expect(lines.map((l) => l.path).sort()).toEqual([
      "acceptanceChecks.unit.command",
      "acceptanceChecks.unit.disabled",
      "acceptanceChecks.unit.kind",
      "acceptanceChecks.unit.name",
      "acceptanceChecks.unit.required",
    ]);
    expect(lines.find((l) => l.path === "acceptanceChecks.unit.disabled")).toEqual({
      path: "acceptanceChecks.unit.disabled",
      change: "changed",
      before: "(not set)",
      after: "true",
    });
  });

  it("field order inside a check does not count as a change", () => {
    expect(
      diffSettings(
        { checkDefaults: [{ id: "a", name: "A", command: "x" }] },
        { checkDefaults: [{ command: "x", name: "A", id: "a" }] },
      ),
    ).toEqual([]);
  });
});

describe("diffSettings: acceptanceChecks null ↔ a list", () => {
  it("null → list says inherit → n task entries", () => {
    expect(
      diffSettings({ acceptanceChecks: null }, { acceptanceChecks: [check("unit"), { id: "lint", disabled: true }] }),
    ).toEqual([
      { path: "acceptanceChecks", change: "changed", before: "inherit the Work's defaults", after: "2 task entries" },
    ]);
  });

  it("list → null says n task entries → inherit", () => {
    expect(diffSettings({ acceptanceChecks: [check("unit")] }, { acceptanceChecks: null })).toEqual([
      {
        path: "acceptanceChecks",
        change: "changed",
        before: expect.stringMatching(/^1 task entr(y|ies)$/),
        after: "inherit the Work's defaults",
      },
    ]);
  });

  it("null → empty list is still a change (an override that merges nothing)", () => {
    expect(diffSettings({ acceptanceChecks: null }, { acceptanceChecks: [] })).toEqual([
      { path: "acceptanceChecks", change: "changed", before: "inherit the Work's defaults", after: "0 task entries" },
    ]);
  });

  it("null → null and unchanged lists give nothing", () => {
    expect(
      diffSettings(
        { acceptanceChecks: null, maxGateAttempts: null },
        { acceptanceChecks: null, maxGateAttempts: null },
      ),
    ).toEqual([]);
    expect(diffSettings({ acceptanceChecks: [check("a")] }, { acceptanceChecks: [check("a")] })).toEqual([]);
  });

  it("a list change in acceptanceChecks is compared by id like checkDefaults", () => {
    expect(
      diffSettings({ acceptanceChecks: [check("a")] }, { acceptanceChecks: [check("a", { cwd: "pkg" })] }),
    ).toEqual([{ path: "acceptanceChecks.a.cwd", change: "changed", before: "(not set)", after: "pkg" }]);
  });
});
