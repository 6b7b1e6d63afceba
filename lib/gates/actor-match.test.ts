import { describe, expect, it } from "vitest";
import { actorMatches, actorPieces, foldCase } from "./actor-match";

// What SQLite's LIKE (and PostgreSQL's ILIKE at the least) sets aside: ASCII case.
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
// The database's answer to actorPieces, as SQLite's LIKE gives it.
const databaseKeeps = (label: string, typed: string) =>
  actorPieces(typed).pieces.every((spellings) => spellings.some((s) => asciiLower(label).includes(asciiLower(s))));

describe("actorMatches: part of the label, case aside, literally", () => {
  it.each([
    ["Gatehouse", "gatehouse", true],
    ["Gatehouse", "GATEHOUSE", true],
    ["Worker-A", "worker-a", true],
    ["ana@example.test", "ANA@", true],
    ["Ärger-Bot", "ärger", true],
    ["ärger-bot", "ÄRGER", true],
    ["Иван Петров", "иван п", true],
    ["ΟΔΟΣ", "οδοσ", true],
    ["Ärger-Bot", "arger", false],
    ["100%_done", "%_", true],
    ["100x done", "100_", false],
    ["100x done", "%", false],
    ["back\\slash", "K\\S", true],
    ["Straße", "STRASSE", false],
  ])("%s, typed %s: %s", (label, typed, expected) => {
    expect(actorMatches(label, typed)).toBe(expected);
  });
});

describe("actorPieces: what the database is asked first", () => {
  it("splits at % _ \\ and sends none of them", () => {
    expect(actorPieces("100%_do\\ne")).toEqual({ pieces: [["100"], ["do"], ["ne"]], isExact: false });
    expect(actorPieces("%_")).toEqual({ pieces: [], isExact: false });
  });

  it("spells a letter beyond ASCII in every case folding to it; ASCII case is the database's", () => {
    expect(actorPieces("GATE")).toEqual({ pieces: [["gate"]], isExact: true });
    expect(actorPieces("ÄR")).toEqual({ pieces: [["är", "Är"]], isExact: true });
    expect(actorPieces("k")).toEqual({ pieces: [["k", "\u212a"]], isExact: true });
    expect(actorPieces("ω")).toEqual({ pieces: [["ω", "Ω", "\u2126"]], isExact: true });
  });

  it("starts a new piece where the spellings would pass 16", () => {
    const { pieces, isExact } = actorPieces("ääääää");
    expect(pieces.map((p) => p.length)).toEqual([16, 4]);
    expect(isExact).toBe(false);
  });

  it("no character above U+1FFFF has a case (the spellings are looked for below it)", () => {
    for (let cp = 0x20000; cp <= 0x10ffff; cp++) {
      const c = String.fromCodePoint(cp);
      if (c.toLowerCase() !== c || c.toUpperCase() !== c) throw new Error(`U+${cp.toString(16)} has a case`);
    }
  });

  it("the database never leaves out a label the match keeps: every character typed in any case", () => {
    for (let cp = 0; cp <= 0x1ffff; cp++) {
      const c = String.fromCodePoint(cp);
      for (const typed of new Set([c, foldCase(c), c.toUpperCase()]))
        if (actorMatches(c, typed) && !databaseKeeps(c, typed))
          throw new Error(`U+${cp.toString(16)} typed as ${JSON.stringify(typed)} is left out`);
    }
  });

  it("… and labels of awkward letters, typed in part with their case changed", () => {
    const alphabet = [..."aAkK\u212aäÄßẞİiIσΣςωΩ\u2126ǅǆǄ%_\\x -"];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let kept = 0;
    for (let round = 0; round < 5000; round++) {
      const label = Array.from({ length: 1 + random(12) }, () => alphabet[random(alphabet.length)]).join("");
      const chars = [...label];
      const from = random(chars.length);
      const typed = chars
        .slice(from, from + 1 + random(chars.length - from))
        .map((c) => [c, c.toUpperCase(), c.toLowerCase(), foldCase(c)][random(4)])
        .join("");
      if (!actorMatches(label, typed)) continue;
      kept++;
      expect(databaseKeeps(label, typed), `${label} typed ${typed}`).toBe(true);
    }
    expect(kept).toBeGreaterThan(2000);
  });
});
