import { describe, expect, it } from "vitest";
import { attemptNumberOf } from "./attempt-number";

describe("attemptNumberOf: an attempt number as an address carries it", () => {
  it.each([
    ["1", 1],
    ["9", 9],
    ["12", 12],
    ["9999", 9999],
  ])("reads %j as %i", (text, n) => expect(attemptNumberOf(text)).toBe(n));

  it.each(["", "0", "01", "10000", "-1", "+1", "1.0", "1e3", "0x1", " 1", "1 ", "abc", "١"])(
    "reads %j as no attempt",
    (text) => expect(attemptNumberOf(text)).toBeNull(),
  );
});
