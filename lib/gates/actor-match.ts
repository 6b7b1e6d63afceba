// The audit trail's "who" filter: part of an actor's label, matched literally with case aside, alike on SQLite
// and PostgreSQL. The match itself is done here, in JavaScript; the database is only asked first for the rows
// that may match (actorPieces), so that it never leaves out a row this match keeps.

// A character in Unicode's lower case when that is one character ("Ä" → "ä", "Σ" → "σ"), else as it is
// ("İ", whose lower case is "i" and a combining dot). Character for character, so a folded label's characters
// stand where the label's did (what lets actorPieces ask the database for each piece of a folded text).
function foldChar(c: string): string {
  const lower = c.toLowerCase();
  return [...lower].length === 1 ? lower : c;
}

export function foldCase(text: string): string {
  return Array.from(text, foldChar).join("");
}

// Whether `typed` is part of the label, case aside; % and _ are themselves, not wildcards.
export function actorMatches(label: string, typed: string): boolean {
  return foldCase(label).includes(foldCase(typed));
}

// Every character that folds to another, by what it folds to (the Kelvin sign and "K" under "k"; "Ω" and the
// ohm sign under "ω"). Built once, when first needed (~10 ms): no character above U+1FFFF has a case.
let othersByFold: Map<string, string[]> | undefined;
function foldingTo(folded: string): readonly string[] {
  if (!othersByFold) {
    othersByFold = new Map();
    for (let cp = 0; cp <= 0x1ffff; cp++) {
      const c = String.fromCodePoint(cp);
      const f = foldChar(c);
      if (f !== c) othersByFold.set(f, [...(othersByFold.get(f) ?? []), c]);
    }
  }
  return othersByFold.get(folded) ?? [];
}

const isAscii = (c: string) => c.charCodeAt(0) < 0x80;
// LIKE's wildcards, and PostgreSQL's escape character: never sent, the pieces are split at them.
const LIKE_SPECIALS = new Set(["%", "_", "\\"]);
const MAX_SPELLINGS = 16;

// What the database is asked for: the label holds every piece, each in one of its spellings, compared with ASCII
// case aside (SQLite's LIKE; PostgreSQL's ILIKE) and every other character as it is. The spellings of a piece
// write each of its letters beyond ASCII in every case that folds to it ("ä" as "ä" or "Ä"); so a row this
// match keeps holds each piece, whatever either database makes of case beyond ASCII. A piece stops at % _ \
// and where its spellings would grow past 16. `isExact`: one piece that is all of `typed`.
export function actorPieces(typed: string): { pieces: string[][]; isExact: boolean } {
  const pieces: string[][] = [];
  let spellings = [""];
  let isExact = true;
  const close = () => {
    if (spellings[0] !== "") pieces.push(spellings);
    spellings = [""];
  };
  for (const c of foldCase(typed)) {
    if (LIKE_SPECIALS.has(c)) {
      close();
      isExact = false;
      continue;
    }
    // The database sets ASCII case aside itself.
    const ways = [c, ...foldingTo(c).filter((o) => !isAscii(o))];
    if (spellings.length * ways.length > MAX_SPELLINGS) {
      close();
      isExact = false;
    }
    spellings = spellings.flatMap((s) => ways.map((w) => s + w));
  }
  close();
  return { pieces, isExact: isExact && pieces.length === 1 };
}
