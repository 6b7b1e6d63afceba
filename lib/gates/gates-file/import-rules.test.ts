import { describe, expect, it } from "vitest";
import type { Check } from "../check-schema";
import { judgeImport } from "./import-rules";

const check = (id: string): Check => ({ id, name: `Check ${id}`, kind: "test", command: "true", required: true });
const many = (n: number, prefix = "c") => Array.from({ length: n }, (_, i) => check(`${prefix}${i}`));

describe("judgeImport", () => {
  it("refuses to replace the list with 21 checks, as a save would", () => {
    const { replace } = judgeImport([], many(21));
    expect(replace.problems).toEqual([{ path: "checkDefaults", message: "at most 20 checks" }]);
  });
  it("judges an append on the list it would make: the cap, and an id the list already has", () => {
    const { replace, append } = judgeImport(many(15, "old"), many(6));
    expect(replace.problems).toEqual([]);
    expect(append.checks).toHaveLength(21);
    expect(append.problems).toEqual([{ path: "checkDefaults", message: "at most 20 checks" }]);
    expect(judgeImport([check("unit")], [check("unit")]).append.problems).toEqual([
      {
        path: "checkDefaults.1.id",
        message: 'duplicate id "unit": ids must be unique within a list (already used by check 1)',
      },
    ]);
  });
  it("lets a list within the rules through", () => {
    expect(judgeImport(many(3), many(2, "n")).append.problems).toEqual([]);
  });
});
