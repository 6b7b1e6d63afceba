import { describe, expect, it } from "vitest";
import { defaultBranchFor, freeKeyPrefix, keyPrefixFor, taskKey } from "./task-keys";
import { ZBranchName } from "./work-schema";

describe("freeKeyPrefix", () => {
  it("is the name's prefix while no Work holds it, then the first of it with 2, 3, … that none does", () => {
    const taken =
      (...prefixes: string[]) =>
      (p: string) =>
        prefixes.includes(p);
    expect(freeKeyPrefix("Payments", taken())).toBe("PAYM");
    expect(freeKeyPrefix("Payments", taken("PAYM"))).toBe("PAYM2");
    expect(freeKeyPrefix("Payments", taken("PAYM", "PAYM2", "PAYM4"))).toBe("PAYM3");
    // "Web 2" holds WEB2: the second "Web" skips it.
    expect(freeKeyPrefix("Web", taken("WEB", "WEB2"))).toBe("WEB3");
  });
});

describe("keyPrefixFor", () => {
  it.each([
    ["Gatehouse demo", "GATE"],
    ["gatehouse", "GATE"],
    ["Payments", "PAYM"],
    ["API", "API"],
    ["Ab", "AB"],
    ["a-b c", "ABC"],
    ["web 2", "WEB2"],
    ["X9 project", "X9PR"],
    ["2024 roadmap", "ROAD"],
    ["123 ab", "AB"],
    ["Über app", "BERA"],
    // Fewer than two usable characters: a generic prefix.
    ["A", "TASK"],
    ["a1", "A1"],
    ["1", "TASK"],
    ["", "TASK"],
    ["   ", "TASK"],
    ["日本語", "TASK"],
    ["9 x", "TASK"],
  ])("%j → %s", (name, prefix) => {
    expect(keyPrefixFor(name)).toBe(prefix);
  });

  it("is always 2–4 upper-case letters or digits, starting with a letter", () => {
    for (const name of ["Gatehouse demo", "a", "42", "é", "ab-cd-ef", "The 3 musketeers", "z9z9z9"]) {
      expect(keyPrefixFor(name)).toMatch(/^[A-Z][A-Z0-9]{1,3}$/);
    }
  });
});

describe("taskKey", () => {
  it.each([
    ["GATE", 1, "GATE-1"],
    ["GATE", 12, "GATE-12"],
    ["TASK", 1000, "TASK-1000"],
  ])("%s, %d → %s", (prefix, n, key) => {
    expect(taskKey(prefix, n)).toBe(key);
  });
});

describe("defaultBranchFor", () => {
  it.each([
    ["GATE-12", "gatehouse/gate-12"],
    ["TASK-1", "gatehouse/task-1"],
    ["X9PR-300", "gatehouse/x9pr-300"],
  ])("%s → %s", (key, branch) => {
    expect(defaultBranchFor(key)).toBe(branch);
  });

  it("always derives a branch name the schema accepts", () => {
    for (const name of ["Gatehouse demo", "a", "Über app", "2024 roadmap"]) {
      for (const n of [1, 9, 10, 999]) {
        expect(ZBranchName.safeParse(defaultBranchFor(taskKey(keyPrefixFor(name), n))).success).toBe(true);
      }
    }
  });
});
