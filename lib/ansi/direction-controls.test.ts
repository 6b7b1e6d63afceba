import { describe, expect, it } from "vitest";
import { directionPieces } from "./direction-controls";

describe("directionPieces", () => {
  it("cuts every text-direction control out as a piece of its own, named by its code point", () => {
    expect(directionPieces("invoice\u202Egnp.exe \u2066x\u2069")).toEqual([
      { text: "invoice", control: null },
      { text: "\u202E", control: "U+202E" },
      { text: "gnp.exe ", control: null },
      { text: "\u2066", control: "U+2066" },
      { text: "x", control: null },
      { text: "\u2069", control: "U+2069" },
    ]);
  });

  it("leaves text without one whole, other scripts and marks included", () => {
    for (const text of ["plain", "", "שלום עולם", "a\u200Fb"])
      expect(directionPieces(text)).toEqual([{ text, control: null }]);
    expect(directionPieces("\u202A")).toEqual([{ text: "\u202A", control: "U+202A" }]);
  });
});
