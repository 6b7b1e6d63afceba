// Every action the code records falls in one kind of the audit page's filter, so no entry is left out of
// every kind (a new action area must be given a kind: this test names it).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_KINDS, auditWhoFilter, isAuditKind, kindOfAction } from "./audit-kinds";

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" || entry.name === "dist" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const recordedActions = () => {
  const found = new Set<string>();
  for (const file of [...sourceFiles("lib"), ...sourceFiles("app")]) {
    const text = fs.readFileSync(file, "utf8");
    // action: "run.dispatch", and the two sides of action: cond ? "user.disable" : "user.enable"
    for (const m of text.matchAll(/action:\s*(?:[^"\n,]*\?\s*)?"([a-z]+\.[a-z.-]+)"(?:\s*:\s*"([a-z]+\.[a-z.-]+)")?/g))
      for (const action of [m[1], m[2]]) if (action) found.add(action);
  }
  return [...found].sort();
};

describe("audit kinds", () => {
  it("every action the code records is in exactly one kind", () => {
    const actions = recordedActions();
    expect(actions).toEqual(expect.arrayContaining(["auth.signin", "run.dispatch", "user.disable", "user.enable"]));
    for (const action of actions) {
      const kinds = AUDIT_KINDS.filter((k) => k.prefixes.some((p) => action.startsWith(p)));
      expect(
        kinds.map((k) => k.id),
        action,
      ).toHaveLength(1);
    }
  });

  it("sorts actions as people read them", () => {
    expect(kindOfAction("auth.signin-failed")).toBe("access");
    expect(kindOfAction("member.role")).toBe("people");
    expect(kindOfAction("task.update")).toBe("settings");
    expect(kindOfAction("task.merge.refused")).toBe("runs");
    expect(kindOfAction("nothing.known")).toBeNull();
  });

  it("reads the filters leniently: a kind that is none is no kind; who is trimmed", () => {
    expect(isAuditKind("people")).toBe(true);
    expect(isAuditKind("People")).toBe(false);
    expect(isAuditKind(["people"])).toBe(false);
    expect(auditWhoFilter("  Ana@Example.COM ")).toBe("Ana@Example.COM");
    expect(auditWhoFilter("   ")).toBeUndefined();
    expect(auditWhoFilter(undefined)).toBeUndefined();
  });
});
