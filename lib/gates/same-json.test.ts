import { describe, expect, it } from "vitest";
import { sameJson } from "./same-json";

describe("sameJson", () => {
  it.each([
    ["keys in another order", { id: "a", name: "A", env: ["X"] }, { env: ["X"], name: "A", id: "a" }, true],
    ["nested objects in another order", [{ a: { x: 1, y: 2 } }], [{ a: { y: 2, x: 1 } }], true],
    ["a different value", { id: "a", required: true }, { id: "a", required: false }, false],
    ["list items in another order", ["X", "Y"], ["Y", "X"], false],
    ["a key only on one side", { id: "a" }, { id: "a", cwd: "x" }, false],
    ["null and an empty list", null, [], false],
  ])("%s", (_name, a, b, same) => {
    expect(sameJson(a, b)).toBe(same);
  });
});
