import { describe, expect, it } from "vitest";
import { formatDurationSec, parseDurationSec } from "./duration";

describe("parseDurationSec", () => {
  it.each<[unknown, number]>([
    [90, 90],
    [1, 1],
    ["90", 90],
    [" 90 ", 90],
    ["007", 7],
    ["90s", 90],
    ["30sec", 30],
    ["15m", 900],
    ["15min", 900],
    ["1h", 3600],
    ["2h", 7200],
    ["1h30m", 5400],
    ["1h 30m", 5400],
    ["1h30m15s", 5415],
    ["1h 30m 15s", 5415],
    ["2m30s", 150],
    ["1H", 3600],
    ["15M", 900],
  ])("%j → %i seconds", (input, sec) => {
    expect(parseDurationSec(input)).toBe(sec);
  });

  it.each<unknown>([
    "",
    "   ",
    "abc",
    "h",
    "m",
    "s",
    "1.5m",
    "15 min",
    "-5",
    "90x",
    "m15",
    "1d",
    "30s1m",
    null,
    undefined,
    true,
    {},
    [90],
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ])("%j is not a duration", (input) => {
    expect(parseDurationSec(input)).toBeNull();
  });

  it("passes other finite numbers through for the schema to judge", () => {
    expect(parseDurationSec(1.5)).toBe(1.5);
    expect(parseDurationSec(0)).toBe(0);
    expect(parseDurationSec(-5)).toBe(-5);
  });
});

describe("formatDurationSec", () => {
  it.each<[number, string]>([
    [1, "1s"],
    [90, "90s"],
    [60, "1m"],
    [900, "15m"],
    [600, "10m"],
    [3600, "1h"],
    [5400, "90m"],
    [7200, "2h"],
    [3599, "3599s"],
  ])("%i → %s", (sec, text) => {
    expect(formatDurationSec(sec)).toBe(text);
  });

  it("parses back to the same number of seconds for every valid timeout (1–3600)", () => {
    for (let sec = 1; sec <= 3600; sec++) expect(parseDurationSec(formatDurationSec(sec))).toBe(sec);
  });
});
